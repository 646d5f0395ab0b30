import Foundation
import Glibc
import Testing

/// One shutdown policy in every front end: SIGINT, SIGTERM and SIGHUP say goodbye to the peer, who is told
/// "your opponent left" at once (exit 30) instead of "connection lost" and a grace period. And a join stays
/// live while it connects: Esc leaves a host that never answers.
@Suite(.serialized) struct ShutdownTests {
  private func home(_ name: String) throws -> (root: String, environment: [String: String]) {
    var home = try Binary.sandbox()
    home.environment["USER"] = name
    return home
  }

  @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
  func aSignalledPlainJoinerSaysGoodbye(signal: Int32) throws {
    let alice = try home("alice")
    let bob = try home("bob")
    defer { for root in [alice.root, bob.root] { try? FileManager.default.removeItem(atPath: root) } }
    let host = try Player(["host", "--port", "0", "--ui", "plain", "--accept-new"], environment: alice.environment)
    let port = try #require(host.announcedPort(), "\(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob.environment)
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    #expect(host.waitFor("game 1:"))
    joiner.signal(signal)
    #expect(joiner.exitStatus() == 128 + signal)
    #expect(host.exitStatus() == 30, "\(host.output)\(host.errors)")
    #expect(host.errors.contains("Your opponent left"), "\(host.errors)")
    #expect(!host.output.contains("The connection dropped"), "\(host.output)")
  }

  @Test func aSignalledFullScreenHostSaysGoodbyeAndRestoresTheTerminal() throws {
    let alice = try home("alice")
    let bob = try home("bob")
    defer { for root in [alice.root, bob.root] { try? FileManager.default.removeItem(atPath: root) } }
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path) host --port 0 --bind 127.0.0.1 --accept-new; echo EXIT=$?; sleep 30'",
      environment: alice.environment)
    try tmux.waitFor(text: "Waiting for an opponent")
    let port = try TmuxSession.hostedPort(alice.environment)
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob.environment)
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    try tmux.waitFor(text: "Game 1: you play")
    let shell = try #require(tmux.panePID)
    let game = try #require(childPID(of: shell), "no game process under the pane's shell")
    kill(game, SIGTERM)
    let after = try tmux.waitFor(text: "EXIT=\(128 + SIGTERM)")
    #expect(!after.contains("┌───"), "the terminal was not restored:\n\(after)")
    #expect(joiner.exitStatus() == 30, "\(joiner.output)\(joiner.errors)")
    #expect(joiner.errors.contains("Your opponent left"), "\(joiner.errors)")
  }

  @Test func escLeavesAJoinThatIsStillConnecting() throws {
    // A listener whose queue is full and that never accepts: the kernel drops further SYNs, so a new connection
    // neither succeeds nor fails for as long as the test lasts.
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    var address = Loopback.address(port: 0)
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    #expect(listen(listener, 0) == 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    let port = UInt16(bigEndian: address.sin_port)
    var fillers: [Int32] = []
    defer { for fd in fillers { close(fd) } }
    for _ in 0..<4 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      var target = Loopback.address(port: port)
      _ = withUnsafePointer(to: &target) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      fillers.append(fd)
    }
    let bob = try home("bob")
    defer { try? FileManager.default.removeItem(atPath: bob.root) }
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path) join 127.0.0.1:\(port); echo EXIT=$?; sleep 30'", environment: bob.environment)
    try tmux.waitFor(text: "Connecting to 127.0.0.1:\(port)")
    try tmux.send("Escape")
    let after = try tmux.waitFor(text: "EXIT=")
    #expect(after.contains("EXIT=0"), "\(after)")
  }

  /// The first child of `pid` (the game under the pane's shell).
  private func childPID(of pid: Int32) -> Int32? {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8),
        let first = text.split(separator: " ").first, let child = Int32(first)
      {
        return child
      }
      usleep(50_000)
    }
    return nil
  }
}
