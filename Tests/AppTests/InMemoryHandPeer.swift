import Glibc
import NetworkFacts
import PlayerFiles
import Security
import TestSupport
import Transport
import WireProtocol

@testable import App
@testable import NetworkShell

/// A peer the test drives by hand over the in-memory network: a real TLS client with an identity of its own,
/// then only the bytes the test writes. It plays the hostile or silent joiner no honest shell would be.
final class HandPeer {
  let connection: PeerConnection
  /// Everything that came from the host, in order.
  private(set) var arrivals: [PeerConnection.Arrival] = []
  /// The connection failed on this side (the host closed it in the middle of something, say).
  private(set) var failure: NetworkError?

  init(to host: MemoryPlayer, in table: InMemoryMatch, from address: String = "127.0.0.1") throws {
    let fd = try table.rawConnection(to: host, from: address)
    let profile = Profile(paths: Paths(environment: try SandboxHome.make().environment), name: "mallory")
    let options = NetworkOptions()
    let identity = try profile.identity(options: options).0
    let context = try profile.tlsContext(.client, identity: identity, options: options, expectedHost: "127.0.0.1")
    connection = try PeerConnection(fd: fd, context: context, peerAddress: "127.0.0.1")
    try connection.start()
  }

  /// Reads what the host sent and sends what is queued.
  func pump() {
    guard !connection.isClosed, failure == nil else { return }
    do throws(NetworkError) {
      arrivals += try connection.readable()
    } catch {
      failure = error
    }
    connection.flush()
  }

  var isSecured: Bool { arrivals.contains { $0.securedFacts != nil } }
  /// The host ended the stream, or the connection failed.
  var isEnded: Bool {
    failure != nil || arrivals.contains { if case .ended = $0 { true } else { false } }
  }
  var messages: [Message] { arrivals.compactMap { if case .message(let message) = $0 { message } else { nil } } }

  /// The text of the first `error` the host sent (nil: none came).
  var errorText: String? {
    messages.lazy.compactMap { if case .error(let text) = $0 { text } else { nil } }.first
  }
  /// The host ended the stream with TLS's goodbye (close_notify) first.
  var endedCleanly: Bool { arrivals.contains(.ended(clean: true)) }
  /// How many messages from the host `condition` holds for.
  func count(_ condition: (Message) -> Bool) -> Int { messages.filter(condition).count }

  func send(_ message: Message) throws { try write(message.bytes) }

  /// Sends TLS close_notify and ends the stream in this direction (the host can still answer).
  func closeWrite() throws {
    connection.tls.shutdown()
    try write([])
    shutdown(connection.fd, Int32(SHUT_WR))
  }

  /// Ends the stream in this direction without a TLS goodbye.
  func shutdownWithoutGoodbye() { shutdown(connection.fd, Int32(SHUT_WR)) }

  /// Writes `plaintext` inside TLS as it stands: frames of any shape, well formed or not.
  func write(_ plaintext: [UInt8]) throws {
    if !plaintext.isEmpty { try connection.tls.writePlaintext(plaintext) }
    let ciphertext = connection.tls.takeCiphertext()
    let written = ciphertext.withUnsafeBytes {
      Glibc.send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    guard written == ciphertext.count else { throw InMemoryMatch.Stuck("only \(written) bytes written") }
  }
}

extension InMemoryMatch {
  /// Runs the loop, pumping `peer` each round, until `done` holds (true) or `seconds` pass (false).
  @discardableResult
  func run(_ peer: HandPeer, seconds: Double = 10, until done: () -> Bool) -> Bool {
    run(seconds: seconds) {
      peer.pump()
      return done()
    }
  }

  /// Moves every clock on `seconds` (a multiple of 5), 5 s at a time, `peer` saying `message` after each step.
  func pass(_ seconds: Int, while peer: HandPeer, says message: Message) throws {
    for _ in 0..<(seconds / 5) {
      advance(by: 5)
      try peer.write(message.bytes)
      settle(0.1)
    }
  }
}
