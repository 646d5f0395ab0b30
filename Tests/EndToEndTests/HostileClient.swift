import Foundation
import GameCore
import Glibc
import PeerTrust
import Security
import WireProtocol

/// A joiner built from the project's own TLS engine that completes the TLS handshake with a certificate of its
/// own (so the host's trust checks pass) and then sends whatever a test wants, well-formed or not: frames from
/// `Message`, or raw bytes. It records what comes back and how the connection ends.
final class HostileClient {
  /// How the host ended the connection, as the client saw it.
  enum End: Equatable, CustomStringConvertible {
    /// TLS close_notify, then the end of the TCP stream: a clean close.
    case closeNotifyThenEOF
    /// The TCP stream ended without close_notify.
    case eofWithoutCloseNotify
    case reset
    /// Nothing ended within the time allowed.
    case stillOpen

    var description: String {
      switch self {
      case .closeNotifyThenEOF: return "close_notify then EOF"
      case .eofWithoutCloseNotify: return "EOF without close_notify"
      case .reset: return "a TCP reset"
      case .stillOpen: return "still open"
      }
    }
  }

  /// Why the client could not do what it was asked.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let fd: Int32
  private let tls: TLSConnection
  private var decoder = FrameDecoder()
  /// Messages received and not yet taken by `next`, heartbeats left out.
  private var inbox: [Message] = []
  /// Every message received, in order (heartbeats left out).
  private(set) var received: [Message] = []
  private var sawCloseNotify = false
  private var sawEOF = false
  private var sawReset = false

  /// Connects to 127.0.0.1:`port` and completes the TLS handshake as a player called `name` (a fresh identity),
  /// or presenting `identity`.
  /// `source`: the loopback address to connect from (host order; nil: the system's choice, 127.0.0.1).
  /// `prelude`: bytes sent as soon as TCP is up, before TLS (a PROXY protocol header, as a proxy sends it).
  /// `beforeConnect`: given the socket before it connects (to set socket options, such as a small receive buffer).
  init(
    port: UInt16, name: String = "mallory", identity: Identity? = nil, timeout: Double = 10, source: UInt32? = nil,
    prelude: [UInt8] = [], beforeConnect: (Int32) -> Void = { _ in }
  ) throws {
    let identity = try identity ?? Identity.generate(commonName: name)
    let context = try TLSContext(role: .client, identity: identity, options: TrustOptions(policy: .insecure))
    tls = try TLSConnection(context: context, serverName: nil)
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if let source {
      var local = sockaddr_in()
      local.sin_family = sa_family_t(AF_INET)
      local.sin_addr.s_addr = source.bigEndian
      let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
      guard bound == 0 else {
        close(fd)
        throw Failure(description: "cannot bind to the source address: \(String(cString: strerror(errno)))")
      }
    }
    beforeConnect(fd)
    var address = Loopback.address(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      throw Failure(description: "cannot connect to port \(port): \(String(cString: strerror(errno)))")
    }
    if !prelude.isEmpty && Glibc.send(fd, prelude, prelude.count, Int32(MSG_NOSIGNAL)) != prelude.count {
      close(fd)
      throw Failure(description: "cannot send the prelude")
    }
    let deadline = monotonicNow() + timeout
    while try !tls.handshake() {
      try flush()
      guard pump(until: deadline) else { throw Failure(description: "the TLS handshake did not finish") }
    }
    try flush()
  }

  deinit { close(fd) }

  /// The host's key, as its certificate presented it in the handshake.
  var hostFingerprint: String? { tls.peerCertificate?.fingerprint.description }

  // MARK: sending

  func send(_ message: Message) throws { try sendRaw(message.bytes) }

  /// Sends `bytes` inside TLS as they are: they need not be a frame, or a whole one.
  func sendRaw(_ bytes: [UInt8]) throws {
    try tls.writePlaintext(bytes)
    try flush()
  }

  /// Sends TLS close_notify and ends the TCP stream in this direction (the host can still answer).
  func closeWrite() throws {
    tls.shutdown()
    try flush()
    shutdown(fd, Int32(SHUT_WR))
  }

  /// Ends the TCP stream in this direction without a TLS goodbye.
  func shutdownWithoutGoodbye() { shutdown(fd, Int32(SHUT_WR)) }

  // MARK: receiving

  /// The next message other than a heartbeat, waiting at most `timeout` seconds (nil: none came).
  func next(timeout: Double = 10) -> Message? {
    let deadline = monotonicNow() + timeout
    while inbox.isEmpty {
      guard pump(until: deadline) else { return nil }
    }
    return inbox.removeFirst()
  }

  /// Takes messages until one satisfies `condition` (nil if none did within `timeout` seconds).
  func next(timeout: Double = 10, where condition: (Message) -> Bool) -> Message? {
    let deadline = monotonicNow() + timeout
    while let message = next(timeout: deadline - monotonicNow()) {
      if condition(message) { return message }
    }
    return nil
  }

  /// Reads until the host ends the connection (at most `timeout` seconds) and says how it did.
  func waitForEnd(timeout: Double = 10) -> End {
    let deadline = monotonicNow() + timeout
    while !sawEOF && !sawReset {
      guard pump(until: deadline) else { break }
    }
    if sawReset { return .reset }
    if sawEOF { return sawCloseNotify ? .closeNotifyThenEOF : .eofWithoutCloseNotify }
    return .stillOpen
  }

  /// The text of the first `error` message received, if any.
  var errorText: String? {
    for case .error(let text) in received { return text }
    return nil
  }

  /// Waits for socket input until `deadline` and feeds it through TLS and the frame decoder; false when the
  /// deadline passed or the connection ended with nothing new.
  private func pump(until deadline: Double) -> Bool {
    guard !sawEOF && !sawReset else { return false }
    // Past the deadline it still takes what is already there (a deadline of now: look without waiting).
    let remaining = deadline - monotonicNow()
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&pfd, 1, remaining > 0 ? Int32(max(1, (remaining * 1000).rounded(.up))) : 0)
    if ready < 0 && errno == EINTR { return true }
    guard ready > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 16_384)
    let count = recv(fd, &buffer, buffer.count, 0)
    if count > 0 {
      tls.feed(ciphertext: Array(buffer[0..<count]))
    } else if count == 0 {
      sawEOF = true
      tls.feedEndOfStream()
    } else if errno == EINTR || errno == EAGAIN {
      return true
    } else {
      sawReset = errno == ECONNRESET
      sawEOF = !sawReset
    }
    guard tls.isHandshakeComplete else { return true }
    do {
      decoder.feed(try tls.readPlaintext())
    } catch .closedByPeer {
      sawCloseNotify = true
    } catch {
      // unexpectedEOF and the like: the end is recorded from the socket.
    }
    while let frame = try? decoder.next() {
      guard let message = try? Message.decode(frame) else { continue }
      if message == .heartbeat { continue }
      inbox.append(message)
      received.append(message)
    }
    _ = try? flush()
    return true
  }

  /// Sends whatever TLS has queued for the socket.
  private func flush() throws {
    var bytes = tls.takeCiphertext()[...]
    while !bytes.isEmpty {
      let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
      bytes = bytes.dropFirst(count)
    }
  }
}
