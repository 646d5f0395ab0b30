import GameCore
import SessionTestSupport
import Testing
import WireProtocol

@testable import Session

/// Bugs the hello-negotiation fuzzer found (inputs in Tests/WireProtocolTests/FuzzCorpus/hello-negotiation/fixed-*).
@Suite struct FuzzFoundBugsTests {
  private func host(versions: [UInt16] = [1]) -> NetSession {
    var session = NetSession(
      configuration: .init(role: .host, name: "A", software: "t", versions: versions), coinBytes: [0], sha256: testHash,
      now: 0)
    _ = session.start(now: 0)
    return session
  }

  @Test func aClosedSessionSaysNothingMoreAboutAMalformedFrame() {
    var session = host()
    _ = session.receive(.hello(versions: [146], name: "Bob", software: "t"), now: 0)
    #expect(session.phase == .closed(.versionMismatch(ours: [1], theirs: [146])))
    #expect(session.receiveMalformed(.emptyFrame, now: 0).isEmpty)
    #expect(session.phase == .closed(.versionMismatch(ours: [1], theirs: [146])))
  }

  @Test func chatIsCutAtACharacterBoundarySoThePeerAcceptsIt() throws {
    var pair = SessionPair()
    pair.startMatch()
    let text = String(repeating: "a", count: 499) + "é"
    let outputs = try pair.joiner.chat(text, now: 0)
    guard case .send(let message) = outputs.first else {
      Issue.record("nothing sent")
      return
    }
    var decoder = FrameDecoder()
    decoder.feed(message.bytes)
    let decoded = try Message.decode(try #require(try decoder.next()))
    #expect(decoded == .chat(String(repeating: "a", count: 499)))
  }

  @Test func aLongVersionListStillGetsARefusalThePeerCanRead() throws {
    var session = host()
    let versions = (0..<600).map { UInt16($0 * 2 + 3) }  // non-contiguous: described one by one
    let outputs = session.receive(.hello(versions: versions, name: "Bob", software: "t"), now: 0)
    guard case .send(let refusal) = outputs.first else {
      Issue.record("no refusal")
      return
    }
    var decoder = FrameDecoder()
    decoder.feed(refusal.bytes)
    let frame = try #require(try decoder.next())
    guard case .refuse(.versionMismatch, let text) = try Message.decode(frame) else {
      Issue.record("not a version refusal")
      return
    }
    #expect(text.utf8.count <= Message.maximumTextBytes)
    #expect(text.hasPrefix("this host speaks protocol 1; you speak 3, 5, 7"))
  }
}
