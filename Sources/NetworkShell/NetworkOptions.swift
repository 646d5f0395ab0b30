import Glibc
import PeerTrust
import PlayerFiles
import Security
import Transport
import UntrustedText

/// How this player proves who it is and judges the other side, from the command line.
public struct NetworkOptions: Sendable, Equatable {
  public var acceptNew = false
  /// Keys pinned with --pin (a fingerprint or a certificate file; any of them is accepted).
  public var pins: [PinnedKey] = []
  /// A PEM file of trust anchors, or "system" for the system store.
  public var caFile: String?
  public var peerName: String?
  public var allowExpired = false
  public var verifyName = true
  public var insecure = false
  /// `host --map-port` (true) or `--no-map-port` (false); nil: the `map_port` setting decides.
  public var mapPort: Bool?
  public var certificateFile: String?
  public var keyFile: String?
  public var pkcs12File: String?
  public var passwordFile: String?
  public var name: String?
  /// Seconds a game is kept after the connection drops, for the joiner to come back (then it may be claimed).
  public var gracePeriod: Double = 120

  public init() {}

  /// The knobs that weaken checking, each shown on screen while in force.
  public var warnings: [String] {
    var result: [String] = []
    if insecure { result.append("--insecure: ANY certificate is accepted; this only keeps out passive eavesdroppers") }
    if allowExpired { result.append("--allow-expired: expired certificates are accepted") }
    if !verifyName { result.append("--no-verify-name: the certificate's name is not checked") }
    return result
  }

  /// The trust rules for this run.
  func trust(knownPeers: KnownPeers, knownPeersPath: String, expectedHost: String?) throws -> TrustOptions {
    let policy: TrustPolicy
    if insecure {
      policy = .insecure
    } else if !pins.isEmpty {
      policy = .pinned(pins)
    } else if let caFile {
      let anchors: String?
      if caFile == "system" {
        anchors = nil
      } else {
        guard let data = FileSystem.contents(caFile) else {
          throw FileError.unreadable(caFile)
        }
        anchors = String(decoding: data, as: UTF8.self)
      }
      policy = .certificateAuthority(anchorsPEM: anchors, expectedName: peerName ?? expectedHost)
    } else {
      policy = .trustOnFirstUse(known: knownPeers, file: knownPeersPath, acceptNew: acceptNew)
    }
    return TrustOptions(policy: policy, allowExpired: allowExpired, verifyName: verifyName)
  }
}

/// The identity and TLS context the command line's options ask for.
extension Profile {
  /// The identity to present: given on the command line, or the stored one (made on first use).
  public func identity(options: NetworkOptions) throws -> (Identity, created: Bool) {
    if let certificateFile = options.certificateFile, let keyFile = options.keyFile {
      let certificate = try readText(certificateFile)
      let key = try readText(keyFile)
      return (try Identity(certificatePEM: certificate, privateKeyPEM: key), false)
    }
    if let pkcs12File = options.pkcs12File {
      guard let data = FileSystem.contents(pkcs12File) else {
        throw FileError.unreadable(pkcs12File)
      }
      let password = try options.passwordFile.map { try readText($0).trimmingNewlines() }
      return (try Identity(pkcs12: data, password: password, passwordFile: options.passwordFile), false)
    }
    return try IdentityStore(directory: identityDirectory).loadOrCreate(commonName: name)
  }

  /// A TLS context for `role` presenting `identity` and judging the peer by `options` against the known peers
  /// (`expectedHost`: the name a CA-issued certificate must carry, for a joiner). With trust on first use, the
  /// lines of known_peers a peer needs are looked up when it is judged (`knownPeersExcerpt`), never the whole file.
  /// `boundAddress`: a joiner's host as typed, to which first-use trust binds the host's key. `shared`: known
  /// peers a caller keeps in memory and changes while the context serves (the bot), instead of the file's.
  public func tlsContext(
    _ role: TLSRole, identity: Identity, options: NetworkOptions, expectedHost: String?, boundAddress: String? = nil,
    shared: SharedKnownPeers? = nil
  ) throws -> TLSContext {
    var trust = try options.trust(knownPeers: KnownPeers(), knownPeersPath: knownPeersPath, expectedHost: expectedHost)
    trust.boundAddress = boundAddress
    trust.sharedKnownPeers = shared
    if shared == nil {
      let index = knownPeersIndex
      trust.knownPeersLookup = KnownPeersLookup { query throws(KnownPeersError) in try index.excerpt(query) }
    }
    return try TLSContext(role: role, identity: identity, options: trust)
  }

  private func readText(_ path: String) throws -> String {
    guard let data = FileSystem.contents(path) else {
      throw FileError.unreadable(path)
    }
    return String(decoding: data, as: UTF8.self)
  }
}
