import Discovery
import Glibc
import Security
import Session
import TerminalUI

/// Runs the full-screen UI: one poll() loop over the keyboard, signals and the AI's answers. It blocks
/// until something happens, so an idle game uses no CPU.
public final class CursesDriver {
  private let terminal: Terminal
  private var controller: UIController
  private let signals: SignalPipe
  private let computer = ComputerPlayer()
  /// Saves the options; returns why they could not be saved, for the screen.
  private let onSaveSettings: (Settings) -> String?
  private let log: Log
  /// Starts hosting (nil) or joining (an address): a match and its first events, or why it failed.
  var startNetwork: ((String?, Fingerprint?) -> Result<(NetworkMatch, [MatchEvent]), MatchEnd>)?
  /// The known peers and this player's own key, to judge LAN games (and leave out our own).
  var lanContext: (() -> (known: KnownPeers, own: String?))?
  /// Browses the LAN while the lobby shows; recreated a few seconds after it fails.
  private var browser: Browser?
  private var browserRetryAt = 0.0
  var onJoined: (([String]) -> Void)?
  var match: NetworkMatch?
  private var exitStatus: Int32?

  public init(
    terminal: Terminal, controller: UIController, signals: SignalPipe, log: Log,
    onSaveSettings: @escaping (Settings) -> String?
  ) {
    self.terminal = terminal
    self.controller = controller
    self.signals = signals
    self.log = log
    self.onSaveSettings = onSaveSettings
  }

  /// Runs until the player quits or a signal ends the game; returns the exit status.
  public func run(initial: [Effect]) -> Int32 {
    defer { terminal.restore() }
    syncSize()
    if let status = perform(initial) { return status }
    while true {
      if let status = exitStatus { return status }
      if let match { countDown(match) }
      terminal.draw(Renderer.render(controller.state))
      var descriptors = [terminal.inputDescriptor, signals.readDescriptor, computer.readDescriptor]
      var writers: [Int32] = []
      var timeout: Int32 = -1
      if let match {
        descriptors += match.pollSet.map(\.fd)
        writers = match.pollSet.filter(\.write).map(\.fd)
        if let deadline = match.nextDeadline {
          timeout = max(0, Int32(((deadline - Monotonic.now()) * 1000).rounded(.up)))
        }
        if let graceEnd = match.session?.graceDeadline, graceEnd > Monotonic.now() {
          // The countdown on screen changes once a second.
          let fraction = (graceEnd - Monotonic.now()).truncatingRemainder(dividingBy: 1)
          let tick = max(1, Int32((fraction * 1000).rounded(.up)))
          timeout = timeout < 0 ? tick : min(timeout, tick)
        }
      }
      updateBrowsing()
      if let browser {
        descriptors += browser.descriptors
      } else if controller.state.page == .lobby && lanContext != nil {
        let wait = max(0, Int32(((browserRetryAt - Monotonic.now()) * 1000).rounded(.up)))
        timeout = timeout < 0 ? wait : min(timeout, wait)
      }
      let (ready, writable) = waitReadyFull(descriptors, writers: writers, timeout: timeout)
      if let browser, !ready.isDisjoint(with: browser.descriptors) { browsed(browser.process(readable: ready)) }
      if let match {
        present(match.handle(readable: ready, writable: writable), match)
        present(match.tick(), match)
      }
      if ready.contains(signals.readDescriptor) {
        for number in signals.drain() {
          if number == SIGWINCH {
            terminal.resized()
            syncSize()
          } else {
            log.write("ended by signal \(number)")
            return 128 + number
          }
        }
      }
      if ready.contains(computer.readDescriptor) {
        for (move, token) in computer.takeResults() {
          _ = controller.computerMoved(move, token: token)
        }
      }
      for key in terminal.readKeys() {
        if key == .resize { syncSize() }
        if let status = perform(controller.handle(key)) { return status }
      }
    }
  }

  private func syncSize() {
    let size = terminal.size
    controller.resize(width: size.width, height: size.height)
  }

  /// Carries out effects; returns an exit status when one of them ends the program.
  private func perform(_ effects: [Effect]) -> Int32? {
    for effect in effects {
      switch effect {
      case .think(let game, let level, let token):
        computer.think(game: game, level: level, token: token)
      case .saveSettings(let settings):
        if let problem = onSaveSettings(settings) { controller.showNotice(problem) }
      case .quit:
        return exitStatus ?? 0
      case .host:
        begin(address: nil)
      case .join(let address):
        onJoined?(controller.state.recentAddresses)
        begin(address: address)
      case .joinLAN(let name):
        guard let game = browser?.games.first(where: { $0.instanceName == name }), game.isConnectable,
          let address = game.addresses.first, let port = game.port
        else {
          controller.showLANGames(controller.state.lanGames, status: "\(name) has not answered yet; try again.")
          continue
        }
        let host = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
        begin(address: host, advertised: game.txt?.fingerprint.flatMap { Fingerprint(parsing: $0) })
      case .netPlay(let position):
        guard let match else { continue }
        do {
          present(try match.play(position), match)
        } catch {
          controller.updateNetwork { $0.notice = "\(error)" }
        }
      case .netChat(let text):
        if let match, match.session?.isResuming == true {
          controller.updateNetwork { $0.notice = "Reconnecting: say it again in a moment." }
        } else if let match {
          controller.updateNetwork { $0.chat.append("you: \(text)") }
          present(match.chat(text), match)
        }
      case .netResign:
        if let match { present(match.resign(), match) }
      case .netClaim:
        if let match { present(match.claim(), match) }
      case .netRematch:
        if let match { present(match.rematch(), match) }
      case .netAnswer(let accept):
        controller.updateNetwork { $0.question = nil }
        if let match { present(match.answer(accept: accept), match) }
      case .netLeave:
        if let match, match.finished == nil { _ = match.quit() }
        if let end = match?.finished, controller.state.direct { exitStatus = ExitStatus.code(for: end) }
        match = nil
        if let status = perform(controller.leaveNetwork()) { return status }
      }
    }
    return nil
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

  private func begin(address: String?, advertised: Fingerprint? = nil) {
    var net = NetGameState(isHost: address == nil, myName: "you")
    net.info = [address.map { "Connecting to \($0)…" } ?? "Starting to host…"]
    controller.showNetwork(net)
    terminal.draw(Renderer.render(controller.state))
    guard let startNetwork else { return }
    switch startNetwork(address, advertised) {
    case .success(let (started, events)):
      match = started
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
  private func countDown(_ match: NetworkMatch) {
    guard let graceEnd = match.session?.graceDeadline else { return }
    let left = max(0, Int((graceEnd - Monotonic.now()).rounded(.up)))
    guard controller.state.net?.dropped?.secondsLeft != left else { return }
    controller.updateNetwork { net in
      if net.dropped != nil { net.dropped?.secondsLeft = left }
    }
  }

  /// Shows what the match reported, and the session's state even when it reported nothing: playing a move only
  /// sends it, and the board must show it at once.
  func present(_ events: [MatchEvent], _ match: NetworkMatch) {
    controller.updateNetwork { NetworkPresenter.apply(events, match: match, to: &$0) }
    for case .finished(let end) in events {
      log.write("network match ended: \(end)")
      if case .session(.localQuit) = end, controller.state.direct { exitStatus = ExitStatus.ok }
    }
  }
}
