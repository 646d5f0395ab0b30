import Foundation
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
    let base = NSTemporaryDirectory() + "ttt-player-\(UUID().uuidString)"
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
