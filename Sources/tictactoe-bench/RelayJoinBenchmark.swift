import Security

#if canImport(Glibc)
  import Glibc
#endif

/// From starting `tictactoe join INVITE` until it prints the game's first line (`game 1:`), the real programs in
/// plain mode on loopback: through Debian's transit relay (the invite's direct address refused, so the relay is
/// tried at once), against the same host's invite joined directly. One host, keeping on hosting, for both.
enum RelayJoinBenchmark {
  struct Result {
    var relayed = Samples()
    var direct = Samples()
  }

  static func run(iterations: Int, warmUp: Int) throws -> Result {
    let relay = try RelayBenchmark.RelayServer()
    defer { relay.stop() }
    let hostHome = try PlayerHome("relayhost")
    let joinerHome = try PlayerHome("relayjoiner")
    let host = try PlainProgram(
      [
        "host", "--port", "0", "--bind", "127.0.0.1", "--accept-new", "--ui", "plain", "--keep-hosting", "--relay",
        relay.endpoint.description,
      ], environment: hostHome.environment)
    defer { host.stop() }
    _ = try host.waitFor("Waiting for an opponent", timeout: 20)
    guard let line = host.text.split(separator: "\n").first(where: { $0.hasPrefix("Invite: ") }) else {
      throw BenchError("the host printed no invite")
    }
    let invite = try Invite.parse(String(line.dropFirst("Invite: ".count)))
    guard
      let relayed = Invite(
        key: invite.key, addresses: [.init(host: "127.0.0.1", port: try closedPort())], relay: invite.relay)
    else { throw BenchError("cannot write the relayed invite") }
    var result = Result()
    for index in 0..<(warmUp + iterations) {
      let order = index.isMultiple(of: 2) ? [(invite, true), (relayed, false)] : [(relayed, false), (invite, true)]
      for (joining, isDirect) in order {
        let time = try join(joining, environment: joinerHome.environment)
        if index >= warmUp {
          if isDirect { result.direct.append(time) } else { result.relayed.append(time) }
        }
        // The host hosts on: its next welcome is out before the next joiner comes.
        usleep(300_000)
      }
    }
    return result
  }

  /// Nanoseconds from starting a joiner with `invite` until its `game 1:` line; it then quits.
  static func join(_ invite: Invite, environment: [String: String]) throws -> Double {
    let start = Clock.now()
    let joiner = try PlainProgram(["join", invite.description, "--ui", "plain"], environment: environment)
    defer { joiner.stop() }
    return Double(try joiner.waitFor("game 1:", timeout: 20) - start)
  }

  /// A port on 127.0.0.1 where nothing listens.
  static func closedPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchError("no socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw BenchError("cannot find a free port") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// A plain-mode `tictactoe` the benchmark talks to: lines in through a pipe, its output read as it comes.
  final class PlainProgram {
    let child: ChildProcess
    let input: Pipe
    let output: Pipe
    private(set) var text = ""

    init(_ arguments: [String], environment: [String: String]) throws {
      input = try Pipe(forChildInput: true)
      output = try Pipe()
      child = try ChildProcess(
        try Programs.path("tictactoe"), arguments, environment: environment, stdin: .descriptor(input.reader),
        stdout: .descriptor(output.writer), stderr: .null)
      output.closeWriter()
    }

    /// Reads until `wanted` was printed; the time (`Clock.now()`) it was read.
    func waitFor(_ wanted: String, timeout: Double) throws -> UInt64 {
      let deadline = Clock.seconds() + timeout
      while !text.contains(wanted) {
        guard Clock.seconds() < deadline, let bytes = output.read(waitingAtMost: deadline - Clock.seconds()) else {
          throw BenchError("tictactoe printed no \"\(wanted)\" within \(timeout) s:\n\(text)")
        }
        text += String(decoding: bytes, as: UTF8.self)
      }
      return Clock.now()
    }

    /// Says quit, and stops it if it has not gone within 5 s.
    func stop() {
      try? input.write("quit\n")
      if child.wait(timeout: 5) == nil { child.stop() }
    }
  }
}
