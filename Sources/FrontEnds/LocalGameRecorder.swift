import GameCore
import GameRecords
import MatchCoordination
import PlayerFiles
import TerminalUI

/// Records the full-screen UI's local games: each once it is over; a finished game taken back (undo) loses its
/// record, since it was not played that way, and is recorded again (in the same file) if finished another way.
package final class LocalGameRecorder {
  let archive: GameArchive
  let playerName: String
  /// The moves each game (by number) was last recorded with.
  private var recorded: [Int: [Position]] = [:]

  package init(archive: GameArchive, playerName: String) {
    self.archive = archive
    self.playerName = playerName
  }

  /// Called whenever the state may have changed; writes a record only for a finished game not yet recorded as is,
  /// and removes the record of a game that is no longer over (taken back).
  func update(_ match: Match?) {
    if let match, !match.isOver, match.forfeit == nil, recorded.removeValue(forKey: match.number) != nil {
      archive.discard(key: match.number)
    }
    if let match, match.forfeit != nil, case .engine(let name) = match.opponent,
      recorded[match.number] != match.game.history
    {
      recorded[match.number] = match.game.history
      archive.keep(
        RecordOfGame.forfeit(
          game: match.game, engine: name, humanMark: match.humanMark, playerName: playerName,
          date: RecordOfGame.today()),
        key: match.number)
      return
    }
    guard let match, match.isOver, recorded[match.number] != match.game.history,
      let record = RecordOfGame.local(
        game: match.game, opponent: match.opponent, humanMark: match.humanMark, playerName: playerName,
        date: RecordOfGame.today(), clock: match.clock, swap2: match.swap2?.opening)
    else { return }
    recorded[match.number] = match.game.history
    archive.keep(record, key: match.number)
  }
}
