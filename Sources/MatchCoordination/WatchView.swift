import GameCore
import Session
import WireProtocol

/// The game as its spectators see it, made from the host's session after each step; compared with what they were
/// last told, it says what they are sent (a move, a result, or the whole position again). Pure.
public struct WatchView: Equatable, Sendable {
  public var joinerName: String
  public var joinerKey: [UInt8]
  public var game: UInt16
  public var hostPlaysX: Bool
  public var moves: [Position]
  public var times: [OfferedTime]
  public var score: [UInt16]
  public var end: WatchedEnd?
  /// A Swap2 opening's choices so far: each one resends the snapshot (rule 23).
  public var choices: [Swap2.Choice] = []
}

extension WatchView {
  /// The view of the host's `session` with the joiner whose certificate's key is `key` (nil before its hello).
  public init?(session: NetSession, key: [UInt8]) {
    guard let name = session.peerName else { return nil }
    joinerName = name.unsanitised
    joinerKey = key
    game = UInt16(clamping: session.gameNumber)
    hostPlaysX = (session.myMark ?? .x) == .x
    moves = session.game?.history ?? []
    let agreed = session.agreedTimes(plies: moves.count)
    times = agreed.map { OfferedTime(charged: UInt32(clamping: $0.charged), left: UInt32(clamping: $0.left)) }
    let match = MatchScore(session.score, of: .host)
    score = [match.hostWins, match.joinerWins, match.draws].map { UInt16(clamping: $0) }
    end = session.lastResult.map(Self.end)
    choices = session.openingChoicesMade
  }

  /// A game's result as spectators are told it.
  public static func end(_ result: GameResult) -> WatchedEnd {
    switch result {
    case .line(let winner): return WatchedEnd(.line, mark: winner)
    case .draw: return WatchedEnd(.fullBoard)
    case .resigned(let loser): return WatchedEnd(.resigned, mark: loser)
    case .abandoned(let loser): return WatchedEnd(.abandoned, mark: loser)
    case .drawAgreed: return WatchedEnd(.drawAgreed)
    case .deadPosition: return WatchedEnd(.deadPosition)
    case .aborted: return WatchedEnd(.aborted)
    case .lostOnTime(let loser): return WatchedEnd(.lostOnTime, mark: loser)
    case .disputed(let claimant): return WatchedEnd(.disputed, mark: claimant)
    }
  }

  /// The view `moves` moves late (the host's `--watch-delay`, so that a spectator cannot help a player): the last
  /// `moves` moves of a game still on held back with their times; a game that ended shows all of them, so the
  /// moves held back are sent before its result.
  public func delayed(by moves: Int) -> WatchView {
    guard moves > 0, end == nil else { return self }
    var view = self
    let shown = max(0, self.moves.count - moves)
    view.moves = Array(self.moves.prefix(shown))
    view.times = Array(times.prefix(shown))
    return view
  }

  public func snapshot(watchers: Int) -> WatchSnapshot {
    WatchSnapshot(
      joinerName: joinerName, joinerKey: joinerKey, game: game, hostPlaysX: hostPlaysX, moves: moves,
      times: times.count == moves.count ? times : [], score: score, end: end, watchers: UInt16(clamping: watchers),
      choices: choices)
  }

  /// What takes a spectator told `before` to this view: the moves made since and the result when the game ended;
  /// the whole position again when anything else changed (a new game, a takeback, another joiner).
  public func messages(after before: WatchView?, watchers: Int) -> [Message] {
    guard let before, before != self else { return before == nil ? [.watchSnapshot(snapshot(watchers: watchers))] : [] }
    let sameGame =
      before.joinerKey == joinerKey && before.game == game && before.hostPlaysX == hostPlaysX
      && before.choices == choices
      && before.moves.count <= moves.count && Array(moves.prefix(before.moves.count)) == before.moves
    guard sameGame, before.end == nil || before.end == end, before.end != nil || before.score == score || end != nil
    else { return [.watchSnapshot(snapshot(watchers: watchers))] }
    var said: [Message] = (before.moves.count..<moves.count).map { ply in
      .watchMove(
        game: game, ply: UInt16(ply), position: moves[ply], time: times.count > ply ? times[ply] : nil)
    }
    if before.end == nil, let end { said.append(.watchEnd(game: game, end: end, score: score)) }
    return said
  }
}
