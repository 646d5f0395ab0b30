import Foundation
import TestSupport
import Testing

/// The plain line mode through pipes, as a script or a screen reader uses it.
@Suite struct PlainModeTests {
  /// Every cell number in order: a move on a taken cell is answered with "error:" and the next line is tried,
  /// so this finishes any game on the board.
  private func everyCell(_ count: Int) -> String { (1...count).map(String.init).joined(separator: "\n") + "\n" }

  @Test(arguments: ["easy", "normal", "perfect"])
  func aWholeGameAgainstEachLevel(level: String) throws {
    let result = try Binary.run(["play", "--ui", "plain", "--ai", level], input: everyCell(9))
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let results = lines.filter { $0.hasPrefix("result: ") }
    #expect(results.count == 1)
    #expect(["result: X wins", "result: O wins", "result: draw"].contains(results.first ?? ""))
    if level == "perfect" { #expect(results.first != "result: X wins", "the perfect AI lost") }
    #expect(result.stdout.contains("computer plays "))
  }

  /// A terminal that cannot draw the full screen gets plain mode with a note, where curses' initscr would exit
  /// with "Error opening terminal".
  @Test(arguments: [
    ("dumb", "the terminal type \"dumb\" cannot move the cursor"),
    ("no-such-terminal", "the terminal type \"no-such-terminal\" is not known to terminfo"),
  ])
  func aTerminalThatCannotDrawTheScreenGetsPlainMode(term: String, note: String) throws {
    var home = try Binary.sandbox()
    home.environment["TERM"] = term
    let result = try Binary.run(["play", "--ai", "easy"], input: everyCell(9), environment: home.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "tictactoe: \(note): playing line by line, as with --ui plain\n")
    #expect(result.stdout.contains("your move (X): "))
    #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("result: ") })
    #expect(!result.stdout.contains("\u{1B}"), "no escape sequences were sent to the terminal")
  }

  @Test func hotseatGameIsDecidedByTheInput() throws {
    // X takes 1, 3, 5, 7 and wins on the anti-diagonal 3-5-7; O takes 2, 4, 6.
    let result = try Binary.run(["play", "--ui", "plain", "--hotseat"], input: everyCell(9))
    #expect(result.status == 0)
    #expect(result.stdout.hasSuffix("result: X wins\n"))
    #expect(result.stdout.contains(" X | O | X\n---+---+---\n O | X | O\n---+---+---\n X | 8 | 9\n"))
  }

  @Test func rowColumnInputAndBadInput() throws {
    let input = "foo\n0\n10\n2,\n4,4\n2,2\n2 2\n1,1\n3,3\n1,2\n1,3\n"
    let result = try Binary.run(["play", "--ui", "plain", "--hotseat"], input: input)
    let errors = result.stdout.split(separator: "\n").filter { $0.contains("error: ") }
    #expect(errors.count == 6, "\(result.stdout)")
    #expect(result.stdout.contains("error: there is no cell 10; cells are numbered 1-9"))
    #expect(result.stdout.contains("error: there is no 4,4 on this 3×3 board (a1-c3)"))
    #expect(result.stdout.contains("error: row 2, column 2 is already taken by X"))
    // X: 2,2 then 3,3... O: 1,1 then 1,2; X: 1,3; no line yet, so the input runs out.
    #expect(result.status == 1)
    #expect(result.stderr.contains("input ended before the game finished"))
  }

  @Test func biggerBoardsWorkInPlainMode() throws {
    let result = try Binary.run(
      ["play", "--ui", "plain", "--ai", "perfect", "--size", "4", "--k", "3", "--first", "them"],
      input: everyCell(16))
    #expect(result.status == 0)
    #expect(result.stdout.contains("You play O against the computer (perfect)"))
    // 4×4 with 3 in a row is a win for the first player, and the perfect AI moves first here.
    #expect(result.stdout.hasSuffix("result: X wins\n"))
  }

  /// A 15×15 game typed in gomoku notation (mixed with a cell number and row,col): every line fits 80 columns.
  @Test func aFifteenByFifteenGameInNotationFitsEightyColumns() throws {
    // X: d8, e8, f8, g8 (as cell 112), h8 (as 8,8 from the top: row 8 is the middle either way); O: a1-d1.
    let input = "d8\na1\ne8\nb1\nF8\nc1\n112\nd1\n8,8\n"
    let result = try Binary.run(["play", "--ui", "plain", "--hotseat", "--size", "15", "--k", "5"], input: input)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix(" 1 O O O O . . . . . . . . . . .\nresult: X wins\n"), "\(result.stdout)")
    #expect(result.stdout.contains(" 8 . . . X X X X X . . . . . . .\n"))
    #expect(result.stdout.contains("   a b c d e f g h i j k l m n o\n"))
    let widest = result.stdout.split(separator: "\n").map(\.count).max() ?? 0
    #expect(widest <= 80, "\(result.stdout)")
  }

  @Test func promptsArriveBeforeInputIsGiven() throws {
    // A screen reader or script needs the prompt without waiting for more output: read it before answering.
    let player = try ChildProcess(
      Binary.path, ["play", "--ui", "plain", "--hotseat"], environment: try Binary.sandbox().environment,
      input: .writer, output: .capture)
    #expect(player.waitForOutput { $0.hasSuffix("X to move: ") }, "\(player.text)")
    let before = player.captured.count
    player.send("5\n")
    #expect(player.waitForOutput { $0.hasSuffix("O to move: ") && $0.utf8.count > before }, "\(player.text)")
    let seen = String(decoding: player.captured[before...], as: UTF8.self)
    #expect(seen.contains(" 4 | X | 6"))
    #expect(seen.hasSuffix("O to move: "))
  }

  /// Standard input redirected from a file (`< moves.txt`) or from /dev/null, which epoll cannot watch: the
  /// game reads it all the same, to the end (it used to wait for ever).
  @Test func movesReadFromAFileOrNothingFromDevNull() throws {
    let home = try Binary.sandbox()
    let moves = home.root + "/moves.txt"
    try everyCell(9).write(toFile: moves, atomically: true, encoding: .utf8)
    let game = try ChildProcess(
      Binary.path, ["play", "--ui", "plain", "--hotseat"], environment: home.environment, input: .file(moves),
      output: .capture)
    #expect(game.wait(timeout: 30) == 0, "\(game.text)")
    #expect(game.text.hasSuffix("result: X wins\n"), "\(game.text)")
    let nothing = try ChildProcess(
      Binary.path, ["play", "--ui", "plain", "--hotseat"], environment: home.environment, input: .null,
      output: .capture, errors: .withOutput)
    #expect(nothing.wait(timeout: 30) == 1, "\(nothing.text)")
    #expect(nothing.text.contains("input ended before the game finished"), "\(nothing.text)")
  }

  /// A local game ends by a signal like every front end, on the loop: it is logged, and the status is
  /// 128 + the signal.
  @Test func aSignalEndsALocalPlainGameWithItsStatus() throws {
    let home = try Binary.sandbox()
    let game = try ChildProcess(
      Binary.path, ["play", "--ui", "plain", "--hotseat"], environment: home.environment, input: .writer,
      output: .capture)
    #expect(game.waitForOutput { $0.hasSuffix("X to move: ") }, "\(game.text)")
    kill(game.pid, SIGTERM)
    #expect(game.wait(timeout: 30) == 128 + SIGTERM, "\(game.text)")
    let log = (try? String(contentsOfFile: home.root + "/state/tictactoe/tictactoe.log", encoding: .utf8)) ?? ""
    #expect(log.contains("plain game ended by signal \(SIGTERM)"), "\(log)")
  }
}
