import Testing
import TransitRelay
import UntrustedText

/// The relay's side of a connection, pure: the greeting the relay reads and every answer it may give.
@Suite struct RelayAnswerTests {
  static let token = RelayToken(bytes: Array(0..<32))!
  static let side = RelaySide(bytes: [0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 0xff])!

  /// Written out by hand from magic-wormhole's transit protocol: "please relay {64 hex} for side {16 hex}\n".
  @Test func theGreetingIsTheRelaysLine() {
    let expected =
      "please relay 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f for side deadbeef000102ff\n"
    let line = RelayGreeting(token: Self.token, side: Self.side).line
    #expect(line == Array(expected.utf8))
    #expect(line.count == 104)
  }

  @Test func tokensAndSidesHaveTheirSizes() {
    #expect(RelayToken(bytes: Array(repeating: 1, count: 31)) == nil)
    #expect(RelayToken(bytes: Array(repeating: 1, count: 33)) == nil)
    #expect(RelaySide(bytes: Array(repeating: 1, count: 7)) == nil)
    #expect(RelaySide(bytes: Array(repeating: 1, count: 9)) == nil)
    #expect(Self.token.hex.count == 64 && Self.side.hex.count == 16)
  }

  @Test func okGluesAndWhatFollowsItIsKept() {
    var answer = RelayAnswer(now: 100, patience: 30)
    #expect(answer.feed(Array("ok\n".utf8) + [0x16, 0x03, 0x01]) == .glued(leftover: [0x16, 0x03, 0x01]))
    var alone = RelayAnswer(now: 100, patience: 30)
    #expect(alone.feed(Array("ok\n".utf8)) == .glued(leftover: []))
  }

  @Test func okArrivingAByteAtATimeStillGlues() {
    var answer = RelayAnswer(now: 100, patience: 30)
    #expect(answer.feed([0x6f]) == .waiting)
    #expect(answer.feed([0x6b]) == .waiting)
    #expect(answer.feed([0x0a, 0x42]) == .glued(leftover: [0x42]))
    // Glued stays glued: the deadline no longer applies.
    #expect(answer.check(now: 1_000) == .glued(leftover: [0x42]))
  }

  /// The relay's own refusals, and lines that only look like ok.
  @Test(arguments: [
    ("bad handshake\n", "bad handshake"), ("impatient\n", "impatient"), ("OK\n", "OK"), ("ok\r\n", "ok\r"),
    ("no\nok\n", "no"), ("\n", ""),
  ])
  func anyOtherLineIsNamedWithItsWords(sent: String, words: String) {
    var answer = RelayAnswer(now: 100, patience: 30)
    #expect(answer.feed(Array(sent.utf8)) == .failed(.answered(PeerText(words))))
  }

  @Test func aLineTooLongIsSomethingElse() {
    var answer = RelayAnswer(now: 100, patience: 30)
    let long = Array(repeating: UInt8(ascii: "x"), count: RelayAnswer.longestAnswer)
    #expect(answer.feed(long) == .waiting)
    let words = PeerText(String(repeating: "x", count: RelayAnswer.longestAnswer))
    #expect(answer.feed([UInt8(ascii: "y")]) == .failed(.answered(words)))
    // Once failed, more bytes change nothing.
    #expect(answer.feed(Array("ok\n".utf8)) == .failed(.answered(words)))
  }

  @Test func aCloseIsNamedAndKeepsWhatTheRelaySaid() {
    var silent = RelayAnswer(now: 100, patience: 30)
    #expect(silent.ended() == .failed(.closed))
    var halfOk = RelayAnswer(now: 100, patience: 30)
    halfOk.feed([0x6f, 0x6b])
    #expect(halfOk.ended() == .failed(.closed))
    var other = RelayAnswer(now: 100, patience: 30)
    other.feed(Array("bad hand".utf8))
    #expect(other.ended() == .failed(.answered("bad hand")))
  }

  @Test func nobodyCameByTheDeadline() {
    var answer = RelayAnswer(now: 100, patience: 30)
    #expect(answer.deadline == 130)
    #expect(answer.check(now: 129.9) == .waiting)
    #expect(answer.check(now: 130) == .failed(.nobodyCame(seconds: 30)))
    // Words that were no ok, then silence: the words are what went wrong.
    var stalled = RelayAnswer(now: 100, patience: 30)
    stalled.feed(Array("HTTP/1.1 400".utf8))
    #expect(stalled.check(now: 131) == .failed(.answered("HTTP/1.1 400")))
  }

  /// The relay's words can steer no terminal: checked against Unicode's categories, not the sanitiser's list.
  @Test func theRelaysWordsAreShownEscaped() throws {
    var answer = RelayAnswer(now: 100, patience: 30)
    let hostile = "\u{1B}]2;owned\u{07}\u{202E}evil\u{200B}\r\n"
    guard case .failed(let failure) = answer.feed(Array(hostile.utf8)) else {
      Issue.record("accepted \(hostile)")
      return
    }
    let shown = failure.reason(relay: "relay.example:4001")
    let unsafe = shown.unicodeScalars.filter {
      [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
    }
    #expect(unsafe.isEmpty, "\(shown.unicodeScalars.map { String($0.value, radix: 16) })")
    #expect(shown.contains("owned") && shown.contains("relay.example:4001"))
  }

  @Test func everyFailureHasItsCodeReasonAndHint() {
    let failures: [RelayFailure] = [
      .refused, .unreachable(reason: "no route to host"), .closed, .answered("bad handshake"),
      .nobodyCame(seconds: 30),
    ]
    #expect(Set(failures.map(\.code)).count == failures.count)
    for failure in failures {
      #expect(failure.code.hasPrefix("relay."))
      #expect(failure.reason(relay: "192.0.2.9:4001").contains("192.0.2.9:4001"), "\(failure)")
      #expect(!failure.hint.isEmpty)
    }
  }
}
