import SessionTestSupport
import Testing
import WireProtocol

@testable import Session

/// Rule 12's field 18: a joiner's hello says it checks batch record signatures, a spectator's and a host's do not,
/// and the host remembers what its joiner's hello said (what lets the bot sign that joiner's games in a batch).
@Suite struct BatchSignatureHelloTests {
  private static func hello(_ outputs: [SessionOutput]) -> Message? {
    for case .send(let message) in outputs {
      if case .hello = message { return message }
    }
    return nil
  }

  @Test func aJoinerSaysItChecksBatchSignaturesAndTheHostRemembersIt() throws {
    var pair = SessionPair()
    let hostHello = try #require(Self.hello(pair.host.start(now: 0)))
    let joinerHello = try #require(Self.hello(pair.joiner.start(now: 0)))
    guard case .hello(_, _, _, _, _, let hostSays) = hostHello, case .hello(_, _, _, _, _, let joinerSays) = joinerHello
    else { return }
    #expect(!hostSays && joinerSays)
    #expect(!pair.host.peerTakesBatchSignatures)
    _ = pair.host.receive(joinerHello, now: 0)
    #expect(pair.host.peerTakesBatchSignatures)
  }

  @Test func aSpectatorAndAnOlderJoinerDoNot() throws {
    var configuration = NetSession.Configuration(role: .joiner, name: "Carol", software: "test")
    configuration.watch = 0
    var spectator = NetSession(
      configuration: configuration,
      coinBytes: Array(repeating: 0, count: 32), sha256: testHash, now: 0)
    guard case .hello(_, _, _, _, let watch, let says)? = Self.hello(spectator.start(now: 0)) else {
      Issue.record("no hello")
      return
    }
    #expect(watch == 0 && !says)
    var pair = SessionPair()
    _ = pair.host.start(now: 0)
    _ = pair.host.receive(.hello(versions: ProtocolVersion.supported, name: "Old", software: "older"), now: 0)
    #expect(!pair.host.peerTakesBatchSignatures)
  }
}
