import NetworkFacts
import PeerTrust
import Security
import Session
import Testing
import TransitRelay
import Transport
import WireProtocol

@testable import App
@testable import MatchCoordination
@testable import NetworkShell

/// The relay's part of the pure coordinators, on the test's clock: the host's wait (made again after each
/// joiner, after a back-off when it fails), and the joiner's race between the invite's direct addresses and its
/// relay (the first connection the host's hello comes on wins; two joiners glued to each other try again).
@Suite struct RelayCoordinatorTests {
  static let relay = Endpoint(host: "127.0.0.1", port: 4001)
  static let token = RelayToken(bytes: Array(repeating: 7, count: 32))!

  static func route() throws -> RelayRoute {
    RelayRoute(relay: relay, address: try Sockets.resolve(relay, numericOnly: true)[0], token: token)
  }

  /// The connections a side asked to open at the relay, in order.
  static func relayConnects(_ commands: [MatchCommand]) -> [(ConnectionID, Double?)] {
    commands.compactMap { if case .connectRelay(let id, _, let patience) = $0 { (id, patience) } else { nil } }
  }

  /// A pair whose joiner holds an invite for alice's key naming the relay, started joining at the direct
  /// address; the joiner's number for its direct connection.
  static func racing() throws -> (MatchPair, direct: ConnectionID) {
    var pair = MatchPair()
    pair.joiner.inviteKey = MatchPair.aliceKey
    let address = try Sockets.resolve(MatchPair.endpoint, numericOnly: true)[0]
    let plan = JoinerRelay(route: try route(), failure: nil, now: pair.now, direct: true)
    let commands = pair.joiner.join([(MatchPair.endpoint, address)], relay: plan, now: pair.now)
    pair.joinerDid(commands)
    return (pair, try #require(MatchPair.connectID(commands)))
  }

  static let pinnedAlice = MatchPair.facts("alice", MatchPair.aliceKey, .trusted(.pinned))

  // MARK: - The host's wait

  @Test func theHostWaitsAgainAtOnceAfterEachJoinerWithTheSameToken() throws {
    var pair = MatchPair()
    pair.host.relayWait = HostRelayWait(route: try Self.route())
    pair.hostDid(pair.host.waitAtRelay(now: pair.now))
    let first = try #require(Self.relayConnects(pair.hostCommands).first)
    #expect(first.1 == nil, "the host's wait has no deadline of its own")
    #expect(pair.host.connections[first.0]?.isPending == false)
    pair.hostDid(pair.host.reachedRelay(first.0, now: pair.now))
    #expect(pair.host.connections[first.0]?.phase == .atRelay)
    #expect(pair.host.nextDeadline == nil, "nothing is due while the host waits")
    pair.advance(3600)
    #expect(pair.host.connections[first.0]?.phase == .atRelay, "a wait lasts as long as the relay keeps it")

    pair.hostDid(pair.host.glued(first.0, now: pair.now))
    #expect(pair.host.connections[first.0]?.phase == .handshaking)
    #expect(pair.host.connections[first.0]?.isPending == true)
    let waits = Self.relayConnects(pair.hostCommands)
    #expect(waits.count == 2 && waits[1].0 != first.0, "a new wait at once: \(waits.map(\.0))")
    let tokens = pair.hostCommands.compactMap {
      if case .connectRelay(_, let route, _) = $0 { route.token } else { nil }
    }
    #expect(Set(tokens) == [Self.token])
  }

  @Test func aFailedWaitIsToldOnceAndMadeAgainAfterABackOff() throws {
    var pair = MatchPair()
    pair.host.relayWait = HostRelayWait(route: try Self.route())
    pair.hostDid(pair.host.waitAtRelay(now: pair.now))
    for (attempt, delay) in [(1, 1.0), (2, 2.0), (3, 4.0)] {
      let id = try #require(Self.relayConnects(pair.hostCommands).last?.0)
      pair.hostDid(pair.host.failed(id, .network(.relay(Self.relay, .refused)), now: pair.now))
      #expect(pair.host.finished == nil, "the host keeps hosting")
      #expect(pair.hostStatuses.filter { $0.contains("refused the connection") }.count == 1, "told once")
      pair.advance(delay - 0.1)
      #expect(Self.relayConnects(pair.hostCommands).count == attempt, "not before \(delay) s")
      pair.advance(0.1)
      #expect(Self.relayConnects(pair.hostCommands).count == attempt + 1, "again after \(delay) s")
    }
    #expect(HostRelayWait.delay(afterFailures: 7) == 60 && HostRelayWait.delay(afterFailures: 40) == 60)
  }

  // MARK: - The joiner's race

  @Test func theRelayIsTriedAfterItsDelayAndWinsWhenTheHostsHelloComesThereFirst() throws {
    var (pair, direct) = try Self.racing()
    pair.advance(JoinerRelay.delay - 0.1)
    #expect(Self.relayConnects(pair.joinerCommands).isEmpty)
    pair.advance(0.1)
    let (viaRelay, patience) = try #require(Self.relayConnects(pair.joinerCommands).first)
    #expect(patience == JoinerRelay.patience)
    pair.joinerDid(pair.joiner.reachedRelay(viaRelay, now: pair.now))
    pair.joinerDid(pair.joiner.glued(viaRelay, now: pair.now))
    // The host's side of the relay connection, and TLS on both.
    pair.secure(
      joinerID: viaRelay, hostSees: MatchPair.facts("bob", MatchPair.bobKey, .trusted(.acceptedNew)),
      joinerSees: Self.pinnedAlice)
    #expect(pair.closedByJoiner.contains(direct), "the direct attempt is closed")
    #expect(pair.started(pair.joinerEvents) == 1 && pair.started(pair.hostEvents) == 1)
    #expect(pair.joiner.active == viaRelay)
    #expect(pair.joinerStatuses.contains { $0.contains("through the relay 127.0.0.1:4001") })
    let remembered = pair.joinerCommands.compactMap {
      if case .remember(_, let key, let address) = $0 { (key, address) } else { nil }
    }
    #expect(
      remembered.count == 1 && remembered.first?.0 == MatchPair.aliceKey && remembered.first?.1 == nil,
      "a relayed join binds no address: \(remembered)")
  }

  @Test func aSecuredRacerSaysNothingUntilTheHostsHelloArrivesOnIt() throws {
    var (pair, direct) = try Self.racing()
    pair.joiner.connected(direct, remote: MatchPair.endpoint)
    pair.advance(JoinerRelay.delay)
    let viaRelay = try #require(Self.relayConnects(pair.joinerCommands).first?.0)
    pair.joinerDid(pair.joiner.reachedRelay(viaRelay, now: pair.now))
    pair.joinerDid(pair.joiner.glued(viaRelay, now: pair.now))
    // TLS finishes on the relay connection but the host's hello has not come: the joiner sends nothing on it.
    pair.joinerDid(pair.joiner.secured(viaRelay, Self.pinnedAlice, now: pair.now))
    #expect(pair.joiner.connections[viaRelay]?.held == true)
    #expect(!pair.joinerCommands.contains { if case .send = $0 { true } else { false } })
    // The host's hello comes on the direct connection first: it wins, and the relay connection is closed.
    pair.secure(
      joinerID: direct, hostSees: MatchPair.facts("bob", MatchPair.bobKey, .trusted(.acceptedNew)),
      joinerSees: Self.pinnedAlice)
    #expect(pair.closedByJoiner.contains(viaRelay))
    #expect(pair.joiner.active == direct && pair.started(pair.joinerEvents) == 1)
    let sentOn = Set(pair.joinerCommands.compactMap { if case .send(let id, _) = $0 { id } else { nil } })
    #expect(sentOn == [direct], "the host hears this joiner on one connection only")
  }

  @Test func theDirectAddressWinningBeforeTheDelayMeansNoRelay() throws {
    var (pair, direct) = try Self.racing()
    pair.joiner.connected(direct, remote: MatchPair.endpoint)
    pair.secure(
      joinerID: direct, hostSees: MatchPair.facts("bob", MatchPair.bobKey, .trusted(.acceptedNew)),
      joinerSees: Self.pinnedAlice)
    #expect(pair.started(pair.joinerEvents) == 1)
    pair.advance(JoinerRelay.delay * 3)
    #expect(Self.relayConnects(pair.joinerCommands).isEmpty, "nothing connects to the relay")
    let remembered = pair.joinerCommands.compactMap {
      if case .remember(_, _, let address) = $0 { address } else { nil }
    }
    #expect(remembered == ["127.0.0.1:7177"], "a direct join binds the address as before")
  }

  @Test func whenEveryDirectAddressFailsTheRelayIsTriedAtOnce() throws {
    var (pair, direct) = try Self.racing()
    pair.joinerDid(pair.joiner.failed(direct, .network(.connectionRefused(MatchPair.endpoint)), now: pair.now))
    #expect(Self.relayConnects(pair.joinerCommands).count == 1, "at once, not after the delay")
    #expect(pair.joiner.finished == nil)
  }

  @Test func nobodyAtTheRelayEndsTheJoinWithItsOwnStatus() throws {
    var (pair, direct) = try Self.racing()
    pair.joinerDid(pair.joiner.failed(direct, .network(.connectionRefused(MatchPair.endpoint)), now: pair.now))
    let viaRelay = try #require(Self.relayConnects(pair.joinerCommands).first?.0)
    pair.joinerDid(pair.joiner.reachedRelay(viaRelay, now: pair.now))
    pair.advance(JoinerRelay.patience - 0.5)
    #expect(pair.joiner.finished == nil)
    pair.advance(0.5)
    let end = try #require(pair.joiner.finished)
    #expect(end == .network(.relay(Self.relay, .nobodyCame(seconds: Int(JoinerRelay.patience)))))
    #expect(ExitStatus.code(for: end) == ExitStatus.relayNobodyCame)
  }

  @Test func aRelayFailureWhileADirectAddressIsStillTriedEndsNothing() throws {
    var (pair, direct) = try Self.racing()
    pair.advance(JoinerRelay.delay)
    let viaRelay = try #require(Self.relayConnects(pair.joinerCommands).first?.0)
    pair.joinerDid(pair.joiner.failed(viaRelay, .network(.relay(Self.relay, .refused)), now: pair.now))
    #expect(pair.joiner.finished == nil)
    #expect(pair.joinerStatuses.contains { $0.contains("Still trying the host's own addresses") })
    // Then the direct address fails too: the join ends with the relay's failure, the last way that was left.
    pair.joinerDid(pair.joiner.failed(direct, .network(.connectionRefused(MatchPair.endpoint)), now: pair.now))
    #expect(pair.joiner.finished == .network(.relay(Self.relay, .refused)))
    #expect(ExitStatus.code(for: .network(.relay(Self.relay, .refused))) == ExitStatus.relayUnreachable)
  }

  @Test func twoJoinersGluedToEachOtherAreToldAndTryAgainThenGiveUp() throws {
    var (pair, direct) = try Self.racing()
    pair.joinerDid(pair.joiner.failed(direct, .network(.connectionRefused(MatchPair.endpoint)), now: pair.now))
    let twoClients = MatchEnd.network(.tls(.handshakeFailed(reasons: ["unexpected message"])))
    for attempt in 1...(JoinerRelay.pairedRetries + 1) {
      let id = try #require(Self.relayConnects(pair.joinerCommands).last?.0)
      pair.joinerDid(pair.joiner.reachedRelay(id, now: pair.now))
      pair.joinerDid(pair.joiner.glued(id, now: pair.now))
      pair.joinerDid(pair.joiner.failed(id, twoClients, now: pair.now))
      if attempt <= JoinerRelay.pairedRetries {
        #expect(pair.joiner.finished == nil)
        #expect(pair.joinerStatuses.last?.contains("paired us with another joiner") == true)
        pair.advance(0.5 * Double(attempt))
        #expect(Self.relayConnects(pair.joinerCommands).count == attempt + 1, "back to the relay")
      }
    }
    let end = try #require(pair.joiner.finished)
    #expect(end == .network(.relay(Self.relay, .pairedWithJoiner)))
    #expect(ExitStatus.code(for: end) == ExitStatus.relayPairedWithJoiner)
  }

  @Test func aTLSFailureBeforeTheRelayGluedIsNotTakenForAnotherJoiner() throws {
    var (pair, direct) = try Self.racing()
    pair.joinerDid(pair.joiner.failed(direct, .network(.connectionRefused(MatchPair.endpoint)), now: pair.now))
    let id = try #require(Self.relayConnects(pair.joinerCommands).last?.0)
    pair.joinerDid(pair.joiner.reachedRelay(id, now: pair.now))
    pair.joinerDid(pair.joiner.failed(id, .network(.relay(Self.relay, .closed)), now: pair.now))
    #expect(pair.joiner.finished == .network(.relay(Self.relay, .closed)))
    #expect(ExitStatus.code(for: .network(.relay(Self.relay, .closed))) == ExitStatus.relayClosed)
  }

  @Test func aRelayedGameReconnectsThroughTheRelay() throws {
    var (pair, direct) = try Self.racing()
    pair.joinerDid(pair.joiner.failed(direct, .network(.connectionRefused(MatchPair.endpoint)), now: pair.now))
    let viaRelay = try #require(Self.relayConnects(pair.joinerCommands).first?.0)
    pair.joinerDid(pair.joiner.reachedRelay(viaRelay, now: pair.now))
    pair.joinerDid(pair.joiner.glued(viaRelay, now: pair.now))
    pair.secure(
      joinerID: viaRelay, hostSees: MatchPair.facts("bob", MatchPair.bobKey, .trusted(.acceptedNew)),
      joinerSees: Self.pinnedAlice)
    try pair.play([0, 3])
    pair.cut(pair.links[0])
    pair.advance(0.01)
    let again = Self.relayConnects(pair.joinerCommands)
    #expect(again.count == 2, "the reconnection goes to the relay: \(pair.joinerCommands)")
    #expect(!pair.joinerCommands.contains { if case .reconnect = $0 { true } else { false } })
    let id = try #require(again.last?.0)
    #expect(pair.joiner.connections[id]?.isReconnect == true)
  }

  @Test func aDirectAddressWithAnotherKeyIsTheFailureShownNotTheRelays() throws {
    let mismatch = MatchEnd.network(
      .tls(.untrusted(.pinMismatch(expected: [PinnedKey(MatchPair.aliceKey)], got: MatchPair.bobKey))))
    // The relay fails first, then the direct address answers with a key that is not the invite's.
    var (pair, direct) = try Self.racing()
    pair.advance(JoinerRelay.delay)
    let viaRelay = try #require(Self.relayConnects(pair.joinerCommands).first?.0)
    pair.joinerDid(pair.joiner.failed(viaRelay, .network(.relay(Self.relay, .refused)), now: pair.now))
    pair.joinerDid(pair.joiner.failed(direct, mismatch, now: pair.now))
    #expect(pair.joiner.finished == mismatch)
    // The other way round: the direct address first, then the relay.
    var (other, direct2) = try Self.racing()
    other.joinerDid(other.joiner.failed(direct2, mismatch, now: other.now))
    let viaRelay2 = try #require(Self.relayConnects(other.joinerCommands).first?.0)
    other.joinerDid(other.joiner.failed(viaRelay2, .network(.relay(Self.relay, .refused)), now: other.now))
    #expect(other.joiner.finished == mismatch)
  }

  @Test func withNoDirectAddressTheRelayIsTriedAtOnceAndItsLookUpFailureEndsTheJoin() throws {
    var pair = MatchPair()
    let plan = JoinerRelay(route: try Self.route(), failure: nil, now: pair.now, direct: false)
    pair.joinerDid(pair.joiner.join([], relay: plan, now: pair.now))
    #expect(Self.relayConnects(pair.joinerCommands).count == 1)
    #expect(pair.joinerStatuses == ["Trying the relay 127.0.0.1:4001\u{2026}"], "nothing about an address")
    var other = MatchPair()
    let notFound = NetworkError.relay(Self.relay, .unreachable(reason: "its name was not found (x)"))
    let failed = JoinerRelay(route: nil, failure: notFound, now: other.now, direct: false)
    other.joinerDid(other.joiner.join([], relay: failed, now: other.now))
    #expect(other.joiner.finished == .network(notFound))
  }
}
