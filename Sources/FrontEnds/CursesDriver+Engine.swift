import OutsideEngines
import TerminalUI

/// The outside engine of a full-screen local game: asked for a move or for its part of a Swap2 opening without
/// the screen waiting (`EngineSeat` answers on the loop), and what it answered handed to the controller.
extension CursesDriver {
  /// Asks the engine (`ask`) about the game `token`; when there is none, the controller hears why (effects).
  func askEngine(token: Int, _ ask: (EngineSeat) -> Void) -> [Effect] {
    guard let engine else {
      return controller.engineUnavailable(engineProblem ?? "No engine was given.", token: token)
    }
    engineToken = token
    engine.onReport = { [unowned self] report in _ = self.perform(self.engineReported(report)) }
    ask(engine)
    return []
  }

  /// The engine moved, answered in the Swap2 opening, does not play Swap2, or forfeited: the controller hears it
  /// as the computer's move or answer, as the opening given up, or as a forfeit (its reason sanitised: the
  /// engine's words are `PeerText` in it). An engine whose game is over is told END.
  private func engineReported(_ report: EngineSeat.Report) -> [Effect] {
    var effects: [Effect] = []
    switch report {
    case .moved(let position):
      effects = controller.computerMoved(position, token: engineToken)
    case .forfeit(let fault):
      effects = controller.engineForfeited(fault.reason, token: engineToken)
    case .swap2(let actions):
      effects = controller.computerAnsweredSwap2(actions, token: engineToken)
    case .noSwap2(let words):
      // Its process is ended; the usual opening's game asks a new one when the engine is to move.
      engine?.stop()
      effects = controller.engineRefusedSwap2(words, token: engineToken)
    }
    if controller.state.match?.isOver == true { engine?.stop() }
    return effects
  }
}
