import Foundation
import TestSupport
import Testing

/// A `tictactoe` process in plain mode that a test talks to: lines in through its input, output collected in
/// files, waited on with bounds. Started with TestSupport's ChildProcess.
final class Player {
  let environment: [String: String]
  private let child: ChildProcess
  private let outPath: String
  private let errPath: String

  init(_ arguments: [String], environment: [String: String], executable: String = Binary.path) throws {
    self.environment = environment
    let base = TestDirectory.path("player")
    outPath = base + ".out"
    errPath = base + ".err"
    child = try ChildProcess(
      executable, arguments, environment: environment, input: .writer, output: .file(outPath),
      errors: .file(errPath))
  }

  deinit {
    // Whatever still runs at the end of a test is killed at once (a test that wanted a goodbye asked for it).
    child.signal(SIGKILL)
    child.stop()
    unlink(outPath)
    unlink(errPath)
  }

  var pid: pid_t { child.pid }

  var output: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
  var errors: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

  func send(_ line: String) { child.send(line + "\n") }

  func closeInput() { child.closeInput() }

  /// Waits (bounded) until the output contains `text`; true if it did.
  @discardableResult
  func waitFor(_ text: String, timeout: Double = 20, in stream: KeyPath<Player, String> = \.output) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if self[keyPath: stream].contains(text) { return true }
      if !child.isRunning { return self[keyPath: stream].contains(text) }
      usleep(20_000)
    }
    return false
  }

  /// Counts how often `text` occurs in the output.
  func count(_ text: String) -> Int { output.components(separatedBy: text).count - 1 }

  /// The exit status, waiting at most `timeout` seconds (nil if it is still running).
  func exitStatus(timeout: Double = 20) -> Int32? { child.wait(timeout: timeout) }

  func signal(_ number: Int32) { child.signal(number) }

  /// The port a host announced ("... on port N.").
  func announcedPort(timeout: Double = 20) -> Int? {
    guard waitFor(" on port ", timeout: timeout) else { return nil }
    guard let range = output.range(of: " on port ") else { return nil }
    return Int(output[range.upperBound...].prefix { $0.isNumber })
  }
}

extension Player {
  /// One whole game against a practice bot (easy, called robo, on loopback, not announced on the LAN) by a
  /// player in `joiner`'s home; returns the bot's home, where its day collection now holds the game.
  static func oneGameAgainstABot(joiner: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String: String]
  {
    var botHome = try Binary.sandbox().environment
    botHome["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let bot = try Player(
      ["host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new"],
      environment: botHome)
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)", sourceLocation: sourceLocation)
    let player = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: joiner)
    #expect(player.waitFor("game 1:"), sourceLocation: sourceLocation)
    player.playOutAlone()
    player.send("quit")
    _ = player.exitStatus()
    bot.signal(SIGTERM)
    #expect(bot.exitStatus() == 0, sourceLocation: sourceLocation)
    return botHome
  }

  /// Answers every "your move" prompt of this player alone (against the computer or the bot) with the next
  /// cell number (1, 2, 3, … wrapping) until its game has a result (at most `timeout` seconds).
  func playOutAlone(timeout: Double = 30) {
    let deadline = Date().addingTimeInterval(timeout)
    var (answered, next) = (0, 1)
    while !output.contains("result: ") && Date() < deadline {
      if count("your move (") > answered {
        answered = count("your move (")
        send("\(next)")
        next = next % 9 + 1
      }
      usleep(10_000)
    }
  }

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
