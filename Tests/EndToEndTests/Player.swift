import Foundation
import TestSupport
import Testing

/// A `tictactoe` process in plain mode that a test talks to: lines in through a pipe, output collected in
/// files, waited on with bounds. Started with posix_spawn (see Tool).
final class Player {
  let pid: pid_t
  let environment: [String: String]
  private var input: Int32
  private let outPath: String
  private let errPath: String
  private var status: Int32?

  init(_ arguments: [String], environment: [String: String], executable: String = Binary.path) throws {
    self.environment = environment
    let base = TestDirectory.path("player")
    outPath = base + ".out"
    errPath = base + ".err"
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
    input = fds[1]
    _ = fcntl(input, F_SETFD, FD_CLOEXEC)
    defer { close(fds[0]) }
    pid = try Spawn.start(
      executable, arguments, environment: environment, input: .descriptor(fds[0]), output: outPath, errors: errPath)
  }

  deinit {
    if status == nil {
      kill(pid, SIGKILL)
      var raw: Int32 = 0
      waitpid(pid, &raw, 0)
    }
    if input >= 0 { close(input) }
    unlink(outPath)
    unlink(errPath)
  }

  var output: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
  var errors: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

  func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
  }

  func closeInput() {
    close(input)
    input = -1
  }

  /// Waits (bounded) until the output contains `text`; true if it did.
  @discardableResult
  func waitFor(_ text: String, timeout: Double = 20, in stream: KeyPath<Player, String> = \.output) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if self[keyPath: stream].contains(text) { return true }
      if exited { return self[keyPath: stream].contains(text) }
      usleep(20_000)
    }
    return false
  }

  /// Counts how often `text` occurs in the output.
  func count(_ text: String) -> Int { output.components(separatedBy: text).count - 1 }

  private var exited: Bool {
    guard status == nil else { return true }
    var raw: Int32 = 0
    if waitpid(pid, &raw, WNOHANG) == pid {
      status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
      return true
    }
    return false
  }

  /// The exit status, waiting at most `timeout` seconds (nil if it is still running).
  func exitStatus(timeout: Double = 20) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if exited { return status }
      usleep(20_000)
    }
    return nil
  }

  func signal(_ number: Int32) { kill(pid, number) }

  /// The port a host announced ("... on port N.").
  func announcedPort(timeout: Double = 20) -> Int? {
    guard waitFor(" on port ", timeout: timeout) else { return nil }
    guard let range = output.range(of: " on port ") else { return nil }
    return Int(output[range.upperBound...].prefix { $0.isNumber })
  }
}

extension Player {
  /// Answers every "your move" prompt of either player with the next cell number (1, 2, 3, … wrapping), so
  /// taken cells are answered with "error:" and asked again, until both have seen the result (at most
  /// `timeout` seconds). `afterAnswer` is called with the number of answers given so far, after each.
  static func playOut(
    _ host: Player, _ joiner: Player, timeout: Double = 30, afterAnswer: (Int) -> Void = { _ in }
  ) {
    let deadline = Date().addingTimeInterval(timeout)
    var answered = [0, 0]
    var next = [1, 1]
    let players = [host, joiner]
    while !(host.output.contains("result: ") && joiner.output.contains("result: ")) && Date() < deadline {
      for index in 0..<2 where players[index].count("your move (") > answered[index] {
        answered[index] = players[index].count("your move (")
        players[index].send("\(next[index])")
        next[index] = next[index] % 9 + 1
        afterAnswer(answered[0] + answered[1])
      }
      usleep(10_000)
    }
  }
}

/// TCP on 127.0.0.1 for tests that play a server or a proxy themselves.
enum Loopback {
  static func address(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  /// A listening socket on a port the kernel picked, and that port.
  static func listen(backlog: Int32) -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = address(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    Glibc.listen(fd, backlog)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, UInt16(bigEndian: address.sin_port))
  }
}
