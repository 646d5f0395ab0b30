import Session

#if canImport(Glibc)
  import Glibc
#endif

/// How long a real host (`tictactoe host`, plain mode, in a game with a real joiner over loopback) takes to
/// notice that something is gone, each against a baseline that starts at the same instant in the same poll
/// loop, so a loaded machine slows both:
///
/// - a frozen joiner (SIGSTOP: nothing closes, nothing arrives), until the host says the connection is lost,
///   against a poll() timer of the silence limit;
/// - a connection that never starts TLS (opened at the same instant), until the host closes it, against a
///   poll() timer of the handshake limit;
/// - a killed joiner (SIGKILL: the kernel closes its socket), until the host says the connection is lost,
///   against a `cat` killed at the same instant, whose socket the benchmark holds, until that socket ends.
///
/// The frozen joiner and the silent connection share one wait, so a round costs one silence limit.
enum DeadPeerBenchmark {
  /// The silence limit the game uses (a session's default).
  static let silenceLimit = NetSession.Configuration(role: .host, name: "", software: "").silenceLimit
  /// The game's limit for a connection to finish TLS and say hello (App's `MatchCore.handshakeTimeout`).
  static let handshakeLimit = 10.0

  struct Result {
    var frozen = Samples()
    var frozenBaseline = Samples()
    var silent = Samples()
    var silentBaseline = Samples()
    var killed = Samples()
    var killedBaseline = Samples()
  }

  static func run(rounds: Int) throws -> Result {
    let game = try Programs.path("tictactoe")
    var result = Result()
    for _ in 0..<rounds { try round(game, into: &result) }
    return result
  }

  private static func round(_ game: String, into result: inout Result) throws {
    let hostHome = try PlayerHome("deadhost")
    let joinHome = try PlayerHome("deadjoin")
    let host = try PlainPlayer(
      game, ["host", "--port", "0", "--ui", "plain", "--accept-new", "--name", "deadhost"],
      environment: hostHome.environment)
    let port = try host.hostingPort()
    let joiner = try PlainPlayer(
      game, ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--name", "deadjoin"],
      environment: joinHome.environment)
    _ = try host.line(startingWith: "game 1: ")
    _ = try joiner.line(startingWith: "game 1: ")

    // The frozen joiner and the silent connection, from one instant.
    guard let silent = Loopback.connect(port: port) else {
      throw BenchError("cannot connect to the host at 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
    }
    defer { close(silent) }
    var mark = host.length
    let frozenAt = Clock.now()
    joiner.signal(SIGSTOP)
    let frozen = try watch(
      host, after: mark, for: "The connection dropped", peer: silent, timers: [silenceLimit, handshakeLimit],
      since: frozenAt, what: "a frozen joiner")
    result.frozen.append(frozen.said)
    result.frozenBaseline.append(frozen.timers[0])
    result.silent.append(frozen.ended)
    result.silentBaseline.append(frozen.timers[1])

    // Thawed, the joiner finds its connection closed and comes back; then it is killed beside a `cat`.
    mark = host.length
    joiner.signal(SIGCONT)
    _ = try host.waitFor("Reconnected: game 1", after: mark, timeout: 30)
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
      throw BenchError("cannot create a socket pair: \(String(cString: strerror(errno)))")
    }
    defer { close(ends[0]) }
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    let cat = try ChildProcess(
      "cat", [], environment: ChildProcess.currentEnvironment(), stdin: .descriptor(ends[1]),
      stdout: .descriptor(ends[1]))
    close(ends[1])
    mark = host.length
    let killedAt = Clock.now()
    joiner.signal(SIGKILL)
    kill(cat.pid, SIGKILL)
    let killed = try watch(
      host, after: mark, for: "The connection dropped", peer: ends[0], timers: [], since: killedAt,
      what: "a killed joiner")
    result.killed.append(killed.said)
    result.killedBaseline.append(killed.ended)
    try host.send("quit")
  }

  /// What `watch` saw, in nanoseconds from its start.
  private struct Seen {
    var said: Double
    var ended: Double
    /// When the loop noticed each timer had run out.
    var timers: [Double]
  }

  /// Waits until `host` prints `needle` after byte `offset`, until `peer` ends (it is readable: it never sends
  /// anything) and until each of `timers` (seconds from `start`) has run out, all in one poll() loop.
  private static func watch(
    _ host: PlainPlayer, after offset: Int, for needle: String, peer: Int32, timers: [Double], since start: UInt64,
    what: String
  ) throws -> Seen {
    var said: UInt64?
    var ended: UInt64?
    var noticed = [UInt64?](repeating: nil, count: timers.count)
    let due = timers.map { start + UInt64($0 * 1e9) }
    let deadline = Clock.seconds() + 3 * max(silenceLimit, handshakeLimit)
    while said == nil || ended == nil || noticed.contains(nil) {
      guard Clock.seconds() < deadline else {
        throw BenchError(
          "\(what): the host said \"\(needle)\": \(said != nil), the other socket ended: \(ended != nil)")
      }
      var fds = [
        pollfd(fd: host.outputDescriptor, events: Int16(said == nil ? POLLIN : 0), revents: 0),
        pollfd(fd: peer, events: Int16(ended == nil ? POLLIN : 0), revents: 0),
      ]
      let now = Clock.now()
      let nextTimer = zip(due, noticed).filter { $0.1 == nil }.map(\.0).min()
      let untilTimer = nextTimer.map { $0 > now ? Double($0 - now) / 1e6 : 0 } ?? 100
      _ = poll(&fds, 2, Int32(min(100, untilTimer.rounded(.up))))
      let woke = Clock.now()
      if fds[0].revents != 0 && host.takeOutput(thenFind: needle, after: offset) { said = said ?? woke }
      if fds[1].revents != 0 { ended = ended ?? woke }
      for index in due.indices where noticed[index] == nil && woke >= due[index] { noticed[index] = woke }
    }
    let since = { (time: UInt64?) in Double((time ?? start) - start) }
    return Seen(said: since(said), ended: since(ended), timers: noticed.map(since))
  }
}
