import GameCore
import Testing
import WireProtocol

@testable import Session

/// The counting a resume stands on, without a session around it.
@Suite struct ResumeLedgerTests {
  static let move = Message.move(ply: 1, position: Position(row: 0, column: 0))

  @Test func onlyCountedMessagesAreNumberedAndTheLastOnesKept() throws {
    var ledger = ResumeLedger(limit: 2)
    for _ in 0..<3 { ledger.sending(Self.move) }
    ledger.sending(.heartbeat)
    ledger.sending(.resumeCheck(game: 1, ply: 0, digest: []))
    #expect(ledger.sent == 3)
    // The peer has the first message: the other two are sent again.
    #expect(try ledger.peerResumes(received: 1, sent: 0).get().count == 2)
  }

  @Test func countsThatCannotBeRightAreRefusedWithTheirReason() {
    var ledger = ResumeLedger(limit: 2)
    for _ in 0..<4 { ledger.sending(Self.move) }
    _ = ledger.receiving(Self.move, endsTheSession: false)
    func refusal(_ received: UInt32, _ sent: UInt32) -> String? {
      var copy = ledger
      if case .failure(let mismatch) = copy.peerResumes(received: received, sent: sent) { return mismatch.text }
      return nil
    }
    #expect(refusal(5, 1) == "a resume claiming 5 messages received when 4 were sent")
    #expect(refusal(1, 1) == "a resume that needs message 1 again, but only the last 2 were kept")
    #expect(refusal(3, 0) == "a resume claiming 0 messages sent when 1 already arrived")
    #expect(refusal(3, 4) == "a resume announcing 3 messages to send again (at most 2)")
    #expect(refusal(3, 3) == nil)
  }

  @Test func duringAResumeANewMessageMustWaitForTheConfirmationButAGoodbyeNeverWaits() throws {
    var ledger = ResumeLedger(limit: 8)
    _ = try ledger.peerResumes(received: 0, sent: 1).get()
    #expect(ledger.isReplaying && !ledger.caughtUp)
    #expect(ledger.receiving(Self.move, endsTheSession: false) == nil)  // the one sent again
    #expect(ledger.caughtUp)
    #expect(ledger.receiving(Self.move, endsTheSession: false) == "a new move before the resume was confirmed")
    #expect(ledger.receiving(.bye(.quit, text: ""), endsTheSession: true) == nil)
    ledger.resumeOver()
    #expect(!ledger.isReplaying && ledger.receiving(Self.move, endsTheSession: false) == nil)
  }
}
