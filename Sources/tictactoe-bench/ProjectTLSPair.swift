import PeerTrust
import Security

/// A client and a server `TLSConnection` of the project, wired back to back in memory.
final class ProjectTLSPair {
  /// The contexts and identities every pair shares, as a host and a joiner would.
  struct Contexts {
    let client: TLSContext
    let server: TLSContext
    let clientIdentity: Identity
    let serverIdentity: Identity

    init() throws {
      clientIdentity = try Identity.generate(commonName: "bench-client")
      serverIdentity = try Identity.generate(commonName: serverName)
      client = try TLSContext(
        role: .client, identity: clientIdentity,
        options: TrustOptions(policy: .pinned([PinnedKey(serverIdentity.fingerprint)])))
      server = try TLSContext(
        role: .server, identity: serverIdentity,
        options: TrustOptions(policy: .pinned([PinnedKey(clientIdentity.fingerprint)])))
    }
  }

  static let serverName = "bench-server"

  let client: TLSConnection
  let server: TLSConnection

  init(_ contexts: Contexts) throws {
    client = try TLSConnection(context: contexts.client, serverName: ProjectTLSPair.serverName)
    server = try TLSConnection(context: contexts.server, serverName: nil)
  }

  /// Pumps ciphertext both ways until both sides report the handshake complete.
  func handshake() throws {
    var clientDone = false
    var serverDone = false
    var flights = 0
    while !(clientDone && serverDone) {
      if !clientDone { clientDone = try client.handshake() }
      server.feed(ciphertext: client.takeCiphertext())
      if !serverDone { serverDone = try server.handshake() }
      client.feed(ciphertext: server.takeCiphertext())
      flights += 1
      guard flights < 20 else { throw BenchError("the project's TLS handshake did not finish in 20 flights") }
    }
  }
}
