/// The pace at which a delayed game (`--watch-delay N`) reaches its spectators, so that their clocks tell the truth
/// of the position they are shown. A spectator's clock runs for the side to move in the position it holds, from
/// the moment that position came; without a pace, the moves held back came whenever the live game moved, so the
/// clock of the delayed side to move ran while the live player thought, the wrong player's time, and fell below
/// what that side had when it moved (to 0:00 with no flag fallen). With it, each move held back goes out no sooner
/// than its recorded charge after the one before it went out: the delayed side's clock runs as long as that side
/// thought, and the move's time left then sets it as it was. The game is never shown less than N moves late; a
/// game that ended, an untimed game, and any other change (a new game, a takeback) go out at once, as before.
/// Pure: the host asks it what to send at `now` and when to ask again (`Spectators.paceDue`).
public enum WatchPace {
  /// What to send at `now` of `eligible` (the game already `delayed` by the host's N moves) to spectators told
  /// `told` at `toldAt`: `told` plus the moves held back whose charge has passed since the one before went out,
  /// or `eligible` itself when it cannot be paced; and when a move still held back is due (nil: none).
  public static func paced(_ eligible: WatchView, told: WatchView?, toldAt: Double, now: Double) -> (
    view: WatchView, next: Double?
  ) {
    guard let told, told.end == nil, eligible.end == nil, eligible.moves.count > told.moves.count,
      eligible.times.count == eligible.moves.count, told.moves == Array(eligible.moves.prefix(told.moves.count)),
      told.joinerKey == eligible.joinerKey, told.game == eligible.game, told.hostPlaysX == eligible.hostPlaysX,
      told.score == eligible.score
    else { return (eligible, nil) }
    var shown = told.moves.count
    var since = toldAt
    while shown < eligible.moves.count {
      let due = since + Double(eligible.times[shown].charged) / 1_000
      guard due <= now else { return (eligible.prefix(shown), due) }
      shown += 1
      since = now
    }
    return (eligible, nil)
  }
}

extension WatchView {
  /// This view with only its first `plies` moves and their times.
  func prefix(_ plies: Int) -> WatchView {
    var view = self
    view.moves = Array(moves.prefix(plies))
    view.times = Array(times.prefix(plies))
    return view
  }
}
