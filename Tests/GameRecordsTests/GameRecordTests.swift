import GameCore
import Testing

@testable import GameRecords

/// Records as SGF: what this program writes, that it reads back the same, and what files from elsewhere give.
@Suite struct GameRecordTests {
  static func position(_ text: String) -> Position { SGFPoint.position(text)! }

  static let won = GameRecord(
    rules: .standard, black: .init(name: "alice"), white: .init(name: "Computer", level: "perfect"),
    date: "2026-12-01", result: .won(.x, .line), moves: ["aa", "ba", "ab", "bb", "ac"].map(position))

  @Test func writesFF4AndReadsItBack() throws {
    let text = Self.won.sgf
    #expect(
      text == """
        (;FF[4]GM[4]CA[UTF-8]AP[tictactoe]SZ[3]PB[alice]PW[Computer]DT[2026-12-01]RE[B+]TTK[3]TTE[line]TTLW[perfect]
        ;B[aa];W[ba];B[ab];W[bb];B[ac])

        """)
    #expect(try GameRecord.parse(text) == Self.won)
    #expect(Self.won.resultProblem == nil)
  }

  @Test func writesARectangularBoardAsColumnsThenRows() throws {
    let rules = try Rules(rows: 4, columns: 7, k: 4)
    let record = GameRecord(
      rules: rules, black: .init(name: "a"), white: .init(name: "b"), date: "2026-12-01",
      result: .won(.o, .resignation), moves: [Position(row: 3, column: 6), Position(row: 0, column: 0)])
    #expect(record.sgf.contains("SZ[7:4]"))
    #expect(record.sgf.contains(";B[gd];W[aa])"))
    #expect(record.sgf.contains("RE[W+R]TTK[4]TTE[resign]"))
    #expect(try GameRecord.parse(record.sgf) == record)
  }

  @Test func namesThatCouldEndAValueAreEscaped() throws {
    var record = Self.won
    record.black.name = "a]b\\c]\u{301}(;W[cc])"
    record.white.publicKey = "MFkw=="
    record.white.signature = "MEUC"
    let back = try GameRecord.parse(record.sgf)
    #expect(back == record)
    #expect(record.sgf.contains("PB[a\\]b\\\\c\\]\u{301}(;W[cc\\])]"))
  }

  /// Each printable ASCII character alone: only `\\` and `]` get a backslash (values without them come back as
  /// they are, the others scalar by scalar: both ways must agree).
  @Test func onlyTheBackslashAndTheClosingBracketAreEscaped() {
    for byte in UInt8(0x20)..<0x7F {
      let character = String(UnicodeScalar(byte))
      let expected = byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "]") ? "\\" + character : character
      #expect(SGFText.escaped("MFkw\(character)==") == "MFkw\(expected)==")
    }
    #expect(SGFText.escaped("\u{E9}]\u{301}") == "\u{E9}\\]\u{301}")
  }

  @Test func everyResultAndReasonSurvivesTheRoundTrip() throws {
    let results: [RecordResult] =
      [.drawn(.full), .drawn(.agreed), .drawn(.dead), .void, .disputed, .unknown]
      + Mark.allCases.flatMap { mark in EndReason.allCases.map { .won(mark, $0) } }
    for result in results {
      var record = Self.won
      record.result = result
      #expect(try GameRecord.parse(record.sgf).result == result, "\(record.sgf)")
    }
  }

  @Test func readsFiveInARowFromOtherProgramsWithFiveByDefault() throws {
    // As other programs write it: no TTK, lower-case long names, comments, a variation, a date range.
    let text = """
      (;FF[3]GaMe[4]SZ[15]PB[Black Player]PW[White]RE[W+]DT[2026-11-30,12-01]C[a comment]
      ;B[hh];W[ih]C[nice];B[hg](;W[ig];B[hf];W[ii];B[he];W[ij];B[ab];W[ik]C[five])(;W[aa]))
      """
    let record = try GameRecord.parse(text)
    #expect(record.rules == (try Rules(size: 15, k: 5)))
    #expect(record.black.name == "Black Player")
    #expect(record.moves.count == 10)
    #expect(record.moves.last == Position(row: 10, column: 8))
    #expect(record.result == .won(.o, .line))
    #expect(record.resultProblem == nil)
  }

  @Test func aSmallBoardWithoutKTakesItsShorterSide() throws {
    let record = try GameRecord.parse("(;GM[4]SZ[3:4];B[aa];W[ba])")
    #expect(record.rules == (try Rules(rows: 4, columns: 3, k: 3)))
    #expect(record.result == .unknown)
  }

  @Test func aResultTheMovesDoNotGiveIsReported() throws {
    var record = Self.won
    record.result = .won(.o, .line)
    #expect(record.resultProblem == "the moves give X a line, but the record says O won with a line")
    record.result = .drawn(.full)
    #expect(record.resultProblem == "the moves give X a line, but the record says a draw")
    record.moves.removeLast()
    record.result = .won(.x, .line)
    #expect(record.resultProblem == "the moves end before the game is over, but the record says X won with a line")
    record.result = .won(.x, .resignation)
    #expect(record.resultProblem == nil)
    record.result = .drawn(.full)
    #expect(record.resultProblem == "the moves end before the game is over, but the record says a draw")
  }

  /// A draw before the board is full is a draw when no line can still be completed (PROTOCOL.md rule 18).
  @Test func aDrawInADeadPositionIsNoProblem() throws {
    let cells = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0)].map {
      Position(row: $0.0, column: $0.1)
    }
    let record = GameRecord(
      rules: .standard, black: .init(name: "a"), white: .init(name: "b"), date: "", result: .drawn(.full), moves: cells)
    #expect(record.resultProblem == nil)
    var alive = record
    alive.moves = Array(cells.prefix(4))
    #expect(alive.resultProblem == "the moves end before the game is over, but the record says a draw")
  }

  /// Files that parse as SGF but are no game this program can replay: line, column and the start of the reason.
  static let refusals: [(String, Int, Int, String)] = [
    ("(;SZ[3])", 1, 2, "the game has no GM property"),
    ("(;GM[1]SZ[19])", 1, 3, "GM[1] is not five in a row"),
    ("(;GM[4])", 1, 2, "the game has no board size"),
    ("(;GM[4]SZ[16])", 1, 8, "SZ[16]: this program plays boards from 3×3 to 15×15"),
    ("(;GM[4]SZ[2:9])", 1, 8, "SZ[2:9]: this program plays"),
    ("(;GM[4]SZ[99999999999999999999])", 1, 8, "SZ[99999999999999999999] is not a board size"),
    ("(;GM[4]SZ[3:3:3])", 1, 8, "SZ[3:3:3] is not a board size"),
    ("(;GM[4]SZ[])", 1, 8, "SZ[] is not a board size"),
    ("(;GM[4]SZ[3]TTK[4])", 1, 13, "the rules are not playable: 4 in a row is out of range"),
    ("(;GM[4]SZ[3]TTK[x])", 1, 13, "TTK[x] is not a number"),
    ("(;GM[4]SZ[3][4])", 1, 8, "SZ has 2 values; it takes one"),
    ("(;GM[4]SZ[3]RE[X+])", 1, 13, "RE[X+] is not a result"),
    ("(;GM[4]SZ[3]RE[B+R]TTE[line])", 1, 20, "TTE[line] does not agree with RE[B+R]"),
    ("(;GM[4]SZ[3]RE[0]TTE[left])", 1, 18, "TTE[left] does not agree with RE[0]"),
    ("(;GM[4]SZ[3]AB[aa])", 1, 13, "AB places stones without moves"),
    ("(;GM[4]SZ[3]\n;B[aa]W[bb])", 2, 2, "one node holds both a black and a white move"),
    ("(;GM[4]SZ[3];W[aa])", 1, 14, "move 1, W[aa], is not legal: it is X's turn"),
    ("(;GM[4]SZ[3];B[aa];B[bb])", 1, 20, "move 2, B[bb], is not legal: it is O's turn"),
    ("(;GM[4]SZ[3];B[aa];W[aa])", 1, 20, "move 2, W[aa], is not legal: row 1, column 1 is already taken by X"),
    ("(;GM[4]SZ[3];B[ad])", 1, 14, "move 1, B[ad], is not legal: row 4, column 1 is off the 3×3 board"),
    ("(;GM[4]SZ[3];B[])", 1, 14, "move 1, B[], is not a point"),
    ("(;GM[4]SZ[3];B[tt])", 1, 14, "move 1, B[tt], is not legal"),
    ("(;GM[4]SZ[3];B[AA])", 1, 14, "move 1, B[AA], is not a point"),
    ("(;GM[4]SZ[3];B[aa][bb])", 1, 14, "move 1, B[aa][bb], is not a point"),
    (
      "(;GM[4]SZ[3];B[aa];W[ba];B[ab];W[bb];B[ac];W[bc])", 1, 44,
      "move 6, W[bc], is not legal: the game is over"
    ),
    ("(;GM[4]SZ[3])(;GM[4]SZ[3])", 1, 14, "the file holds 2 games; one was expected"),
  ]

  @Test(arguments: refusals.indices)
  func refusesWhatIsNoGameWithItsLineAndColumn(index: Int) {
    let (text, line, column, reason) = Self.refusals[index]
    #expect {
      _ = try GameRecord.parse(text)
    } throws: { error in
      guard let error = error as? SGFError else { return false }
      return error.location == SGFLocation(line: line, column: column) && error.reason.hasPrefix(reason)
    }
  }

  @Test func aCollectionGivesEveryGame() throws {
    var second = Self.won
    second.result = .drawn(.full)
    second.moves = []
    let games = try GameRecord.parseCollection(Self.won.sgf + second.sgf)
    #expect(games == [Self.won, second])
  }
}
