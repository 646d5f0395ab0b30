import Glibc
import PeerTrust
import Security
import Testing

@testable import Transport

/// A TLS client and server `PeerConnection` over a non-blocking Unix-domain socket pair, each with a key of its
/// own, for tests of what a connection does with the bytes it reads and writes. Made unsecured; `secure()` runs
/// both handshakes to the end.
struct TLSPair {
  let client: PeerConnection
  let server: PeerConnection

  /// `buffer`: the kernel's send and receive buffers of both ends, in bytes (nil: the system's).
  init(
    client clientIdentity: Identity? = nil, clientTrust: TrustOptions = TrustOptions(policy: .insecure),
    server serverIdentity: Identity? = nil, serverTrust: TrustOptions = TrustOptions(policy: .insecure),
    buffer: Int32? = nil
  ) throws {
    var fds: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      if var size = buffer {
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      }
    }
    // The addresses are not the names in the certificates, so a side handed its own facts, or the address for
    // the name, is told apart.
    client = try PeerConnection(
      fd: fds[0],
      context: try TLSContext(
        role: .client, identity: try clientIdentity ?? Identity.generate(commonName: "c"), options: clientTrust),
      peerAddress: "server-address")
    server = try PeerConnection(
      fd: fds[1],
      context: try TLSContext(
        role: .server, identity: try serverIdentity ?? Identity.generate(commonName: "s"), options: serverTrust),
      peerAddress: "client-address")
  }

  /// Runs both handshakes (20 rounds at most) and returns the facts each side was handed, nil for a side whose
  /// handshake did not finish.
  @discardableResult
  func secure() throws -> (client: PeerFacts?, server: PeerFacts?) {
    var clientFacts: PeerFacts?
    var serverFacts: PeerFacts?
    for _ in 0..<20 where clientFacts == nil || serverFacts == nil {
      _ = client.flush()
      serverFacts = try serverFacts ?? server.readable().compactMap(\.securedFacts).first
      _ = server.flush()
      clientFacts = try clientFacts ?? client.readable().compactMap(\.securedFacts).first
    }
    #expect(clientFacts != nil && serverFacts != nil, "the handshake did not finish")
    return (clientFacts, serverFacts)
  }

  /// How many bytes wait unread at `connection`'s end.
  static func waiting(_ connection: PeerConnection) -> Int {
    var count: Int32 = 0
    _ = ioctl(connection.fd, UInt(FIONREAD), &count)
    return Int(count)
  }
}
