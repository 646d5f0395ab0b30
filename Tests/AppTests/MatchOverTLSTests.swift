import GameCore
import NetworkFacts
import PeerTrust
import Security
import Session
import Testing
import Transport
import WireProtocol

@testable import App
@testable import MatchCoordination
@testable import NetworkShell

/// The whole pipeline but the sockets, in memory: the two coordinators, the frame codec and real TLS
/// connections between real identities, as swift-nio's EmbeddedChannel runs a pipeline. Trust is decided by
/// OpenSSL and the trust policies, not given to the coordinators.
@Suite struct MatchOverTLSTests {
  static let alice = try! Identity.generate(commonName: "alice")
  static let bob = try! Identity.generate(commonName: "bob")
  static let rules = try! Rules(size: 3, k: 3)

  /// One TLS connection between the host and the joiner, with each side's frame decoder.
  final class Wire {
    let host: TLSConnection
    let joiner: TLSConnection
    var hostDecoder = FrameDecoder()
    var joinerDecoder = FrameDecoder()
    var hostError: TLSError?
    var joinerError: TLSError?

    init(hostTrust: TrustOptions, joinerTrust: TrustOptions) throws {
      host = try TLSConnection(
        context: try TLSContext(role: .server, identity: MatchOverTLSTests.alice, options: hostTrust),
        serverName: nil)
      joiner = try TLSConnection(
        context: try TLSContext(role: .client, identity: MatchOverTLSTests.bob, options: joinerTrust),
        serverName: nil)
      // The handshake, flight by flight.
      var hostDone = false
      var joinerDone = false
      for _ in 0..<16 where hostError == nil && joinerError == nil && !(hostDone && joinerDone) {
        do { joinerDone = try joiner.handshake() } catch { joinerError = error }
        host.feed(ciphertext: joiner.takeCiphertext())
        do { hostDone = try host.handshake() } catch { hostError = error }
        joiner.feed(ciphertext: host.takeCiphertext())
      }
    }

    /// `message` sent by one side, encrypted, and read by the other: what its decoder yields.
    static func carry(
      _ message: Message, from sender: TLSConnection, to receiver: TLSConnection, _ decoder: inout FrameDecoder
    )
      throws -> [Message]
    {
      try sender.writePlaintext(message.bytes)
      receiver.feed(ciphertext: sender.takeCiphertext())
      decoder.feed(try receiver.readPlaintext())
      var messages: [Message] = []
      while let frame = try decoder.next() {
        if let message = try Message.decode(frame) { messages.append(message) }
      }
      return messages
    }
  }

  /// Runs the two coordinators over `wire`, carrying every message through TLS, until both are quiet.
  static func run(_ pair: inout MatchPair, over wire: Wire, link: (host: ConnectionID, joiner: ConnectionID)) throws {
    var toJoiner: [Message] = []
    var toHost: [Message] = []
    func sends(_ commands: [MatchCommand], on id: ConnectionID) -> [Message] {
      commands.compactMap { if case .send(id, let message) = $0 { message } else { nil } }
    }
    toJoiner += sends(pair.hostCommands, on: link.host)
    toHost += sends(pair.joinerCommands, on: link.joiner)
    while !toJoiner.isEmpty || !toHost.isEmpty {
      for message in toJoiner {
        for arrived in try Wire.carry(message, from: wire.host, to: wire.joiner, &wire.joinerDecoder) {
          let commands = pair.joiner.received(link.joiner, arrived, now: pair.now)
          pair.joinerDid(commands)
          toHost += sends(commands, on: link.joiner)
        }
      }
      toJoiner = []
      for message in toHost {
        for arrived in try Wire.carry(message, from: wire.joiner, to: wire.host, &wire.hostDecoder) {
          let commands = pair.host.received(link.host, arrived, now: pair.now)
          pair.hostDid(commands)
          toJoiner += sends(commands, on: link.host)
        }
      }
      toHost = []
    }
  }

  @Test func aNewJoinerIsAskedAboutByItsRealKeyAndTheGameIsPlayedOverTLS() throws {
    let hostTrust = TrustOptions(policy: .trustOnFirstUse(known: KnownPeers(), file: "/nonexistent", acceptNew: false))
    let joinerTrust = TrustOptions(policy: .pinned([PinnedKey(Self.alice.fingerprint)]))
    let wire = try Wire(hostTrust: hostTrust, joinerTrust: joinerTrust)
    #expect(wire.hostError == nil && wire.joinerError == nil)
    var pair = MatchPair()
    let address = try Sockets.resolve(MatchPair.endpoint)[0]
    let joinerID = try #require(MatchPair.connectID(pair.joiner.join([(MatchPair.endpoint, address)], now: pair.now)))
    pair.joiner.connected(joinerID, remote: MatchPair.endpoint)
    let (hostID, _) = pair.host.accepted(peer: "127.0.0.1:50000", now: pair.now)
    pair.hostDid(pair.host.secured(hostID, PeerFacts(wire.host), now: pair.now))
    pair.joinerDid(pair.joiner.secured(joinerID, PeerFacts(wire.joiner), now: pair.now))
    let link = (host: hostID, joiner: joinerID)
    try Self.run(&pair, over: wire, link: link)
    // The host's player is asked about bob's real key; the joiner trusted alice's by its pin.
    #expect(pair.host.question?.fingerprint == Self.bob.fingerprint)
    #expect(pair.joiner.activeConnection?.facts?.trust == .trusted(.pinned))
    pair.hostCommands = []
    pair.joinerCommands = []
    pair.hostDid(pair.host.answer(accept: true, now: pair.now))
    try Self.run(&pair, over: wire, link: link)
    #expect(pair.started(pair.hostEvents) == 1 && pair.started(pair.joinerEvents) == 1)
    let remembered = pair.hostCommands.contains {
      if case .remember("bob", Self.bob.fingerprint, nil) = $0 { true } else { false }
    }
    #expect(remembered)
    // Moves go through TLS too, until X has its row.
    for cell in [0, 3, 1, 4, 2] {
      pair.hostCommands = []
      pair.joinerCommands = []
      let position = Position(row: cell / 3, column: cell % 3)
      if pair.host.session?.myTurn == true {
        pair.hostDid(try pair.host.play(position, now: pair.now))
      } else {
        pair.joinerDid(try pair.joiner.play(position, now: pair.now))
      }
      try Self.run(&pair, over: wire, link: link)
    }
    #expect(pair.host.session?.game?.isOver == true && pair.joiner.session?.game?.isOver == true)
    // X won, whoever the coin made X.
    let hostWon = pair.host.session?.myMark == .x
    #expect(pair.host.session?.score.wins == (hostWon ? 1 : 0) && pair.joiner.session?.score.wins == (hostWon ? 0 : 1))
  }

  @Test func aPinThatDoesNotMatchEndsTheJoinWithItsOwnCause() throws {
    let hostTrust = TrustOptions(policy: .insecure)
    let joinerTrust = TrustOptions(policy: .pinned([PinnedKey(Self.bob.fingerprint)]))  // not alice's
    let wire = try Wire(hostTrust: hostTrust, joinerTrust: joinerTrust)
    let error = try #require(wire.joinerError)
    var joiner = MatchPair().joiner
    let address = try Sockets.resolve(MatchPair.endpoint)[0]
    let id = try #require(MatchPair.connectID(joiner.join([(MatchPair.endpoint, address)], now: 0)))
    joiner.connected(id, remote: MatchPair.endpoint)
    _ = joiner.failed(id, .network(.tls(error)), now: 0)
    let end = try #require(joiner.finished)
    #expect(ExitStatus.code(for: end) == ExitStatus.pinMismatch, "\(end)")
    #expect("\(end)".contains(Self.alice.fingerprint.description), "the key presented is named: \(end)")
  }
}
