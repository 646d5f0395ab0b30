import Discovery
import EventLoop
import Glibc
import MatchCoordination
import NetworkFacts
import NetworkShell
import OutsideEngines
import PeerTrust
import PlayerFiles
import PlayerSettings
import Security
import Session
import TerminalUI
import Transport

/// Runs the full-screen UI on the event loop: the keyboard, signals, the AI's answers, LAN browsing and a
/// networked match. The loop blocks until something happens, so an idle game uses no CPU.
public final class CursesDriver: LoopFrontEnd {
  private let terminal: Terminal
  var controller: UIController
  private let computer = ComputerPlayer()
  /// The outside engine of `play --engine` (its questions and answers in `CursesDriver+Engine`).
  package var engine: EngineSeat?
  /// Why the engine named in the settings is not there to play (shown when it is asked for).
  package var engineProblem: String?
  /// The game (token) the engine was last asked about.
  var engineToken = 0
  /// Saves the options; returns why they could not be saved, for the screen.
  private let onSaveSettings: (Settings) -> String?
  private let log: Log
  /// Starts hosting (nil) or joining (an address or invite): a match, its first events and the endpoints to
  /// join (none when hosting), or why it failed.
  /// Hosts (no address) or joins from the lobby, with the settings as they are now (Options and the port
  /// mapping offer may have changed them since the program started).
  package var startNetwork:
    ((String?, Fingerprint?, Settings) -> Result<(any MatchShell, [MatchEvent], [Endpoint]), MatchEnd>)?
  /// The known peers and this player's own key, to judge LAN games (and leave out our own).
  package var lanContext: (() -> (known: KnownPeers, own: String?))?
  /// Browses the LAN while the lobby shows; recreated a few seconds after it fails.
  private var browser: Browser?
  private var browserRetryAt = 0.0
  package var onJoined: (([String]) -> Void)?
  /// Records local games as they end.
  package var localRecords: LocalGameRecorder?
  /// The networked match on screen, on the loop.
  var running: MatchOnLoop? {
    didSet { if running == nil { view = nil } }  // a match left: its clocks and countdown wake nobody
  }
  /// Warnings about keys (KEY CHANGED, a pin mismatch, an impostor) to print again on stderr once the screen
  /// is closed, so they are not lost with it.
  package private(set) var warningsToRepeat: [String] = []
  /// Matches left behind whose goodbye is still going out.
  var retiring: [MatchOnLoop] = []
  /// Joiner: joins the same host again (`r` once the match is over), as it was joined the first time.
  var rejoin: (() -> Void)?
  var match: (any MatchShell)? { running?.match }
  /// The view the match on screen handed with its last events: what the screen's clocks and countdown run from.
  var view: MatchView?
  package var shutdown = Shutdown()
  package let loop: EventLoop
  private var lanSync: DescriptorSync?
  private var wakeUp: EventLoop.TimerID?
  private var wakeUpDue: Double?

  public init(
    terminal: Terminal, controller: UIController, loop: EventLoop, log: Log,
    onSaveSettings: @escaping (Settings) -> String?
  ) {
    self.terminal = terminal
    self.controller = controller
    self.loop = loop
    self.log = log
    self.onSaveSettings = onSaveSettings
  }

  /// Runs until the player quits or a signal ends the game; returns the exit status.
  public func run(initial: [Effect]) -> Int32 {
    defer { terminal.restore() }
    takeSignals()
    syncSize()
    if let status = perform(initial) { return status }
    loop.watch(terminal.inputDescriptor, events: Int16(POLLIN)) { [unowned self] _ in self.readKeys() }
    loop.watch(computer.readDescriptor, events: Int16(POLLIN)) { [unowned self] _ in
      for (answer, token) in self.computer.takeResults() {
        _ = self.controller.clockTick(now: self.loop.now)
        switch answer {
        case .move(let move): _ = self.perform(self.controller.computerMoved(move, token: token))
        case .swap2(let actions): _ = self.perform(self.controller.computerAnsweredSwap2(actions, token: token))
        }
      }
    }
    lanSync = DescriptorSync(loop: loop) { [unowned self] fd, _ in
      if let browser = self.browser { self.browsed(browser.process(readable: [fd])) }
    }
    loop.beforeEachWait { [unowned self] in self.beforeWaiting() }
    if !shutdown.isEnding { loop.run() }
    engine?.stop()
    lanSync?.clear()
    // Whatever is still attached lets go (a host's port mapping is removed from the router).
    running?.detach()
    for old in retiring { old.detach() }
    return shutdown.status ?? 0
  }

  private func readKeys() {
    for key in terminal.readKeys() {
      if key == .resize { syncSize() }
      _ = controller.clockTick(now: loop.now)  // a local game's clocks are read when the key came
      if let status = perform(controller.handle(key)) {
        end(status)
        return
      }
    }
  }

  package func redraw() {
    terminal.resized()
    syncSize()
  }

  package func resumed() {
    terminal.resume()
    redraw()
  }

  package func sayGoodbye(signal number: Int32) {
    log.write("ended by signal \(number)")
    if let match, match.finished == nil { present(match.quit(), match) }
  }

  /// The match on screen and those left behind, while their goodbyes (and known_peers writes) go out.
  package var goodbyesGoingOut: Int { retiring.count + (match?.lingering ?? 0) }

  /// Before each wait: the match's descriptors and timers, LAN browsing, the countdown, then the screen.
  private func beforeWaiting() {
    // An engine whose game is over (or left) is told END at once, not when the next game begins.
    if let engine, controller.state.match.map({ !$0.isEngineGame || $0.isOver }) ?? true { engine.stop() }
    retiring.removeAll { old in
      old.release()
      guard old.lingering > 0 else {
        old.detach()
        return true
      }
      old.refresh()
      return false
    }
    if stopIfDone() { return }
    _ = controller.clockTick(now: loop.now)  // a local game's flag falls here, woken by `scheduleWakeUp`
    if let running {
      countDown()
      if let session = view?.session, session.clock != nil {
        let clocks = NetworkPresenter.clocks(session, now: Monotonic.now())
        if controller.state.net?.clocks != clocks { controller.updateNetwork { $0.clocks = clocks } }
      }
      watchedClocks(running.match, now: Monotonic.now())
      running.refresh()
    }
    updateBrowsing()
    lanSync?.update(
      browser.map { browser in
        browser.descriptors.map { .init(fd: $0, events: Int16(POLLIN), owner: ObjectIdentifier(browser)) }
      } ?? [])
    scheduleWakeUp()
    localRecords?.update(controller.state.match)
    terminal.draw(Renderer.render(controller.state))
  }

  /// Wakes the loop when the countdown on screen changes (once a second) or LAN browsing is due a retry.
  private func scheduleWakeUp() {
    var due: Double?
    let now = loop.now
    if let graceEnd = view?.graceDeadline, graceEnd > now {
      let fraction = (graceEnd - now).truncatingRemainder(dividingBy: 1)
      due = now + max(0.001, fraction)
    }
    // A running clock's face changes once a second; an untimed game wakes nobody.
    if let next = view?.session.flatMap({ NetworkPresenter.nextClockChange($0, now: now) }) {
      due = min(due ?? next, next)
    }
    if let next = controller.nextLocalClockChange { due = min(due ?? next, next) }
    if let next = nextWatchedClockChange(now: now) { due = min(due ?? next, next) }
    if browser == nil && controller.state.page == .lobby && lanContext != nil {
      due = min(due ?? browserRetryAt, max(now, browserRetryAt))
    }
    guard due != wakeUpDue else { return }
    loop.cancel(wakeUp)
    wakeUpDue = due
    wakeUp = due.map { loop.schedule(at: $0) { [unowned self] in self.wakeUpDue = nil } }
  }

  private func syncSize() {
    let size = terminal.size
    controller.resize(width: size.width, height: size.height)
  }

  /// Carries out effects; returns an exit status when one of them ends the program.
  func perform(_ effects: [Effect]) -> Int32? {
    for effect in effects {
      if let status = perform(effect) { return status }
    }
    return nil
  }

  /// Carries out one effect; returns an exit status when it ends the program.
  private func perform(_ effect: Effect) -> Int32? {
    switch effect {
    case .think(let game, let level, let token, let budget):
      computer.think(game: game, level: level, token: token, budget: budget)
    case .answerSwap2(let opening, let token, let budget):
      computer.answer(opening, token: token, budget: budget)
    case .askEngine(let game, let token):
      return perform(askEngine(token: token) { $0.ask(game) })
    case .askEngineSwap2(let opening, let token):
      return perform(askEngine(token: token) { $0.askSwap2(opening) })
    case .saveSettings(let settings):
      if let problem = onSaveSettings(settings) { controller.showNotice(problem) }
    case .quit:
      return shutdown.status ?? 0
    case .host:
      begin(address: nil)
    case .join(let address):
      begin(address: address)
    case .joinLAN(let name):
      joinLAN(name)
    case .watchLAN(let name):
      joinLAN(name, watch: true)
    case .repaint:
      terminal.repaint()
    case .netPlay, .netChoose, .netChat, .netResign, .netClaim, .netRematch, .netAnswer, .netMapPort, .netRejoin,
      .netDraw,
      .netTakeback, .netDecline, .netAbort, .netNewInvite:
      performInMatch(effect)
    case .netLeave:
      return leaveMatch()
    }
    return nil
  }

  /// Joins the LAN game announced as `name`, at the first address it announced, or says it has not answered yet.
  private func joinLAN(_ name: String, watch: Bool = false) {
    guard let game = browser?.games.first(where: { $0.instanceName == name }), game.isConnectable,
      let address = game.addresses.first, let port = game.port
    else {
      controller.showLANGames(controller.state.lanGames, status: "\(name) has not answered yet; try again.")
      return
    }
    let host = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    begin(address: host, advertised: game.txt?.fingerprint.flatMap { Fingerprint(parsing: $0) }, watch: watch)
  }

  /// Leaves the networked match (saying goodbye) for the lobby, or ends the program when it was started from the
  /// command line; returns the exit status then.
  private func leaveMatch() -> Int32? {
    rejoin = nil
    if let match, match.finished == nil { _ = match.quit() }
    if let finished = match?.finished, controller.state.direct { end(ExitStatus.code(for: finished)) }
    if let old = running { retiring.append(old) }  // its goodbye may still be going out
    running = nil
    return perform(controller.leaveNetwork())
  }

  /// Browses while the lobby is on screen (and only then); retries a few seconds after discovery failed.
  private func updateBrowsing() {
    guard lanContext != nil else { return }
    if controller.state.page != .lobby {
      browser?.cancel()
      browser = nil
      return
    }
    guard browser == nil, Monotonic.now() >= browserRetryAt else { return }
    do {
      browser = try Browser()
      controller.showLANGames([], status: nil)
    } catch {
      browserRetryAt = Monotonic.now() + 3
      controller.showLANGames([], status: "\(error.message) Join by address still works.")
    }
  }

  private func browsed(_ events: [BrowserEvent]) {
    guard let browser, let context = lanContext?() else { return }
    for case .failed(let error) in events {
      log.write("browsing stopped: \(error)")
      browser.cancel()
      self.browser = nil
      browserRetryAt = Monotonic.now() + 3
      controller.showLANGames(
        [], status: "\(error.message) Join by address still works; browsing resumes when it is back.")
      return
    }
    let rows = browser.games.filter { $0.txt?.fingerprint == nil || $0.txt?.fingerprint != context.own }
      .sorted { $0.instanceName < $1.instanceName }
      .map { LANGames.row($0, known: context.known) }
    controller.showLANGames(rows, status: nil)
  }

  /// Shows why a record could not be saved (on the game's notice line).
  package func showRecordProblem(_ text: String) { controller.tell(text) }

  /// Shows and runs `match`, started before the screen was (`tictactoe host` or `join` in the full-screen UI).
  /// A joiner's match connects once `joining` resolved, off the loop: the screen and Esc stay live meanwhile.
  package func adopt(_ match: any MatchShell, joining: [Endpoint]) {
    if let old = running { retiring.append(old) }
    let running = MatchOnLoop(match, loop: loop) { [unowned self] events, view in
      self.present(events, view, role: match.role)
    }
    self.running = running
    view = match.view
    if !joining.isEmpty { running.join(joining) }
    // The router is asked only when the player says so, once: the answer is kept in the settings.
    if case .host(let host) = match.side, host.offersPortMapping, !host.mapsPort {
      controller.updateNetwork { $0.mapOffer = host.port }
    }
  }

  /// `tictactoe join` on the full screen: `make` builds the match again, with the command's options, for `r`.
  package func allowRejoin(_ make: @escaping () -> (JoinerMatch, [Endpoint])) {
    rejoin = { [unowned self] in
      let (match, endpoints) = make()
      var net = NetGameState(isHost: false, myName: match.profileName)
      net.warnings = match.warnings
      net.info = ["Connecting to \(endpoints.first.map { "\($0)" } ?? "the host") again."]
      controller.showNetwork(net)
      adopt(match, joining: endpoints)
    }
  }

  /// The name a match started now goes by, as the command line's would: the `name` setting, else the login name.
  /// Shown from the start (before the match is set up, and when setting it up fails), never "you".
  private var playerName: String {
    if let name = controller.state.settings.name { return name }
    let user = getenv("USER").map { String(cString: $0) }
    return Profile.loginName(environment: user.map { ["USER": $0] } ?? [:])
  }

  private func begin(address: String?, advertised: Fingerprint? = nil, watch: Bool = false) {
    if let address { rejoin = { [unowned self] in self.begin(address: address, advertised: advertised, watch: watch) } }
    var net = NetGameState(isHost: address == nil, myName: playerName)
    net.info = [address.map { "Connecting to \($0)…" } ?? "Starting to host…"]
    if watch { net.watching = NetGameState.Watching() }
    controller.showNetwork(net)
    guard let startNetwork else { return }
    switch startNetwork(address, advertised, controller.state.settings) {
    case .success(let (started, events, joining)):
      // Before it joins: its hello asks to watch.
      if case .joiner(let joiner) = started.side { joiner.watches = watch }
      adopt(started, joining: joining)
      controller.updateNetwork { net in
        net.myName = started.profileName
        net.info = []
        net.warnings = started.warnings
      }
      present(events, started)
    case .failure(let end):
      controller.updateNetwork { $0.ended = end.description }
    }
  }

  /// Keeps the on-screen countdown of a dropped connection up to date.
  private func countDown() {
    guard let graceEnd = view?.graceDeadline else { return }
    let left = max(0, Int((graceEnd - Monotonic.now()).rounded(.up)))
    guard controller.state.net?.dropped?.secondsLeft != left else { return }
    controller.updateNetwork { net in
      if net.dropped != nil { net.dropped?.secondsLeft = left }
    }
  }

  /// Shows what `match` reported now (an action's events): with the view after them.
  package func present(_ events: [MatchEvent], _ match: any MatchShell) {
    present(events, match.view, role: match.role)
  }

  /// Shows what the match reported and the view after it, even when it reported nothing: playing a move only
  /// sends it, and the board must show it at once.
  func present(_ events: [MatchEvent], _ view: MatchView, role: Role) {
    self.view = view
    controller.updateNetwork { net in NetworkPresenter.apply(events, view: view, now: Monotonic.now(), to: &net) }
    // An address is remembered once its host has answered (its hello came over TLS), not when a join fails.
    if events.contains(where: { if case .session(.peerHello) = $0 { true } else { false } }),
      let recent = controller.joinAnswered()
    {
      onJoined?(recent)
    }
    for case .finished(let end) in events {
      log.write("network match ended: \(end)")
      if role == .joiner, rejoin != nil, end.canJoinAgain {
        controller.updateNetwork { $0.canRejoin = true }
      }
      if end.isTrustWarning { warningsToRepeat.append(end.description) }
      if case .session(.localQuit) = end, controller.state.direct { self.end(ExitStatus.ok) }
    }
  }
}
