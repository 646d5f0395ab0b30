import Foundation
import Testing

@testable import PeerTrust
@testable import Security

/// CA mode's rules, with certificates made by the openssl command line (not by this program): a host's
/// certificate must be valid for TLS server authentication and a joiner's for client authentication; a CA's
/// own certificate is never a player's; an address matches only an IP subjectAltName, a host name only DNS ones,
/// a wildcard never an address, and the common name only when there is no subjectAltName.
@Suite(.serialized) struct CertificateAuthorityRulesTests {
  /// Each leaf: its subject, and the extension lines `openssl x509 -extfile` adds.
  static let leaves: [String: (subject: String, extensions: String)] = [
    "ip": ("/CN=alice", "subjectAltName=IP:127.0.0.1,IP:::1\nextendedKeyUsage=serverAuth,clientAuth"),
    "dns-address": ("/CN=alice", "subjectAltName=DNS:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth"),
    "wildcard": ("/CN=alice", "subjectAltName=DNS:*.0.0.1,DNS:*.club.example\nextendedKeyUsage=serverAuth,clientAuth"),
    "dns": ("/CN=alice", "subjectAltName=DNS:alice.example\nextendedKeyUsage=serverAuth,clientAuth"),
    "cn-only": ("/CN=alice.example", "extendedKeyUsage=serverAuth,clientAuth"),
    "cn-and-san": ("/CN=alice.example", "subjectAltName=DNS:other.example\nextendedKeyUsage=serverAuth,clientAuth"),
    "server-only": ("/CN=alice", "subjectAltName=DNS:alice\nextendedKeyUsage=serverAuth"),
    "client-only": ("/CN=alice", "subjectAltName=DNS:alice\nextendedKeyUsage=clientAuth"),
    "signing-key-usage": ("/CN=alice", "subjectAltName=DNS:alice\nkeyUsage=critical,keyCertSign"),
    "authority": ("/CN=alice", "subjectAltName=DNS:alice\nbasicConstraints=critical,CA:TRUE"),
  ]

  struct Made {
    let anchors: String
    let leaves: [String: PeerCertificate]
  }

  /// The authority and every leaf, made once.
  static let made: Result<Made, any Error> = Result {
    let directory = try makeTemporaryDirectory()
    var script = """
      set -e
      cd '\(directory)'
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.crt \
        -days 30 -subj '/CN=Rules CA' -addext basicConstraints=critical,CA:TRUE \
        -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null

      """
    for (name, leaf) in leaves {
      try leaf.extensions.write(toFile: "\(directory)/\(name).ext", atomically: true, encoding: .utf8)
      script += """
        openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout \(name).key \
          -subj '\(leaf.subject)' -out \(name).csr 2>/dev/null
        openssl x509 -req -in \(name).csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 \
          -extfile \(name).ext -out \(name).crt 2>/dev/null

        """
    }
    _ = try shell(script)
    var certificates: [String: PeerCertificate] = [:]
    for name in leaves.keys {
      let pem = try String(contentsOfFile: "\(directory)/\(name).crt", encoding: .utf8)
      let leaf = try #require(try X509Certificate.parseAll(pem: pem, what: name).first)
      certificates[name] = PeerCertificate(leaf: leaf, chainDER: [leaf.der])
    }
    return Made(anchors: try String(contentsOfFile: "\(directory)/ca.crt", encoding: .utf8), leaves: certificates)
  }

  /// The decision for leaf `name` met as `expected`, playing `role`.
  static func decide(_ name: String, expecting expected: String, as role: TLSRole = .server) throws -> TrustDecision {
    let made = try made.get()
    let options = TrustOptions(policy: .certificateAuthority(anchorsPEM: made.anchors, expectedName: expected))
    let peer = try #require(made.leaves[name])
    return evaluate(peer: peer, peerName: expected, options: options, now: nowSeconds(), peerRole: role)
  }

  static func trusted(_ decision: TrustDecision) -> Bool {
    if case .trusted(.certificateAuthority(issuer: "Rules CA")) = decision { return true }
    return false
  }

  static func nameMismatch(_ decision: TrustDecision) -> [String]? {
    if case .rejected(.nameMismatch(_, let presented)) = decision { return presented }
    return nil
  }

  @Test func anAddressMatchesOnlyAnIPSubjectAltName() throws {
    #expect(Self.trusted(try Self.decide("ip", expecting: "127.0.0.1")))
    #expect(Self.trusted(try Self.decide("ip", expecting: "::1")))
    #expect(Self.trusted(try Self.decide("ip", expecting: "[::1]")))
    #expect(Self.nameMismatch(try Self.decide("ip", expecting: "127.0.0.2")) == ["127.0.0.1", "::1"])
    // A DNS name that reads like the address, or a wildcard that would cover it, is not the address.
    #expect(Self.nameMismatch(try Self.decide("dns-address", expecting: "127.0.0.1")) == ["127.0.0.1"])
    #expect(Self.nameMismatch(try Self.decide("wildcard", expecting: "127.0.0.1")) != nil)
    // A wildcard still covers a host name, as it should.
    #expect(Self.trusted(try Self.decide("wildcard", expecting: "alice.club.example")))
  }

  @Test func aHostNameMatchesTheDNSNamesAndTheCommonNameOnlyWithoutThem() throws {
    #expect(Self.trusted(try Self.decide("dns", expecting: "alice.example")))
    #expect(Self.nameMismatch(try Self.decide("dns", expecting: "alice")) == ["alice.example"])
    #expect(Self.trusted(try Self.decide("cn-only", expecting: "alice.example")))
    #expect(Self.nameMismatch(try Self.decide("cn-and-san", expecting: "alice.example")) == ["other.example"])
  }

  @Test func aHostNeedsServerAuthenticationAndAJoinerClientAuthentication() throws {
    #expect(Self.trusted(try Self.decide("server-only", expecting: "alice", as: .server)))
    #expect(Self.trusted(try Self.decide("client-only", expecting: "alice", as: .client)))
    let asJoiner = try Self.decide("server-only", expecting: "alice", as: .client)
    guard case .rejected(.untrustedChain(let reason)) = asJoiner else {
      Issue.record("a host-only certificate was let in as a joiner's: \(asJoiner)")
      return
    }
    #expect(reason.contains("not valid for a joiner (TLS client)"), "\(reason)")
    let asHost = try Self.decide("client-only", expecting: "alice", as: .server)
    guard case .rejected(.untrustedChain(let hostReason)) = asHost else {
      Issue.record("a joiner-only certificate was let in as a host's: \(asHost)")
      return
    }
    #expect(hostReason.contains("not valid for a host (TLS server)"), "\(hostReason)")
    // A key for signing certificates only is not a key for TLS.
    #expect(!Self.trusted(try Self.decide("signing-key-usage", expecting: "alice", as: .server)))
  }

  @Test func aCertificateAuthorityIsNeverAPlayer() throws {
    for role in [TLSRole.server, .client] {
      let decision = try Self.decide("authority", expecting: "alice", as: role)
      guard case .rejected(.untrustedChain(let reason)) = decision else {
        Issue.record("a CA:TRUE certificate was let in as a player's: \(decision)")
        continue
      }
      #expect(reason.contains("CA:TRUE"), "\(reason)")
    }
  }

  /// `--ca system` (and any one set of anchors) is loaded once per process, not for every connection.
  @Test func anchorsAreLoadedOncePerProcess() throws {
    let anchors = try Self.made.get().anchors
    let first = try CertificateAuthorityVerifier.shared(anchorsPEM: anchors)
    #expect(try CertificateAuthorityVerifier.shared(anchorsPEM: anchors) === first)
    let system = try CertificateAuthorityVerifier.shared(anchorsPEM: nil)
    #expect(try CertificateAuthorityVerifier.shared(anchorsPEM: nil) === system)
    #expect(system !== first)
    let options = TrustOptions(policy: .certificateAuthority(anchorsPEM: nil, expectedName: nil))
    #expect(try TrustEvaluator(options: options).verifier as? CertificateAuthorityVerifier === system)
  }
}
