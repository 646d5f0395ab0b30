import GameCore
import NetworkFacts
import Security
import TransitRelay
import Transport
import WireProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// A move and its answer between a host and a joiner over the project's TLS connections (`PeerConnection`):
/// through Debian's transit relay on loopback, against the same two connections made directly (loopback TCP).
/// The relay's cost alone: across the internet the path to the relay is what counts.
enum RelayBenchmark {
  struct Result {
    var relayed = Samples()
    var direct = Samples()
  }

  static func run(iterations: Int, warmUp: Int) throws -> Result {
    let contexts = try ProjectTLSPair.Contexts()
    let relay = try RelayServer()
    defer { relay.stop() }
    var result = Result()
    let direct = try directPair(contexts)
    let relayed = try relayedPair(contexts, relay: relay.endpoint)
    for index in 0..<(warmUp + iterations) {
      // Alternating which goes first, so neither always runs on a warmer machine.
      let order = index.isMultiple(of: 2) ? [(direct, true), (relayed, false)] : [(relayed, false), (direct, true)]
      for (pair, isDirect) in order {
        let time = try roundTrip(pair, ply: UInt16(index % 60_000 + 1))
        if index >= warmUp {
          if isDirect { result.direct.append(time) } else { result.relayed.append(time) }
        }
      }
    }
    return result
  }

  /// Host and joiner connections, secured.
  typealias Pair = (host: PeerConnection, joiner: PeerConnection)

  static func directPair(_ contexts: ProjectTLSPair.Contexts) throws -> Pair {
    let listener = try Sockets.listen(bind: "127.0.0.1", port: 0)[0]
    defer { close(listener) }
    let endpoint = Endpoint(host: "127.0.0.1", port: Sockets.localPort(listener))
    let joiner = try PeerConnection(fd: try Sockets.connect(endpoint), context: contexts.client, peerAddress: "host")
    var accepted: (fd: Int32, peer: String)?
    let deadline = Clock.seconds() + 5
    while accepted == nil && Clock.seconds() < deadline { accepted = Sockets.accept(listener) }
    guard let accepted else { throw BenchError("the direct connection was not accepted") }
    let host = try PeerConnection(fd: accepted.fd, context: contexts.server, peerAddress: accepted.peer)
    try joiner.start()
    try secure((host, joiner))
    return (host, joiner)
  }

  static func relayedPair(_ contexts: ProjectTLSPair.Contexts, relay: Endpoint) throws -> Pair {
    let token = try RelayToken.random()
    func atRelay(_ context: TLSContext) throws -> PeerConnection {
      let connection = try PeerConnection(fd: try Sockets.connect(relay), context: context, peerAddress: "relay")
      let greeting = RelayGreeting(token: token, side: try RelaySide.random())
      connection.start(after: RelayPrelude(greeting: greeting, relay: relay, now: Clock.seconds(), patience: 10))
      return connection
    }
    let pair = (host: try atRelay(contexts.server), joiner: try atRelay(contexts.client))
    try secure(pair)
    return pair
  }

  /// Moves bytes both ways until both ends finished TLS (the relay's `ok` first, when there is one).
  static func secure(_ pair: Pair) throws {
    let deadline = Clock.seconds() + 10
    while !(pair.host.isSecured && pair.joiner.isSecured) {
      guard Clock.seconds() < deadline else { throw BenchError("TLS did not finish within 10 s") }
      _ = try step(pair)
    }
  }

  /// One wait on both sockets and what they had: the messages the host and the joiner received.
  static func step(_ pair: Pair) throws -> (host: [Message], joiner: [Message]) {
    var entries = [pair.host, pair.joiner].map { connection in
      pollfd(fd: connection.fd, events: Int16(POLLIN) | (connection.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
    }
    _ = poll(&entries, 2, 100)
    var received: [[Message]] = [[], []]
    for (index, connection) in [pair.host, pair.joiner].enumerated() {
      if entries[index].revents & Int16(POLLOUT) != 0 { connection.flush() }
      guard entries[index].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
      for arrival in try connection.readable() {
        switch arrival {
        case .message(let message): received[index].append(message)
        case .ended: throw BenchError("a connection ended")
        case .malformed(let error): throw BenchError("a malformed frame: \(error)")
        case .secured, .introduced: break
        }
      }
    }
    return (received[0], received[1])
  }

  /// Nanoseconds from the joiner sending a move until the host's answer arrived.
  static func roundTrip(_ pair: Pair, ply: UInt16) throws -> Double {
    let start = Clock.now()
    try pair.joiner.send(.move(ply: ply, position: Position(row: 7, column: 7)))
    var answered = false
    let deadline = Clock.seconds() + 5
    while !answered {
      guard Clock.seconds() < deadline else { throw BenchError("no answer to a move within 5 s") }
      let (toHost, toJoiner) = try step(pair)
      for case .move(let ply, _, _) in toHost {
        try pair.host.send(.move(ply: ply, position: Position(row: 7, column: 8)))
      }
      answered = toJoiner.contains { if case .move = $0 { true } else { false } }
    }
    return Double(Clock.now() - start)
  }

  /// Debian's transit relay (`twist3 transitrelay`) on 127.0.0.1 at a port it picks, read from its log.
  final class RelayServer {
    let process: ChildProcess
    let endpoint: Endpoint
    let logPath: String

    init() throws {
      logPath = "/tmp/tictactoe-bench-relay-\(getpid()).log"
      let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
      guard log >= 0 else { throw BenchError("cannot write \(logPath)") }
      defer { close(log) }
      do {
        process = try ChildProcess(
          "twist3", ["transitrelay", "--port=tcp:0:interface=127.0.0.1"],
          environment: ChildProcess.currentEnvironment(), stdout: .descriptor(log), stderr: .descriptor(log))
      } catch {
        throw BenchError("cannot start Debian's transit relay (apt-get install magic-wormhole-transit-relay): \(error)")
      }
      let deadline = Clock.seconds() + 20
      var port: UInt16?
      while port == nil && Clock.seconds() < deadline {
        let text = RelayServer.read(logPath)
        port = text.firstMatch(of: /Transit starting on (\d+)/).flatMap { UInt16($0.1) }
        if port == nil { usleep(50_000) }
      }
      guard let port else {
        process.stop()
        throw BenchError("the relay did not start within 20 s")
      }
      endpoint = Endpoint(host: "127.0.0.1", port: port)
    }

    func stop() {
      process.stop()
      unlink(logPath)
    }

    /// The file's text so far (at most 64 KiB).
    static func read(_ path: String) -> String {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return "" }
      defer { close(fd) }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let count = Glibc.read(fd, &buffer, buffer.count)
      return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }
  }
}
