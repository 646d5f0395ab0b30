import Foundation
import Testing

/// The fault proxy itself, between two sockets of the test (fast), and then what it is for: whole games between
/// two real `tictactoe` processes over a slow or stalling network.
@Suite struct FaultProxyTests {
  // MARK: the proxy on its own

  @Test func bytesCrossBothWaysInOrderAfterTheDelay() throws {
    let pair = try ProxiedPair(delay: 0.2)
    let outbound = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    #expect(pair.client.write(outbound))
    #expect(
      pair.server.read(count: outbound.count, timeout: 10) == outbound, "the bytes arrived changed or out of order")
    let inbound = Array("the other way".utf8)
    #expect(pair.server.write(inbound))
    #expect(pair.client.read(count: inbound.count, timeout: 10) == inbound)
    #expect(pair.proxy.waitFor { $0.bytesToTarget == outbound.count })
    #expect(pair.proxy.waitFor { $0.bytesToClient == inbound.count })
    #expect(pair.proxy.counters.accepted == 1)
    // The delay, by the proxy's own record of when it read and delivered each chunk (not by this test's clock,
    // which a loaded machine makes late): nothing went through sooner than 0.2 s.
    // (Less a rounding margin: the proxy compares read + delay with its clock.)
    #expect(
      pair.proxy.counters.shortestHold >= 0.2 - 1e-9,
      "a chunk was delivered \(pair.proxy.counters.shortestHold) s after it was read")
  }

  @Test func aTimedStallEndsByItselfAndDeliversInOrder() throws {
    let pair = try ProxiedPair(delay: 0)
    pair.proxy.stall(seconds: 0.5)
    #expect(pair.client.write(Array("held ".utf8)))
    #expect(pair.client.write(Array("then sent".utf8)))
    // Nobody resumes it: the stall runs out and what it held comes through, in order.
    #expect(pair.server.read(count: 14, timeout: 10) == Array("held then sent".utf8))
  }

  @Test func aBlackHoleHoldsWhatItReadUntilResumedThenDeliversItInOrder() throws {
    let pair = try ProxiedPair(delay: 0)
    pair.proxy.stall()
    #expect(pair.server.write(Array("pi".utf8)))
    #expect(pair.server.write(Array("ng".utf8)))
    // Once the proxy has read the bytes, they are held: none delivered, nothing readable on the other side.
    #expect(pair.proxy.waitFor { $0.bytesFromTarget == 4 }, "the proxy did not read the bytes: \(pair.proxy.counters)")
    #expect(pair.proxy.counters.bytesToClient == 0)
    #expect(!pair.client.isReadable, "a byte crossed the black hole")
    pair.proxy.resume()
    #expect(pair.client.read(count: 4, timeout: 10) == Array("ping".utf8))
    // The proxy counts after its send() returns: the client may read the bytes first (seen under load).
    #expect(pair.proxy.waitFor { $0.bytesHeldByStall == 4 }, "\(pair.proxy.counters)")
  }

  @Test func aDropAfterNBytesDeliversExactlyThoseThenResetsBothSides() throws {
    let pair = try ProxiedPair(delay: 0)
    pair.proxy.drop(after: 10, .toTarget)
    #expect(pair.client.write(Array(repeating: 0x41, count: 100)))
    #expect(pair.server.read(count: 100, timeout: 10) == Array(repeating: 0x41, count: 10))
    #expect(pair.server.lastEnd == .reset, "the target saw \(String(describing: pair.server.lastEnd))")
    _ = pair.client.read(count: 1, timeout: 10)
    #expect(pair.client.lastEnd == .reset, "the client saw \(String(describing: pair.client.lastEnd))")
    #expect(pair.proxy.waitFor { $0.dropped == 1 && $0.bytesToTarget == 10 }, "\(pair.proxy.counters)")
  }

  @Test func dropNowEndsTheConnectionAndANewOneStillPasses() throws {
    let pair = try ProxiedPair(delay: 0)
    pair.proxy.dropNow(.close)
    _ = pair.client.read(count: 1, timeout: 10)
    #expect(pair.client.lastEnd == .close)
    #expect(pair.proxy.waitFor { $0.dropped == 1 })
    // A reconnecting client comes through the same port.
    let again = try ProxiedPair(reusing: pair)
    #expect(again.client.write(Array("again".utf8)))
    #expect(again.server.read(count: 5, timeout: 10) == Array("again".utf8))
    #expect(pair.proxy.counters.accepted == 2)
  }

  @Test func whileRefusingNewConnectionsAreReset() throws {
    let pair = try ProxiedPair(delay: 0)
    pair.proxy.refusing = true
    let refused = try TestSocket.connect(port: pair.proxy.port)
    _ = refused.read(count: 1, timeout: 10)
    #expect(refused.lastEnd == .reset)
    // The open connection is not touched.
    #expect(pair.client.write(Array("still".utf8)))
    #expect(pair.server.read(count: 5, timeout: 10) == Array("still".utf8))
    #expect(pair.proxy.counters.dropped == 1)
  }

  @Test func anOrderlyCloseIsPassedOnAfterTheBytesBeforeIt() throws {
    let pair = try ProxiedPair(delay: 0.1)
    #expect(pair.client.write(Array("last words".utf8)))
    pair.client.shutdownWrite()
    #expect(pair.server.read(count: 100, timeout: 10) == Array("last words".utf8))
    #expect(pair.server.lastEnd == .close)
    // Half-closed: the other direction still carries bytes.
    #expect(pair.server.write(Array("reply".utf8)))
    #expect(pair.client.read(count: 5, timeout: 10) == Array("reply".utf8))
  }

  // MARK: games over a bad network

  @Test func aWholeGameWith200MillisecondsEachWayEndsWithTheRightResult() throws {
    let game = try ProxiedGame(delay: 0.2)
    #expect(game.started(), "\(game.transcript)")
    Player.playOut(game.host, game.joiner)
    // Both answer each prompt with the lowest cell they have not tried: X takes 1, 3, 5 and 7 (a diagonal)
    // while O gets 2, 4 and 6, whoever X is.
    #expect(game.host.output.contains("result: X wins"), "\(game.transcript)")
    #expect(game.joiner.output.contains("result: X wins"), "\(game.transcript)")
    #expect(game.finalBoard(game.host) == game.finalBoard(game.joiner), "the two sides ended on different boards")
    #expect(game.proxy.counters.dropped == 0)
    game.joiner.send("quit")
    #expect(game.joiner.exitStatus() == 0)
    #expect(game.host.exitStatus() == 30, "\(game.transcript)")
  }

  @Test func aStallShorterThanTheSilenceLimitDoesNotEndTheGame() throws {
    let game = try ProxiedGame(delay: 0)
    #expect(game.started(), "\(game.transcript)")
    let (mover, waiter) = game.host.output.contains("you play X") ? (game.host, game.joiner) : (game.joiner, game.host)
    #expect(mover.waitFor("your move ("))
    game.proxy.stall(seconds: 6)
    mover.send("5")
    // The move waits in the proxy and arrives once the stall ends; the game goes on and ends normally, with
    // nobody declared gone.
    #expect(waiter.waitFor(" plays 5", timeout: 30), "\(game.transcript)")
    #expect(game.proxy.counters.bytesHeldByStall > 0, "the stall held nothing: \(game.proxy.counters)")
    Player.playOut(game.host, game.joiner)
    #expect(game.host.output.contains("result: ") && game.joiner.output.contains("result: "), "\(game.transcript)")
    #expect(!game.host.errors.contains("vanished") && !game.joiner.errors.contains("vanished"), "\(game.transcript)")
    game.host.send("quit")
    #expect(game.host.exitStatus() == 0)
    #expect(game.joiner.exitStatus() == 30, "\(game.transcript)")
  }
}

/// A host and a joiner (plain mode, --accept-new, private homes) whose connection goes through a fault proxy.
/// The homes are removed when the test lets go of it.
private final class ProxiedGame {
  let host: Player
  let joiner: Player
  let proxy: FaultProxy
  private let homes: [String]

  init(delay: Double) throws {
    let (aliceHome, bobHome) = (try Binary.sandbox(), try Binary.sandbox())
    homes = [aliceHome.root, bobHome.root]
    var alice = aliceHome.environment
    alice["USER"] = "alice"
    var bob = bobHome.environment
    bob["USER"] = "bob"
    host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new"], environment: alice)
    let port = try #require(host.announcedPort())
    proxy = try FaultProxy.start(target: UInt16(port), delay: delay)
    joiner = try Player(["join", "127.0.0.1:\(proxy.port)", "--ui", "plain", "--accept-new"], environment: bob)
  }

  deinit {
    for player in [host, joiner] {
      player.signal(SIGKILL)
      _ = player.exitStatus()
    }
    for root in homes { try? FileManager.default.removeItem(atPath: root) }
  }

  /// Waits until both sides announced game 1.
  func started() -> Bool { joiner.waitFor("game 1:", timeout: 30) && host.waitFor("game 1:", timeout: 30) }

  /// The last board a player printed: the five lines before the result (a prompt printed before the board,
  /// which ends without a newline, is cut off).
  func finalBoard(_ player: Player) -> String {
    let lines = player.output.split(separator: "\n").map(String.init)
    guard let result = lines.lastIndex(where: { $0.hasPrefix("result: ") }) else { return "" }
    return lines[..<result].suffix(5).map { line in
      line.range(of: "): ").map { String(line[$0.upperBound...]) } ?? line
    }.joined(separator: "\n")
  }

  var transcript: String {
    "--- host:\n\(host.output)\(host.errors)\n--- joiner:\n\(joiner.output)\(joiner.errors)\n--- proxy: \(proxy.counters)"
  }
}

/// A client and a server socket of the test joined through a fault proxy.
private struct ProxiedPair {
  let proxy: FaultProxy
  let client: TestSocket
  let server: TestSocket
  private let listener: TestSocket

  init(delay: Double) throws {
    let (fd, port) = Loopback.listen(backlog: 4)
    listener = TestSocket(fd)
    proxy = try FaultProxy.start(target: port, delay: delay)
    client = try TestSocket.connect(port: proxy.port)
    server = try listener.accept(timeout: 10)
  }

  /// A second connection through the same proxy to the same server.
  init(reusing pair: ProxiedPair) throws {
    listener = pair.listener
    proxy = pair.proxy
    client = try TestSocket.connect(port: proxy.port)
    server = try listener.accept(timeout: 10)
  }
}

/// A blocking loopback socket with bounded reads, that remembers how its peer ended the stream.
final class TestSocket {
  enum End: Equatable {
    /// An orderly close (end of file).
    case close
    /// A TCP reset.
    case reset
  }

  let fd: Int32
  private(set) var lastEnd: End?

  init(_ fd: Int32) { self.fd = fd }

  deinit { close(fd) }

  static func connect(port: UInt16) throws -> TestSocket {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = Loopback.address(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED)
    }
    return TestSocket(fd)
  }

  func accept(timeout: Double) throws -> TestSocket {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&pfd, 1, Int32(timeout * 1000)) == 1 else { throw POSIXError(.ETIMEDOUT) }
    let accepted = Glibc.accept(fd, nil, nil)
    guard accepted >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return TestSocket(accepted)
  }

  /// Writes everything; false if the connection failed.
  func write(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      offset += count
    }
    return true
  }

  /// Reads until `count` bytes came, the stream ended (see `lastEnd`) or `timeout` seconds passed.
  func read(count: Int, timeout: Double) -> [UInt8] {
    var result: [UInt8] = []
    let deadline = monotonicNow() + timeout
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while result.count < count {
      let remaining = deadline - monotonicNow()
      guard remaining > 0 else { break }
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&pfd, 1, Int32(max(1, remaining * 1000))) == 1 else { continue }
      let got = recv(fd, &buffer, min(buffer.count, count - result.count), 0)
      if got > 0 {
        result += buffer[0..<got]
      } else if got == 0 {
        lastEnd = .close
        break
      } else if errno != EINTR {
        lastEnd = errno == ECONNRESET ? .reset : .close
        break
      }
    }
    return result
  }

  func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

  /// Whether something (bytes or the end of the stream) can be read right now, without waiting.
  var isReadable: Bool {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&pfd, 1, 0) == 1
  }
}
