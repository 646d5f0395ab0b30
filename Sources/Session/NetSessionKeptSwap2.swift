import GameCore
import WireProtocol

/// A game kept through a restart (PROTOCOL.md rule 19) in a match that opens with Swap2: the opening is rebuilt
/// from the stones and choices offered, at the same step, with the same chooser, and in a timed game its clocks
/// counting turns again (rule 14). Pure.
extension NetSession {
  /// Rebuilds the opening of the kept game `offer` (the board and this player's mark already restored), or throws
  /// why its stones and choices cannot be played in that order.
  mutating func restoreOpening(_ offer: KeptOffer, clockFrom: Double) throws(Swap2Error) {
    let game = offer.game
    let opening = try Swap2(rules: rules, stones: game.moves, choices: game.choices)
    // The first player is X until the colours are settled, then whichever colour its choices gave it.
    let firstColour = opening.mark(of: .first) ?? .x
    let hostIsFirst = game.hostPlaysX == (firstColour == .x)
    let me: Swap2.Player = (configuration.role == .host) == hostIsFirst ? .first : .second
    let kept = NetSwap2(opening: opening, me: me)
    swap2 = kept
    coin.keep(hostPlaysX: hostIsFirst == !game.gameNumber.isMultiple(of: 2))
    if inOpening { flow = nil }
    guard timeControl.isTimed else { return }
    // Each turn's time, from the times of its last stone (a turn that was only a choice has none: no charge).
    let turns = game.moves.indices.map(kept.turn(ofStone:))
    let now = kept.turn(ofStone: game.moves.count)
    let times = (0..<now).map { turn in
      turns.lastIndex(of: turn).flatMap { $0 < game.times.count ? game.times[$0] : nil }
        ?? GameClock.AgreedTime(charged: 0, left: timeControl.base)
    }
    var left: [Mark: Int] = [:]
    left[.x] = offer.timeLeft[firstColour]
    left[.o] = offer.timeLeft[firstColour.opponent]
    clock = GameClock(
      restoring: timeControl, myMark: me == .first ? .x : .o, left: left, ply: now, times: times, now: clockFrom,
      freeTurns: 0)
  }
}
