import EventLoop
import Glibc

/// A front end that runs on the event loop: the full screen (`CursesDriver`), plain network mode
/// (`PlainNetworkDriver`), the practice bot (`BotHost`) and a replay (`ReplayDriver`). What they do differs;
/// how they end does not, and is written once, here (`Shutdown` decides):
/// - SIGWINCH redraws; SIGCONT (after kill -STOP or Ctrl-Z) takes the terminal back and redraws;
/// - SIGHUP reads the settings again at a front end that `rereadsOnHangUp` (the practice bot: its deny list and
///   limits, with every game going on); at the others it ends the program as SIGINT and SIGTERM do;
/// - the first SIGINT, SIGTERM or SIGHUP (where it ends) sets the exit status (128 + the signal; `BotCommand` exits 0 once every
///   player was told) and has every peer told goodbye; a second one stops at once, without waiting for them;
/// - once the program is ending, for a signal or because the player left, the loop stops when every goodbye
///   (and every write of known_peers) is out, and after `Shutdown.patience` seconds at the latest.
package protocol LoopFrontEnd: AnyObject {
  var loop: EventLoop { get }
  var shutdown: Shutdown { get set }
  /// Says goodbye to every peer (a match's bye, the bot's goodbyes), because `signal` ends the program.
  func sayGoodbye(signal: Int32)
  /// Goodbyes still going out and writes still being made: the loop stops once there are none.
  var goodbyesGoingOut: Int { get }
  /// The terminal changed size.
  func redraw()
  /// Whether SIGHUP means "read the settings again" here rather than "end" (the practice bot, a service).
  var rereadsOnHangUp: Bool { get }
  /// SIGHUP came and `rereadsOnHangUp`: read the settings again, keeping everything else going.
  func rereadSettings()
  /// The program goes on after it was stopped: a full-screen front end takes the terminal back (its modes, its
  /// screen) and draws it all again. The others have nothing to take back.
  func resumed()
}

extension LoopFrontEnd {
  package func resumed() {}
  package var rereadsOnHangUp: Bool { false }
  package func rereadSettings() {}

  /// Takes SIGINT, SIGTERM, SIGHUP, SIGWINCH and SIGCONT on the loop, by the shared policy.
  package func takeSignals() {
    loop.handleSignals { [unowned self] number in self.signalled(number) }
  }

  func signalled(_ number: Int32) {
    switch shutdown.signal(number, now: loop.now, hangUpRereads: rereadsOnHangUp) {
    case .redraw: redraw()
    case .rereadSettings: rereadSettings()
    case .takeTerminalBack: resumed()
    case .sayGoodbye:
      wakeAtPatience()
      sayGoodbye(signal: number)
    case .stopNow: loop.stop()
    }
  }

  /// The program is ending with `status` (unless it already was, with another).
  package func end(_ status: Int32) {
    if shutdown.end(status, now: loop.now) { wakeAtPatience() }
  }

  /// Before each wait: stops the loop once the program is ending and the goodbyes are out. Returns whether it
  /// stopped.
  package func stopIfDone() -> Bool {
    guard shutdown.mayStop(goodbyesGoingOut: goodbyesGoingOut, now: loop.now) else { return false }
    loop.stop()
    return true
  }

  /// The loop wakes at the end of the patience, even when nothing else happens then.
  private func wakeAtPatience() {
    if let deadline = shutdown.deadline { _ = loop.schedule(at: deadline) {} }
  }
}

/// How a front end ends (`LoopFrontEnd`): pure, so the policy is tested without signals or sockets.
package struct Shutdown: Equatable {
  /// Seconds the goodbyes and known_peers writes may take once the program is ending. A goodbye gives up by
  /// itself after `ClosingSockets.linger`; this bounds the rest (a write stuck on a hung disk).
  static let patience = 5.0

  package init() {}

  /// What a signal asks of the front end.
  enum Step: Equatable {
    case redraw
    /// The program was stopped and goes on: take the terminal back and redraw.
    case takeTerminalBack
    /// SIGHUP at a front end that reads its settings again on it (the bot): nothing ends.
    case rereadSettings
    /// Tell every peer goodbye; the loop stops once they are out.
    case sayGoodbye
    /// A second ending signal: stop now.
    case stopNow
  }

  /// The status the program ends with, once it is ending: the first reason wins.
  package private(set) var status: Int32?
  /// When it began ending.
  private(set) var since: Double?
  private var endingSignals = 0

  package var isEnding: Bool { status != nil }

  /// When the loop stops even with goodbyes still going out.
  var deadline: Double? { since.map { $0 + Shutdown.patience } }

  /// What `number` asks; with `hangUpRereads`, SIGHUP asks for the settings to be read again (even while
  /// ending: it is not an ending signal there, so it never turns a goodbye into a stop at once).
  mutating func signal(_ number: Int32, now: Double, hangUpRereads: Bool = false) -> Step {
    if hangUpRereads && number == SIGHUP { return .rereadSettings }
    switch SignalMeaning(number) {
    case .resized: return .redraw
    case .resumed: return .takeTerminalBack
    case .end(let status):
      endingSignals += 1
      end(status, now: now)
      return endingSignals == 1 ? .sayGoodbye : .stopNow
    }
  }

  /// Begins the ending with `status`; false (and nothing changes) when it had begun already.
  @discardableResult
  mutating func end(_ status: Int32, now: Double) -> Bool {
    guard self.status == nil else { return false }
    self.status = status
    since = now
    return true
  }

  func mayStop(goodbyesGoingOut: Int, now: Double) -> Bool {
    guard let deadline else { return false }
    return goodbyesGoingOut == 0 || now >= deadline
  }
}
