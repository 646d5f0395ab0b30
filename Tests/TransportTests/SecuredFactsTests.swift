import Glibc
import PeerTrust
import Security
import Testing

@testable import Transport

/// The facts a finished handshake established travel with its event (`Arrival.secured`): each side is handed the
/// other's certificate, the trust decision and the TLS version, and nothing needs to read them back off the TLS
/// object afterwards.
@Suite struct SecuredFactsTests {
  @Test func eachSideIsHandedTheOthersCertificateAndTheDecision() throws {
    var fds: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    // The names differ from each other and from the addresses, so a side handed its own facts, or the address
    // for the name, is told apart.
    let carol = try Identity.generate(commonName: "carol")
    let dave = try Identity.generate(commonName: "dave")
    let client = try PeerConnection(
      fd: fds[0], context: try TLSContext(role: .client, identity: carol, options: TrustOptions(policy: .insecure)),
      peerAddress: "server-address")
    let pinned = TrustOptions(policy: .pinned([PinnedKey(carol.fingerprint)]))
    let server = try PeerConnection(
      fd: fds[1], context: try TLSContext(role: .server, identity: dave, options: pinned),
      peerAddress: "client-address")
    var clientFacts: PeerFacts?
    var serverFacts: PeerFacts?
    for _ in 0..<20 where clientFacts == nil || serverFacts == nil {
      _ = client.flush()
      serverFacts = try serverFacts ?? server.readable().compactMap(\.securedFacts).first
      _ = server.flush()
      clientFacts = try clientFacts ?? client.readable().compactMap(\.securedFacts).first
    }
    let atServer = try #require(serverFacts)
    #expect(atServer.certificate?.fingerprint == carol.fingerprint)
    #expect(atServer.certificate?.commonName == "carol")
    #expect(atServer.trust == .trusted(.pinned))
    #expect(atServer.protocolVersion == "TLSv1.3")
    #expect(atServer == PeerFacts(server.tls))
    let atClient = try #require(clientFacts)
    #expect(atClient.certificate?.fingerprint == dave.fingerprint)
    #expect(atClient.certificate?.commonName == "dave")
    #expect(atClient.trust == .trusted(.insecure))
    #expect(atClient == PeerFacts(client.tls))
  }
}
