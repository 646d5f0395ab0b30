import Foundation
import NetworkFacts
import PeerTrust
import TestSupport
import Testing

@testable import Security

/// Shared fixtures: identities are slow-ish to make, so tests reuse these.
enum Fixtures {
  static let alice = makeIdentity("alice")
  static let bob = makeIdentity("bob")

  static func makeIdentity(_ name: String) -> Identity {
    do {
      return try Identity.generate(commonName: name)
    } catch {
      fatalError("cannot generate a test identity: \(error)")
    }
  }

  static let insecure = TrustOptions(policy: .insecure)
}

/// The end state of an in-memory handshake.
struct HandshakeOutcome {
  var clientDone = false
  var serverDone = false
  var clientError: TLSError?
  var serverError: TLSError?
}

/// Pumps bytes between two connections until both handshakes finish or fail and nothing
/// more is in flight (bounded: a handshake needs a handful of flights).
@discardableResult
func pumpHandshake(client: TLSConnection, server: TLSConnection) -> HandshakeOutcome {
  var outcome = HandshakeOutcome()
  for _ in 0..<32 {
    var moved = false
    if !outcome.clientDone && outcome.clientError == nil {
      do { outcome.clientDone = try client.handshake() } catch { outcome.clientError = error }
    }
    let toServer = client.takeCiphertext()
    if !toServer.isEmpty {
      server.feed(ciphertext: toServer)
      moved = true
    }
    if !outcome.serverDone && outcome.serverError == nil {
      do { outcome.serverDone = try server.handshake() } catch { outcome.serverError = error }
    }
    let toClient = server.takeCiphertext()
    if !toClient.isEmpty {
      client.feed(ciphertext: toClient)
      moved = true
    }
    let clientSettled = outcome.clientDone || outcome.clientError != nil
    let serverSettled = outcome.serverDone || outcome.serverError != nil
    if clientSettled && serverSettled && !moved { break }
  }
  return outcome
}

/// Moves pending ciphertext both ways once.
func flush(_ a: TLSConnection, _ b: TLSConnection) {
  b.feed(ciphertext: a.takeCiphertext())
  a.feed(ciphertext: b.takeCiphertext())
}

/// A client (`alice` by default) connecting to a server (`bob`) it knows as `serverName`.
struct Pair {
  let client: TLSConnection
  let server: TLSConnection
  let outcome: HandshakeOutcome

  init(
    clientIdentity: Identity? = Fixtures.alice, clientOptions: TrustOptions = Fixtures.insecure,
    serverIdentity: Identity = Fixtures.bob, serverOptions: TrustOptions = Fixtures.insecure,
    serverName: String = "bob", clientALPN: String = "tictactoe/1", clientMaximumVersion: Int32 = 0x0304
  ) throws {
    let clientContext = try TLSContext(
      role: .client, identity: clientIdentity, options: clientOptions, alpn: clientALPN,
      maximumVersion: clientMaximumVersion)
    let serverContext = try TLSContext(role: .server, identity: serverIdentity, options: serverOptions)
    client = try TLSConnection(context: clientContext, serverName: serverName)
    server = try TLSConnection(context: serverContext, serverName: nil)
    outcome = pumpHandshake(client: client, server: server)
  }
}

/// A fresh empty directory in the test process's own (TestSupport's TestDirectory, removed at exit).
func makeTemporaryDirectory() throws -> String {
  try TestDirectory.make("security")
}

/// Runs a shell command line and returns its standard output (its standard error is dropped, as before).
func shell(_ command: String) throws -> String {
  try ChildProcess.run("/bin/sh", ["-c", command], errors: .null).output
}

/// The current time in seconds since 1970.
func nowSeconds() -> Int64 {
  // time(), as the code under test reads the clock: glibc's time() may lag Date() by a clock tick, so across a
  // second boundary the two can disagree by one second.
  Int64(time(nil))
}

/// An identity made by the openssl command line in `folder` (`keygen`: `openssl req`'s key options), which then
/// holds its certificate, key and public key as cert.pem, key.pem and pub.pem.
func opensslIdentity(_ keygen: String, name: String, in folder: String) throws -> Identity {
  _ = try shell(
    "cd '\(folder)' && openssl req -x509 \(keygen) -nodes -keyout key.pem -out cert.pem -days 2"
      + " -subj /CN=\(name) 2>/dev/null && openssl x509 -in cert.pem -pubkey -noout > pub.pem")
  return try Identity(
    certificatePEM: try String(contentsOfFile: folder + "/cert.pem", encoding: .utf8),
    privateKeyPEM: try String(contentsOfFile: folder + "/key.pem", encoding: .utf8))
}
