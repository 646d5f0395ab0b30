import GameCore
import GameRecords
import Testing

@testable import TerminalUI

/// Stepping through a record: the keys, the positions shown, the labels, and names made safe for the terminal.
@Suite struct ReplayTests {
  static let record = try! GameRecord.parse(
    "(;GM[4]SZ[3]PB[al\u{1B}\\]2;ice]PW[Computer]TTLW[perfect]DT[2026-12-01]RE[B+]TTK[3];B[aa];W[ba];B[ab];W[bb];B[ac])"
  )

  @Test func keysStepBackAndOnAndJumpToEitherEnd() {
    var replay = Replay(record: Self.record)
    #expect(replay.shown == 0 && replay.game.history.isEmpty)
    var going = replay.handle(.left)
    #expect(going && replay.shown == 0)
    for key in [Key.right, .right] { going = replay.handle(key) }
    #expect(going && replay.shown == 2)
    #expect(replay.game.board[Position(row: 0, column: 1)] == .o)
    going = replay.handle(.end)
    #expect(going && replay.shown == 5 && replay.game.outcome?.winner == .x)
    _ = replay.handle(.right)
    #expect(replay.shown == 5)
    _ = replay.handle(.left)
    #expect(replay.shown == 4 && replay.game.outcome == nil)
    _ = replay.handle(.home)
    #expect(replay.shown == 0)
    going = replay.handle(.character("q"))
    #expect(!going)
  }

  @Test func labelsAreColumnsFromTheLeftAndRowsFromTheBottom() throws {
    let big = try Rules(size: 15, k: 5)
    #expect(Replay.label(Position(row: 7, column: 7), big) == "h8")
    #expect(Replay.label(Position(row: 14, column: 0), big) == "a1")
    #expect(Replay.label(Position(row: 0, column: 0), .standard) == "a3")
  }

  @Test func plainModePrintsEveryPositionUnderItsMove() {
    let text = Replay(record: Self.record).plainText
    #expect(
      text.hasPrefix("al\\x1B]2;ice (X) vs Computer, perfect (O)\n3×3, 3 in a row · 2026-12-01 · X won with a line\n"))
    #expect(text.contains("start:\n3 . . .\n2 . . .\n1 . . .\n  a b c\n"))
    #expect(text.contains("move 2. O b3:\n3 X O .\n2 . . .\n1 . . .\n  a b c\n"))
    #expect(text.hasSuffix("move 5. X a1:\n3 X O .\n2 X O .\n1 X . .\n  a b c\n\nresult: X won with a line\n"))
    #expect(!text.contains("\u{1B}"))
  }

  @Test func theScreenShowsTheBoardTheMoveListAndTheKeys() {
    var replay = Replay(record: Self.record)
    _ = replay.handle(.right)
    _ = replay.handle(.right)
    let screen = ReplayView.render(replay, width: 60, height: 16, glyphs: .unicode)
    let lines = screen.lines
    #expect(lines[0].hasPrefix("Replay: al\\x1B]2;ice (X) vs Computer, perfect (O)"))
    // The board as the game view draws it: boxed, the move shown underlined like the game's last move.
    #expect(lines[3].hasPrefix(" ┌───┬───┬───┐") && lines[3].contains("Move 2 of 5"), "\(lines[3])")
    #expect(lines[4].hasPrefix(" │ X │ O │   │"))
    #expect(lines[4].contains("1. X a3") && lines[5].contains("2. O b3") && lines[7].contains("4. O b2"))
    #expect(lines[15].hasPrefix("←→ a move  Home End start, end  q quit"))
    #expect(!lines[14].contains("Result"))
    let (x, o) = (screen[4, 3], screen[4, 7])
    #expect(o.character == "O" && o.style.underline && o.style.bold && o.style.color == .oMark)
    #expect(x.character == "X" && !x.style.underline && x.style.bold && x.style.color == .xMark)
    // The move shown is reversed in the list.
    let row5 = lines[5]
    let listColumn = row5.distance(from: row5.startIndex, to: row5.firstRange(of: "2. O b3")!.lowerBound)
    #expect(screen[5, listColumn].style.reverse)
    _ = replay.handle(.end)
    let end = ReplayView.render(replay, width: 60, height: 16, glyphs: .unicode)
    #expect(end.lines[14] == "Result: X won with a line")
    // The winning line as the game view marks it (a1, a2, a3: the left column).
    for row in [4, 6, 8] {
      #expect(
        end[row, 3].character == "X" && end[row, 3].style == Style(bold: true, underline: true, color: .winningLine))
    }
  }

  @Test func aScreenTooSmallSaysWhatItNeeds() {
    let screen = ReplayView.render(Replay(record: Self.record), width: 26, height: 7, glyphs: .ascii)
    #expect(screen.lines[0].hasPrefix("The screen is too small"))
    #expect(screen.lines[1].hasPrefix("it needs 27x8; q quits."), "\(screen.lines[1])")
  }
}
