import Glibc
import NetworkFacts
import PeerTrust
import Security
import Testing
import TransitRelay
import WireProtocol

@testable import Transport

/// Two players meet through Debian's own transit relay on loopback: the host connected out and waiting there is
/// the TLS server, the joiner the client; mutual TLS with pinned keys runs end to end through the relay, and a
/// recording of what the relay was given holds none of the plaintext. Each way it can fail is named.
@Suite(.serialized)
struct RelayTests {
  let host: Identity
  let joiner: Identity

  init() throws {
    host = try Identity.generate(commonName: "relay-test-host")
    joiner = try Identity.generate(commonName: "relay-test-joiner")
  }

  /// The host's connection at `relay`: connected out, TLS server, waiting with `token`.
  private func hostAt(_ relay: Endpoint, token: RelayToken, patience: Double = 10) throws -> RelayPeer {
    let options = TrustOptions(policy: .pinned([PinnedKey(joiner.fingerprint)]))
    let connection = try PeerConnection(
      fd: try Sockets.connect(relay), context: try TLSContext(role: .server, identity: host, options: options),
      peerAddress: relay.description)
    let greeting = RelayGreeting(token: token, side: try RelaySide.random())
    connection.start(after: RelayPrelude(greeting: greeting, relay: relay, now: connection.clock(), patience: patience))
    return RelayPeer(connection)
  }

  /// The joiner's connection through `path` (the relay, or a tap in front of it): TLS client, pinning the host.
  private func joinerAt(_ path: Endpoint, relay: Endpoint, token: RelayToken) throws -> RelayPeer {
    let options = TrustOptions(policy: .pinned([PinnedKey(host.fingerprint)]))
    let connection = try PeerConnection(
      fd: try Sockets.connect(path), context: try TLSContext(role: .client, identity: joiner, options: options),
      peerAddress: relay.description)
    let greeting = RelayGreeting(token: token, side: try RelaySide.random())
    connection.start(after: RelayPrelude(greeting: greeting, relay: relay, now: connection.clock(), patience: 10))
    return RelayPeer(connection)
  }

  @Test func playersMeetThroughTheRelayAndItSeesOnlyCiphertext() throws {
    let relay = try LocalRelay()
    let token = try RelayToken.random()
    let tap = try RecordingTap(to: relay.endpoint)
    let hostSide = try hostAt(relay.endpoint, token: token)
    try drive([hostSide]) { !hostSide.connection.wantsWrite }
    // The joiner comes, is glued, and sends its ClientHello before the host reads anything: the host's first
    // read then holds the relay's ok and the joiner's first bytes together.
    let joinerSide = try joinerAt(tap.endpoint, relay: relay.endpoint, token: token)
    let hostFD = hostSide.connection.fd
    #expect(try drive([joinerSide], taps: [tap]) { !joinerSide.connection.isInPrelude && waitingBytes(hostFD) > 3 })
    let firstRead = waitingBytes(hostFD)
    #expect(firstRead > 3, "the host's first read: \(firstRead) bytes")
    #expect(try drive([hostSide, joinerSide], taps: [tap]) { hostSide.isSecured && joinerSide.isSecured })
    #expect(
      hostSide.failure == nil && joinerSide.failure == nil,
      "\(String(describing: hostSide.failure ?? joinerSide.failure))")
    #expect(hostSide.connection.tls.trustDecision == .trusted(.pinned))
    #expect(joinerSide.connection.tls.trustDecision == .trusted(.pinned))

    let words = Self.secrets
    try joinerSide.connection.send(.hello(versions: [2], name: words.name, software: "tictactoe relay test"))
    try joinerSide.connection.send(.chat(words.joinerChat))
    try hostSide.connection.send(.chat(words.hostChat))
    #expect(
      try drive([hostSide, joinerSide], taps: [tap]) {
        hostSide.messages.count == 2 && joinerSide.messages.count == 1
      })
    #expect(hostSide.messages.last == .chat(words.joinerChat))
    #expect(joinerSide.messages == [.chat(words.hostChat)])

    // What the relay was given: the greeting and its ok in the clear, then TLS records only.
    let greetingLine = RelayGreeting(token: token, side: RelaySide(bytes: Array(repeating: 0, count: 8))!).line
    #expect(tap.sent.starts(with: greetingLine.prefix(77)), "the token, as the relay must read it")
    #expect(tap.received.starts(with: Array("ok\n".utf8)))
    #expect(tap.sent[104...].starts(with: [0x16, 0x03]), "a TLS handshake record follows the greeting")
    // Only what went past the greeting and the ok, and only pieces of 6 bytes or more: a 2-byte piece such as
    // "c3" turns up by chance in the greeting's hex token (1 run in 5) or in 2 kB of ciphertext (1 in 30).
    let sentAfter = Array(tap.sent.dropFirst(greetingLine.count))
    let receivedAfter = Array(tap.received.dropFirst(3))
    for secret in [words.name, words.joinerChat, words.hostChat, "relay-test-"] + Self.fragments(words) {
      #expect(!sentAfter.contains(Array(secret.utf8)) && !receivedAfter.contains(Array(secret.utf8)), "\(secret)")
    }
    print("relay test: the tap carried \(tap.sent.count) bytes to the relay and \(tap.received.count) back")
    #expect(tap.sent.count > 500 && tap.received.count > 500, "\(tap.sent.count) and \(tap.received.count) bytes")

    joinerSide.connection.close()
    // The relay cannot half-close: the joiner's close_notify and end reach the host, which sees a clean end.
    #expect(try drive([hostSide], taps: [tap]) { hostSide.arrivals.contains(.ended(clean: true)) })
    hostSide.connection.close()
  }

  static let secrets = (
    name: "Alice Liddell", joinerChat: "my secret move is c3, the password is xyzzy",
    hostChat: "the host whispers plugh"
  )

  /// Every 6-byte piece of the plaintext: not one crosses the relay in the clear.
  static func fragments(_ words: (name: String, joinerChat: String, hostChat: String)) -> [String] {
    [words.name, words.joinerChat, words.hostChat].flatMap { text in
      let characters = Array(text)
      return (0...(characters.count - 6)).map { String(characters[$0..<($0 + 6)]) }
    }
  }

  @Test func aRelayThatIsDownIsNamed() throws {
    let relay = try LocalRelay()
    let endpoint = relay.endpoint
    relay.stop()
    do {
      let fd = try Sockets.connect(endpoint)
      close(fd)
      Issue.record("connected to a stopped relay")
    } catch {
      let named = error.atRelay(endpoint)
      #expect(named == .relay(endpoint, .refused))
      #expect(named.code == "relay.refused")
      #expect(named.description.contains("The relay \(endpoint) refused the connection"), "\(named)")
    }
  }

  @Test func nobodyComingIsNamedAtTheDeadline() throws {
    let relay = try LocalRelay()
    let waiting = try hostAt(relay.endpoint, token: try RelayToken.random(), patience: 1)
    let started = PeerConnection.monotonic()
    #expect(try drive([waiting]) { waiting.failure != nil })
    let waited = PeerConnection.monotonic() - started
    #expect(waiting.failure == .relay(relay.endpoint, .nobodyCame(seconds: 1)))
    #expect(waited >= 0.99 && waited < 3, "\(waited) s")
    #expect(waiting.arrivals.isEmpty)
    // The waiting connection keeps itself known to NATs on the way.
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(waiting.connection.fd, SOL_SOCKET, SO_KEEPALIVE, &value, &length)
    #expect(value == 1)
    getsockopt(waiting.connection.fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &value, &length)
    #expect(value == RelayPrelude.waitingKeepAlive.idle)
    waiting.connection.close()
  }

  /// The host waits again with the same token (a new side) after each joiner, so an invite already sent stays
  /// good: the relay glues the next joiner to the new wait.
  @Test func theTokenServesTheNextJoinerToo() throws {
    let relay = try LocalRelay()
    let token = try RelayToken.random()
    for round in 1...2 {
      let hostSide = try hostAt(relay.endpoint, token: token)
      let joinerSide = try joinerAt(relay.endpoint, relay: relay.endpoint, token: token)
      #expect(try drive([hostSide, joinerSide]) { hostSide.isSecured && joinerSide.isSecured }, "round \(round)")
      try joinerSide.connection.send(.chat("round \(round)"))
      #expect(try drive([hostSide, joinerSide]) { hostSide.messages == [.chat("round \(round)")] })
      joinerSide.connection.close()
      hostSide.connection.close()
    }
  }

  /// Two joiners that came while the host's wait was taken are glued to each other: both are TLS clients, so
  /// the handshake fails on each, with a TLS error (not a relay one), and neither is secured.
  @Test func twoJoinersGluedToEachOtherFailAtTLS() throws {
    let relay = try LocalRelay()
    let token = try RelayToken.random()
    let first = try joinerAt(relay.endpoint, relay: relay.endpoint, token: token)
    let second = try joinerAt(relay.endpoint, relay: relay.endpoint, token: token)
    #expect(try drive([first, second]) { first.failure != nil && second.failure != nil })
    let codes = [first, second].map { $0.failure?.code ?? "none" }
    print("relay test: two joiners glued to each other failed with \(codes)")
    for joiner in [first, second] {
      #expect(!joiner.isSecured && !joiner.connection.isInPrelude)
      guard case .tls = joiner.failure else {
        Issue.record("\(String(describing: joiner.failure))")
        continue
      }
    }
  }
}
