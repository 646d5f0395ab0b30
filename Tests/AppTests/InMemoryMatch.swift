import EventLoop
import GameCore
import Glibc
import NetworkFacts
import PlayerFiles
import Security
import Session
import Synchronization
import TestSupport
import Transport

@testable import App
@testable import MatchCoordination
@testable import NetworkShell

/// One player of an in-memory match: the real host's or joiner's shell (`HostMatch`, `JoinerMatch`) on the real
/// `MatchOnLoop`, with a home of its own, on a `MemoryNetwork` (Unix-domain sockets with abstract names: real TLS, no IPv4 or IPv6 socket).
final class MemoryPlayer {
  let name: String
  let match: any MatchShell
  let runner: MatchOnLoop
  let profile: Profile
  let identity: Identity
  /// Everything the match reported, in order.
  var events: [MatchEvent] = []

  init(
    _ role: Role, name: String, options: NetworkOptions = NetworkOptions(), rules: Rules = .standard,
    timeControl: TimeControl = .none, home: [String: String]? = nil, network: Network, loop: EventLoop,
    time: TestTime
  ) throws {
    self.name = name
    let environment = try home ?? SandboxHome.make().environment
    let paths = Paths(environment: environment)
    profile = Profile(paths: paths, name: name)
    identity = try profile.identity(options: options).0
    let log = Log(path: paths.logFile)
    switch role {
    case .host:
      let host = HostMatch(
        profile: profile, identity: identity, options: options, rules: rules, timeControl: timeControl, log: log,
        clock: { time.now() })
      host.network = network
      match = host
    case .joiner:
      let joiner = JoinerMatch(
        profile: profile, identity: identity, options: options, rules: rules, log: log, clock: { time.now() })
      joiner.network = network
      match = joiner
    }
    var report: ([MatchEvent]) -> Void = { _ in }
    runner = MatchOnLoop(match, loop: loop) { events, _ in report(events) }
    report = { [unowned self] in self.events += $0 }
  }

  /// The host's shell, for a player made a host.
  var hostMatch: HostMatch {
    guard case .host(let host) = match.side else { preconditionFailure("\(name) is not a host") }
    return host
  }
  /// The joiner's shell, for a player made a joiner.
  var joinerMatch: JoinerMatch {
    guard case .joiner(let joiner) = match.side else { preconditionFailure("\(name) is not a joiner") }
    return joiner
  }

  /// Hands the match's answer to an action over to `events`.
  func take(_ events: [MatchEvent]) { self.events += events }

  var question: TrustQuestion? {
    events.lazy.compactMap { if case .ask(let question) = $0 { question } else { nil } }.last
  }
  var sessionOutputs: [SessionOutput] {
    events.compactMap { if case .session(let output) = $0 { output } else { nil } }
  }
  var myMark: Mark? {
    sessionOutputs.lazy.compactMap { if case .gameStarted(_, let mark) = $0 { mark } else { nil } }.last
  }
  var peerMoves: [Position] {
    sessionOutputs.compactMap { if case .peerMoved(let position) = $0 { position } else { nil } }
  }
  var end: MatchEnd? {
    events.lazy.compactMap {
      switch $0 {
      case .finished(let end), .opponentGone(let end): end
      default: nil
      }
    }.last
  }
  var resumed: Bool {
    sessionOutputs.contains { if case .resumed = $0 { true } else { false } }
  }
  var statuses: [String] { events.compactMap { if case .status(let text) = $0 { text } else { nil } } }
  /// The game-flow events the session reported (offers, takebacks, flags), in order.
  var flow: [GameFlowEvent] {
    sessionOutputs.compactMap { if case .gameFlow(let event) = $0 { event } else { nil } }
  }
  /// The results of the games that ended, in order.
  var results: [GameResult] {
    sessionOutputs.compactMap { if case .gameEnded(let result) = $0 { result } else { nil } }
  }
  /// Whether the terms were put to this player (a timed host's, before the game).
  var askedTerms: Bool { events.contains { if case .askTerms = $0 { true } else { false } } }
}

/// A host and its joiners on one event loop and one in-memory network, run a round at a time until what a test
/// waits for has happened.
final class InMemoryMatch {
  /// The time every player and the loop read: the machine's, moved on by `advance` (a hello deadline passes
  /// without waiting for it).
  let time = TestTime()
  let loop: EventLoop
  var memory = MemoryNetwork()
  private(set) var players: [MemoryPlayer] = []

  init() {
    loop = EventLoop(clock: { [time] in time.now() })
    // As the program's main does: a write to a connection the peer closed fails with EPIPE instead.
    signal(SIGPIPE, SIG_IGN)
  }

  /// A host listening on a port of the in-memory network.
  func host(
    name: String = "alice", options: NetworkOptions = NetworkOptions(), rules: Rules = .standard, port: UInt16 = 0,
    timeControl: TimeControl = .none, home: [String: String]? = nil
  ) throws -> MemoryPlayer {
    let host = try MemoryPlayer(
      .host, name: name, options: options, rules: rules, timeControl: timeControl, home: home,
      network: memory.network, loop: loop, time: time)
    try host.hostMatch.host(bind: nil, port: port)
    players.append(host)
    return host
  }

  /// A joiner connecting to `host` (coming from `address`, as the host sees it).
  func join(
    _ host: MemoryPlayer, name: String = "bob", options: NetworkOptions = NetworkOptions(),
    address: String = "127.0.0.1", home: [String: String]? = nil, hostName: String = "127.0.0.1",
    watches: Bool = false
  ) throws -> MemoryPlayer {
    try join(
      port: host.hostMatch.port, name: name, options: options, address: address, home: home, hostName: hostName,
      watches: watches)
  }

  /// A joiner connecting to whatever listens on `port` of the in-memory network.
  func join(
    port: UInt16, name: String = "bob", options: NetworkOptions = NetworkOptions(), address: String = "127.0.0.1",
    home: [String: String]? = nil, hostName: String = "127.0.0.1", watches: Bool = false
  ) throws -> MemoryPlayer {
    var network = memory
    network.joinerAddress = address
    let joiner = try MemoryPlayer(
      .joiner, name: name, options: options, home: home, network: network.network, loop: loop, time: time)
    players.append(joiner)
    joiner.joinerMatch.watches = watches
    joiner.runner.join([Endpoint(host: hostName, port: port)])
    return joiner
  }

  /// Runs the loop until `done` holds (true) or `seconds` pass (false).
  @discardableResult
  func run(seconds: Double = 10, until done: () -> Bool) -> Bool {
    let end = Monotonic.now() + seconds
    while !done() {
      guard Monotonic.now() < end else { return false }
      for player in players { player.runner.refresh() }
      loop.runOnce(maximumWait: 0.02)
    }
    return true
  }

  /// Runs the loop for `seconds`, whatever happens.
  func settle(_ seconds: Double = 0.3) { run(seconds: seconds) { false } }

  deinit {
    for player in players { player.runner.detach() }
  }
}

/// The machine's monotonic time plus what a test moved it on by.
final class TestTime: Sendable {
  private let skew = Mutex<Double>(0)

  func now() -> Double { Monotonic.now() + skew.withLock { $0 } }

  func advance(by seconds: Double) { skew.withLock { $0 += seconds } }
}

extension InMemoryMatch {
  /// Moves every clock on by `seconds`, then runs a few rounds so what fell due is done.
  func advance(by seconds: Double) {
    time.advance(by: seconds)
    settle(0.2)
  }

  /// Takes `player` off the table: nothing of its match is watched any more (its listener closes with it).
  func remove(_ player: MemoryPlayer) {
    player.runner.detach()
    players.removeAll { $0 === player }
  }

  /// Kills `player` as `kill -9` would: it is taken off the table and every connection it had ends with no
  /// goodbye (nothing it holds is closed under it: it is shut down, so the other side reads the end).
  func kill(_ player: MemoryPlayer) {
    remove(player)
    for fd in player.match.descriptors { shutdown(fd, Int32(SHUT_RDWR)) }
  }

  /// Adds `joiner`, made by the test, and starts it joining `host`.
  func add(_ joiner: MemoryPlayer, joining host: MemoryPlayer) throws {
    players.append(joiner)
    joiner.runner.join([Endpoint(host: "127.0.0.1", port: host.hostMatch.port)])
  }

  /// Both sides accept each other's key when asked (each as it is asked, or not at all), and the game starts.
  func meet(_ host: MemoryPlayer, _ joiner: MemoryPlayer) throws {
    var answered: Set<ObjectIdentifier> = []
    func asked(_ player: MemoryPlayer) -> Bool {
      player.question != nil && !answered.contains(ObjectIdentifier(player))
    }
    while host.myMark == nil || joiner.myMark == nil {
      guard run(until: { asked(host) || asked(joiner) || (host.myMark != nil && joiner.myMark != nil) }) else {
        throw Stuck("no game started, and nobody was asked")
      }
      for player in [host, joiner] where asked(player) {
        answered.insert(ObjectIdentifier(player))
        player.take(player.match.answer(accept: true))
      }
    }
  }

  struct Stuck: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// The address family of socket `fd` (SO_DOMAIN), or -1.
  static func domain(of fd: Int32) -> Int32 {
    var domain: Int32 = -1
    var length = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 ? domain : -1
  }

  /// Whether the other side closed `fd` (it reads the end of the stream).
  static func closedByPeer(_ fd: Int32) -> Bool {
    var byte: UInt8 = 0
    return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
  }

  /// A bare connection to `host` over the in-memory network, from `address`: no TLS, nothing said.
  func rawConnection(to host: MemoryPlayer, from address: String = "127.0.0.1") throws -> Int32 {
    var network = memory
    network.joinerAddress = address
    let endpoint = Endpoint(host: "127.0.0.1", port: host.hostMatch.port)
    return try Sockets.startConnect(network.network.resolve(endpoint, false)[0], endpoint: endpoint)
  }
}
