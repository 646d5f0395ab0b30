import Glibc
import Testing

@testable import App
@testable import NetworkShell
@testable import Transport

/// A joiner that reaches something other than a tictactoe host, on the real joiner shell in memory: a server that
/// answers in another protocol is named as not a peer (14), one that never answers is given up at the handshake
/// timeout, not before (11). Moved from the end-to-end `NetworkTests`, whose fake servers were TCP listeners.
@Suite(.serialized) struct InMemoryWrongServerTests {
  /// A listener of the test's own on the in-memory network, and its port.
  static func listener(_ table: InMemoryMatch) throws -> (fd: Int32, port: UInt16) {
    let fd = try #require(try table.memory.network.listen(nil, 0, 4).first)
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, MemoryNetwork.describe(storage).port)
  }

  /// Runs the loop until the joiner's connection reaches `listener`; the accepted descriptor.
  static func accepted(_ listener: Int32, in table: InMemoryMatch) throws -> Int32 {
    var client: Int32 = -1
    #expect(
      table.run {
        client = accept(listener, nil, nil)
        return client >= 0
      })
    return client
  }

  @Test func aServerThatIsNotTLSIsNamed() throws {
    let table = InMemoryMatch()
    let (listener, port) = try Self.listener(table)
    defer { close(listener) }
    let joiner = try table.join(port: port)
    let client = try Self.accepted(listener, in: table)
    defer { close(client) }
    let reply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)
    _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    #expect(table.run { joiner.end != nil })
    let end = try #require(joiner.end)
    #expect(ExitStatus.code(for: end) == 14, "\(end)")
    #expect(end.description.contains("not a tictactoe peer") || end.description.contains("not TLS"), "\(end)")
  }

  @Test func aServerThatNeverAnswersTimesOut() throws {
    let table = InMemoryMatch()
    let (listener, port) = try Self.listener(table)
    defer { close(listener) }
    let joiner = try table.join(port: port)
    let client = try Self.accepted(listener, in: table)
    defer { close(client) }
    table.advance(by: 9)
    #expect(joiner.end == nil, "\(String(describing: joiner.end))")
    table.advance(by: 1.5)
    #expect(table.run { joiner.end != nil })
    let end = try #require(joiner.end)
    #expect(ExitStatus.code(for: end) == 11, "\(end)")
    #expect(end.description.contains("was not set up within 10 s"), "\(end)")
  }
}
