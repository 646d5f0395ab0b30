import EventLoop
import GameCore
import MatchCoordination
import TerminalUI
import UntrustedText

/// What a spectator's full screen shows of the game it watches, from what its host sent (`WatchUpdate`): the
/// board, the players with their keys shortened, the score, the result, a note for each game begun and ended,
/// and both clocks of a timed game.
enum WatchPresenter {
  /// `update` shown on `net`; `hostKey` is the host's fingerprint as its certificate gave it.
  static func apply(_ update: WatchUpdate, hostKey: String?, now: Double = Monotonic.now(), to net: inout NetGameState)
  {
    var watching = net.watching ?? NetGameState.Watching()
    let watched: WatchedGame
    switch update {
    case .position(let game), .moved(let game, _, _), .ended(let game), .unfinished(let game, _): watched = game
    }
    let begun = watched.gameNumber != watching.gameNumber && watched.gameNumber > 0
    let choicesSeen = begun ? nil : watching.opening.map { $0.log.count - $0.game.history.count }
    watching.host = .init(name: watched.hostName, key: hostKey.map(NetGameState.Watching.shortKey))
    watching.joiner = .init(
      name: watched.joinerName, key: watched.joinerKey.map { NetGameState.Watching.shortKey($0.description) })
    watching.hostPlaysX = watched.hostPlaysX
    watching.gameNumber = watched.gameNumber
    watching.score = watched.score.count == 3 ? watched.score : [0, 0, 0]
    watching.result = watched.end == nil ? nil : PlainWatchWords.said(watched)
    watching.since = now
    watching.unfinished = nil
    watching.opening = watched.opening
    net.watching = watching
    net.game = watched.gameNumber > 0 ? watched.game : nil
    if begun {
      let players = "\(watching.name(.x)) (X) against \(watching.name(.o)) (O)"
      net.addChat(.note("Game \(watched.gameNumber)\(watched.gameNumber > 1 ? ", a rematch" : ""): \(players)."))
    }
    // Each Swap2 choice made while the game was watched, as the players' conversation says it.
    for (index, choice) in (watched.swap2Choices ?? []).enumerated() where index >= choicesSeen ?? .max {
      let chooser = watching.name(index == 0 ? Swap2.Player.second : .first)
      net.addChat(.note(NetSwap2Words.choice(choice, by: chooser, mine: false)))
    }
    if case .ended = update, let result = watching.result {
      net.addChat(.note("Game \(watched.gameNumber): \(result). \(watching.scoreLine(separator: ", "))."))
    }
    if case .unfinished(_, let why) = update {
      watching.unfinished = "Game \(watched.gameNumber) ended unfinished: \(why)."
      net.watching = watching
      net.addChat(.note(watching.unfinished ?? ""))
      net.clocks = clocks(watched, since: now, now: now).map {
        .init(mine: $0.mine, theirs: $0.theirs, running: nil, control: $0.control)
      }
      return
    }
    net.clocks = clocks(watched, since: now, now: now)
  }

  /// Both clocks of a timed watched game at `now` (X's player's as `mine`, O's as `theirs`), the running one
  /// counting down from `since`, when its last move came, once both sides have moved (in a Swap2 game, from the
  /// first stone, each stone's time on its placer's clock: `WatchedGame.clockColour`); nil in an untimed game.
  static func clocks(_ watched: WatchedGame, since: Double, now: Double) -> NetGameState.Clocks? {
    guard watched.timeControl.isTimed, watched.gameNumber > 0 else { return nil }
    let game = watched.game
    let known = watched.times.count == game.history.count
    let left = { (mark: Mark) -> Int in
      let plies = (0..<(known ? watched.times.count : 0)).filter { watched.clockColour(ofStone: $0) == mark }
      return plies.last.map { Int(watched.times[$0].left) } ?? watched.timeControl.base
    }
    let running: NetGameState.Clocks.Running? =
      known ? watched.runningClockColour.map { $0 == .x ? .mine : .theirs } : nil
    let spent = max(0, Int(((now - since) * 1_000).rounded(.down)))
    let x = running == .mine ? max(0, left(.x) - spent) : left(.x)
    let o = running == .theirs ? max(0, left(.o) - spent) : left(.o)
    return .init(mine: x, theirs: o, running: running, control: watched.timeControl.description)
  }

  /// When the running clock's face next changes after `now`; nil when none runs.
  static func nextClockChange(_ watched: WatchedGame, since: Double, now: Double) -> Double? {
    guard let clocks = clocks(watched, since: since, now: now), let running = clocks.running else { return nil }
    let left = running == .mine ? clocks.mine : clocks.theirs
    guard left > 0 else { return nil }
    return now + Double(left % 1_000 + 1) / 1_000
  }
}
