import EventLoop
import GameCore
import MatchCoordination
import NetworkShell
import Session
import TerminalUI

/// The full screen's effects during a networked match: moves, chat, resignation, draws, takebacks, abort, claim,
/// rematch, the trust answer, port mapping, a new invite and joining again.
extension CursesDriver {
  /// An effect inside the networked match: a move, chat, resign, a draw, a takeback, an abort, claim, rematch, an
  /// answer, rejoining the host.
  func performInMatch(_ effect: Effect) {
    switch effect {
    case .netPlay(let position):
      guard let match else { return }
      do {
        present(try match.play(position), match)
      } catch {
        controller.updateNetwork { $0.notice = NetworkPresenter.refusal(error, on: $0) }
      }
    case .netChoose(let choice): choose(choice)
    case .netChat(let text):
      attempt { (match) throws(ActionRefusal) in
        let events = try match.chat(text)
        controller.updateNetwork { net in
          net.scrollChat(by: -net.chatBack)
          net.addChat(.mine(text))
        }
        return events
      }
    case .netResign:
      attempt { (match) throws(ActionRefusal) in try match.resign() }
    case .netClaim:
      attempt { (match) throws(ActionRefusal) in try match.claim() }
    case .netDraw, .netTakeback:
      let draw = effect == .netDraw
      attempt { (match) throws(ActionRefusal) in
        let accepting = draw ? view?.drawOfferedByPeer == true : view?.takebackRequestedByPeer == true
        let events = try draw ? match.offerDraw() : match.takeback()
        controller.updateNetwork { $0.addChat(.note(MatchWords.gameFlowSent(draw: draw, accepted: accepting))) }
        return events
      }
    case .netDecline:
      attempt { (match) throws(ActionRefusal) in
        let draw = view?.drawOfferedByPeer == true
        let events = try match.declineOffer()
        controller.updateNetwork { $0.addChat(.note(draw ? "You decline the draw." : "You decline the takeback.")) }
        return events
      }
    case .netAbort:
      attempt { (match) throws(ActionRefusal) in try match.abort() }
    case .netRematch:
      attempt { (match) throws(ActionRefusal) in try match.rematch() }
    case .netAnswer(let accept):
      controller.updateNetwork { $0.question = nil }
      if let match { present(match.answer(accept: accept), match) }
    case .netMapPort(let yes):
      guard yes, let running, case .host(let host)? = match?.side, !host.mapsPort else { return }
      host.mapsPort = true
      running.startPortMapping()
    case .netNewInvite:
      makeNewInvite()
    case .netRejoin:
      guard let rejoin else { return }
      if let old = running { retiring.append(old) }
      running = nil
      rejoin()
    default:
      break
    }
  }

  /// Host: a new invite (a new token at the relay); the old invite leaves the screen, the new one is shown at
  /// the bottom in its place.
  func makeNewInvite() {
    guard let match else { return }
    let events = match.side.newInvite()
    if events.contains(where: { if case .status(let line) = $0 { line.hasPrefix("New invite: ") } else { false } }) {
      controller.updateNetwork { $0.info.removeAll { $0.hasPrefix("Invite: ") } }
    }
    present(events, match)
  }

  /// A spectator's screen: the clocks of the game it watches, brought up to `now`.
  func watchedClocks(_ match: any MatchShell, now: Double) {
    guard case .joiner(let joiner) = match.side, let watched = joiner.watched,
      let since = controller.state.net?.watching?.since
    else { return }
    let clocks = WatchPresenter.clocks(watched, since: since, now: now)
    if controller.state.net?.clocks != clocks { controller.updateNetwork { $0.clocks = clocks } }
  }

  /// When a spectator's running clock next changes its face (the loop's time); nil when none runs.
  func nextWatchedClockChange(now: Double) -> Double? {
    guard case .joiner(let joiner)? = match?.side, let watched = joiner.watched,
      let since = controller.state.net?.watching?.since
    else { return nil }
    // The loop's clock and the monotonic one the screen was told in differ by a constant.
    let offset = Monotonic.now() - now
    return WatchPresenter.nextClockChange(watched, since: since, now: now + offset).map { $0 - offset }
  }

  /// Runs a chat, resignation, rematch or claim; a refusal is shown in the status line, in the session's words.
  func attempt(_ action: (any MatchShell) throws(ActionRefusal) -> [MatchEvent]) {
    guard let match else { return }
    do {
      present(try action(match), match)
    } catch {
      controller.updateNetwork { $0.notice = "Not now: \(error)." }
    }
  }

  /// A choice of the Swap2 opening, said in the conversation; a refusal is the notice.
  private func choose(_ choice: Swap2.Choice) {
    guard let match else { return }
    do {
      let events = try match.choose(choice)
      controller.updateNetwork { $0.addChat(.note(NetSwap2Words.choice(choice, by: "You", mine: true))) }
      present(events, match)
    } catch {
      controller.updateNetwork { $0.notice = "\(error)" }
    }
  }
}
