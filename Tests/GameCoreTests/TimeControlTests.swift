import GameCore
import Testing

/// `--clock`'s grammar (PROTOCOL.md, "The terms"): what each form means in milliseconds, that it reads back, and
/// a refusal that names the part at fault.
@Suite struct TimeControlTests {
  @Test(arguments: [
    ("5+3", TimeControl.fischer(base: 300_000, increment: 3_000)),
    ("30s+2", .fischer(base: 30_000, increment: 2_000)),
    ("10s+0", .fischer(base: 10_000, increment: 0)),
    ("1.5+0.25", .fischer(base: 90_000, increment: 250)),
    ("0.5s+0", .fischer(base: 500, increment: 0)),
    ("1440+0", .fischer(base: 86_400_000, increment: 0)),
    ("move:20s", .perMove(20_000)),
    ("move:20", .perMove(20_000)),
    ("move:0.125s", .perMove(125)),
    ("none", TimeControl.none),
    (" 5+3 ", .fischer(base: 300_000, increment: 3_000)),
  ])
  func readsTheGrammar(text: String, control: TimeControl) throws {
    #expect(try TimeControl(parsing: text) == control)
    #expect(try TimeControl(parsing: control.description) == control, "\(control) reads back")
  }

  @Test func writesTheShortestForm() {
    #expect(TimeControl.fischer(base: 300_000, increment: 3_000).description == "5+3")
    #expect(TimeControl.fischer(base: 30_000, increment: 2_000).description == "30s+2")
    #expect(TimeControl.fischer(base: 90_500, increment: 250).description == "90.5s+0.25")
    #expect(TimeControl.perMove(20_000).description == "move:20s")
    #expect(TimeControl.none.description == "none")
  }

  @Test(arguments: [
    ("", TimeControlError.notAClock("")),
    ("5", .notAClock("5")),
    ("5+3+1", .notAClock("5+3+1")),
    ("blitz", .notAClock("blitz")),
    ("x+3", .badNumber("x", .base)),
    ("5+", .badNumber("", .increment)),
    ("+3", .badNumber("", .base)),
    ("5m+3", .badNumber("5m", .base)),
    ("5+3m", .badNumber("3m", .increment)),
    ("-5+3", .badNumber("-5", .base)),
    ("5.+3", .badNumber("5.", .base)),
    ("5+0.0001", .badNumber("0.0001", .increment)),
    ("0+3", .zero(.base)),
    ("0s+3", .zero(.base)),
    ("move:0s", .zero(.perMove)),
    ("move:", .badNumber("", .perMove)),
    ("move:2x", .badNumber("2x", .perMove)),
    ("1441+0", .tooLong(.base)),
    ("5+86401", .tooLong(.increment)),
    ("move:86401s", .tooLong(.perMove)),
    ("9999999+0", .badNumber("9999999", .base)),
  ])
  func refusesWithThePartAtFault(text: String, error: TimeControlError) {
    #expect(throws: error) { try TimeControl(parsing: text) }
  }

  @Test func theErrorSaysWhatToWrite() {
    let error = TimeControlError.badNumber("5m", .base)
    #expect(error.code == "clock.bad-number")
    #expect(
      error.description
        == "the base time \"5m\" is not a number: write BASE+INC (5+3: 5 minutes and 3 seconds a move; 30s+2: 30 seconds and 2), move:20s, or none"
    )
    #expect(
      TimeControlError.zero(.perMove).description
        == "the time per move is 0: give it some time, or use none for an untimed game")
  }

  @Test func checkedRefusesWhatTheParserWould() throws {
    #expect(throws: TimeControlError.zero(.base)) { try TimeControl.checked(.fischer(base: 0, increment: 1)) }
    #expect(throws: TimeControlError.tooLong(.increment)) {
      try TimeControl.checked(.fischer(base: 1, increment: 86_400_001))
    }
    #expect(throws: TimeControlError.tooLong(.increment)) { try TimeControl.checked(.fischer(base: 1, increment: -1)) }
    #expect(throws: TimeControlError.zero(.perMove)) { try TimeControl.checked(.perMove(0)) }
    #expect(try TimeControl.checked(.perMove(86_400_000)) == .perMove(86_400_000))
  }

  @Test func spokenAndOnTheClockFace() throws {
    #expect(try TimeControl(parsing: "5+3").spoken == "5 min + 3 s a move")
    #expect(try TimeControl(parsing: "30s+2").spoken == "30 s + 2 s a move")
    #expect(try TimeControl(parsing: "10+0").spoken == "10 min a game")
    #expect(try TimeControl(parsing: "move:20s").spoken == "20 s a move")
    #expect(TimeControl.none.spoken == "no clock")
    #expect(TimeControl.face(0) == "0:00")
    #expect(TimeControl.face(9_999) == "0:09")
    #expect(TimeControl.face(-5) == "0:00")
    #expect(TimeControl.face(725_000) == "12:05")
    #expect(TimeControl.face(3_723_000) == "1:02:03")
  }
}
