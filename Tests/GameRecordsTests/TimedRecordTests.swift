import GameCore
import Testing

@testable import GameRecords

/// Version 3's records: the time control (TM, OT), each move's times (BL/WL, TTQ), the ends it adds (+T on time,
/// +F for an abandonment, Void, a disputed flag, draws by agreement and dead positions) and version 2 of the
/// signed bytes, which signs them.
@Suite struct TimedRecordTests {
  static func position(_ text: String) -> Position { SGFPoint.position(text)! }

  /// Five moves of a 10-second game (10s+0): the first two free, then charges the echo settled.
  static let timed: GameRecord = {
    var record = GameRecord(
      rules: .standard, black: .init(name: "alice", publicKey: "QUxJQ0U="),
      white: .init(name: "bob", publicKey: "Qk9C"), date: "2026-12-02", result: .won(.o, .time),
      moves: ["aa", "ba", "ab", "bb", "cc"].map(position))
    record.timeControl = .fischer(base: 10_000, increment: 0)
    record.times = [
      MoveTime(charged: 0, left: 10_000), MoveTime(charged: 0, left: 10_000), MoveTime(charged: 1_250, left: 8_750),
      MoveTime(charged: 3_001, left: 6_999), MoveTime(charged: 8_000, left: 750),
    ]
    record.flag = FlagClaim(claimant: .o, timeLeft: 6_999, observed: 8_012, thinking: 7_500)
    record.signedVersion = 2
    return record
  }()

  @Test func aTimedGameIsWrittenWithTMOTAndEachMovesTimesAndReadsBack() throws {
    let text = Self.timed.sgf
    #expect(
      text == """
        (;FF[4]GM[4]CA[UTF-8]AP[tictactoe]SZ[3]PB[alice]PW[bob]DT[2026-12-02]RE[W+T]TTK[3]TTE[time]TM[10]\
        OT[0 fischer]TTF[W 6.999 8.012 7.5]TTSV[2]TTPB[QUxJQ0U=]TTPW[Qk9C]
        ;B[aa]BL[10]TTQ[0];W[ba]WL[10]TTQ[0];B[ab]BL[8.75]TTQ[1.25];W[bb]WL[6.999]TTQ[3.001];B[cc]BL[0.75]TTQ[8])

        """)
    #expect(try GameRecord.parse(text) == Self.timed)
    #expect(Self.timed.timesProblem == nil)
  }

  @Test(arguments: [
    (TimeControl.fischer(base: 300_000, increment: 3_000), "TM[300]OT[3 fischer]"),
    (.fischer(base: 30_500, increment: 0), "TM[30.5]OT[0 fischer]"),
    (.perMove(20_000), "TM[0]OT[20 simple]"),
  ])
  func theTimeControlIsTMAndOT(control: TimeControl, written: String) throws {
    var record = Self.timed
    record.timeControl = control
    record.times = []
    #expect(record.sgf.contains(written))
    #expect(try GameRecord.parse(record.sgf).timeControl == control)
  }

  @Test func otherProgramsTimeControlsAreReadWhenThisProgramPlaysThem() throws {
    func control(_ properties: String) throws -> TimeControl {
      try GameRecord.parse("(;GM[4]SZ[15]\(properties);B[hh]BL[599.5];W[hg]WL[600])").timeControl
    }
    #expect(try control("TM[600]") == .fischer(base: 600_000, increment: 0))
    #expect(try control("TM[600]OT[10 Fischer]") == .fischer(base: 600_000, increment: 10_000))
    // Byo-yomi is not a control this program plays: no time control, and the times are dropped.
    #expect(try control("TM[600]OT[5x30 byo-yomi]") == .none)
    // BL/WL without TTQ: no charges, so no times.
    #expect(try GameRecord.parse("(;GM[4]SZ[15]TM[600];B[hh]BL[599.5];W[hg]WL[600])").times.isEmpty)
    #expect(throws: SGFError.self) { try GameRecord.parse("(;GM[4]SZ[15]TM[600];B[hh]BL[soon]TTQ[1])") }
  }

  /// The fuzz corpus's timed game (FuzzCorpus/timed-game): spaces and extra decimals are read, to the millisecond.
  @Test func looseSpacingAndDecimalsAreReadToTheMillisecond() throws {
    let text = """
      (;FF[4]GM[4]SZ[15]PB[a]PW[b]RE[W+Time]TM[ 60.0005 ]OT[1.5 Fischer]TTF[W  59.999 61 0.0001]TTSV[2]
      ;B[hh]BL[60]TTQ[0];W[hg]WL[60.0]TTQ[0];B[ii]BL[1.2345]TTQ[60.2655];W[aa]WL[60.5]TTQ[1])
      """
    let record = try GameRecord.parse(text)
    #expect(record.timeControl == .fischer(base: 60_000, increment: 1_500) && record.result == .won(.o, .time))
    #expect(record.times.map(\.left) == [60_000, 60_000, 1_234, 60_500])
    #expect(record.times.map(\.charged) == [0, 0, 60_265, 1_000])
    #expect(record.flag == FlagClaim(claimant: .o, timeLeft: 59_999, observed: 61_000, thinking: 0))
    #expect(record.signedVersion == 2)
  }

  @Test(arguments: [
    (RecordResult.won(.x, .time), "RE[B+T]TTK[3]TTE[time]"), (.won(.o, .claim), "RE[W+F]TTK[3]TTE[claim]"),
    (.void, "RE[Void]TTK[3]TTE[aborted]"), (.disputed, "RE[?]TTK[3]TTE[disputed]"),
    (.drawn(.agreed), "RE[0]TTK[3]TTE[agreed]"),
    (.drawn(.dead), "RE[0]TTK[3]TTE[dead]"), (.drawn(.full), "RE[0]TTK[3]TTE[full]"),
  ])
  func versionThreesEndsAreWrittenAsSGFReadersExpect(result: RecordResult, written: String) throws {
    var record = Self.timed
    record.result = result
    #expect(record.sgf.contains(written), "\(record.sgf)")
    #expect(try GameRecord.parse(record.sgf).result == result)
  }

  /// Before version 2, an abandonment claimed after the grace period was written B+T with TTE[claim]: it is
  /// still read as one, and its signed bytes (version 1) still say B+T, so it still verifies. B+T from elsewhere
  /// is a loss on time.
  @Test func olderRecordsOfAnAbandonmentAreReadAsTheyWereMeant() throws {
    let old = "(;FF[4]GM[4]SZ[3]RE[W+T]TTK[3]TTE[claim]TTPB[QQ==]TTPW[Qg==];B[aa];W[bb])"
    let record = try GameRecord.parse(old)
    #expect(record.result == .won(.o, .claim) && record.signedVersion == 1)
    #expect(String(decoding: record.signedBytes, as: UTF8.self).hasSuffix("result W+T\n"))
    #expect(record.sgf.contains("RE[W+F]TTK[3]TTE[claim]"))
    #expect(try GameRecord.parse("(;GM[4]SZ[3]RE[W+T];B[aa];W[bb])").result == .won(.o, .time))
    #expect(throws: SGFError.self) { try GameRecord.parse("(;GM[4]SZ[3]RE[W+R]TTE[claim];B[aa];W[bb])") }
    #expect(throws: SGFError.self) { try GameRecord.parse("(;GM[4]SZ[3]RE[W+T]TTE[disputed];B[aa];W[bb])") }
  }

  @Test func versionTwoOfTheSignedBytesIsTheDocumentedLines() {
    let expected = """
      tictactoe game record signature v2
      rules 3 3 3
      clock fischer 10000 0
      black QUxJQ0U=
      white Qk9C
      date 2026-12-02
      moves aa ba ab bb cc
      times 0/10000 0/10000 1250/8750 3001/6999 8000/750
      result W+T
      end time
      flag W 6999 8012 7500

      """
    #expect(String(decoding: Self.timed.signedBytes, as: UTF8.self) == expected)
    var untimed = Self.timed
    untimed.timeControl = .none
    untimed.times = []
    untimed.flag = nil
    untimed.result = .void
    untimed.moves = []
    #expect(
      String(decoding: untimed.signedBytes, as: UTF8.self)
        == "tictactoe game record signature v2\nrules 3 3 3\nclock none\nblack QUxJQ0U=\nwhite Qk9C\n"
        + "date 2026-12-02\nmoves\ntimes\nresult Void\nend aborted\nflag\n")
  }

  /// Every signed part changes the bytes: a signature over one record cannot pass for a record with other times.
  @Test func eachTimeAndTheTermsAreSigned() {
    let bytes = Self.timed.signedBytes
    var changes: [GameRecord] = []
    for index in Self.timed.times.indices {
      var charged = Self.timed
      charged.times[index].charged += 1
      var left = Self.timed
      left.times[index].left += 1
      changes += [charged, left]
    }
    var control = Self.timed
    control.timeControl = .fischer(base: 10_000, increment: 1)
    var flag = Self.timed
    flag.flag?.thinking = 9_000
    var end = Self.timed
    end.result = .won(.o, .left)
    changes += [control, flag, end]
    for changed in changes { #expect(changed.signedBytes != bytes) }
  }

  @Test func timesThatCannotBeAGamesAreNamed() {
    var missing = Self.timed
    missing.times.removeLast()
    #expect(missing.timesProblem == "4 moves carry times, but the game has 5 moves")
    var chargedFirst = Self.timed
    chargedFirst.times[1].charged = 5
    #expect(chargedFirst.timesProblem == "move 2 is charged, but each side's first move is free")
    var perMove = Self.timed
    perMove.timeControl = .perMove(10_000)
    perMove.times[4].left = 3_000
    #expect(perMove.timesProblem == "move 5 leaves 3000 ms of 10000 ms after a charge of 8000 ms")
    var untimed = Self.timed
    untimed.timeControl = .none
    #expect(untimed.timesProblem == "times without a time control")
  }

  @Test func aDrawByAgreementMayComeAnyTimeButADeadPositionMustBeDead() {
    var record = Self.timed
    record.moves = ["aa", "bb"].map(Self.position)
    record.times = []
    record.result = .drawn(.agreed)
    #expect(record.resultProblem == nil)
    record.result = .drawn(.dead)
    #expect(record.resultProblem?.contains("no line of 3 is dead yet") == true)
  }

  @Test func secondsAreWrittenAndReadToTheMillisecond() {
    for (milliseconds, text) in [(0, "0"), (1, "0.001"), (1_250, "1.25"), (600_000, "600"), (59_999, "59.999")] {
      #expect(SGFSeconds.text(milliseconds) == text)
      #expect(SGFSeconds.milliseconds(text) == milliseconds)
    }
    #expect(SGFSeconds.milliseconds("1.2345") == 1_234)
    for junk in ["", ".5", "1.", "-1", "1e3", "1.2.3", "999999999"] { #expect(SGFSeconds.milliseconds(junk) == nil) }
  }
}
