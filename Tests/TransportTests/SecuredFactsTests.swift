import PeerTrust
import Security
import Testing

@testable import Transport

/// The facts a finished handshake established travel with its event (`Arrival.secured`): each side is handed the
/// other's certificate, the trust decision and the TLS version, and nothing needs to read them back off the TLS
/// object afterwards.
@Suite struct SecuredFactsTests {
  @Test func eachSideIsHandedTheOthersCertificateAndTheDecision() throws {
    // The names differ from each other and from the addresses, so a side handed its own facts, or the address
    // for the name, is told apart.
    let carol = try Identity.generate(commonName: "carol")
    let dave = try Identity.generate(commonName: "dave")
    let pair = try TLSPair(
      client: carol, server: dave, serverTrust: TrustOptions(policy: .pinned([PinnedKey(carol.fingerprint)])))
    let (clientFacts, serverFacts) = try pair.secure()
    let (client, server) = (pair.client, pair.server)
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
