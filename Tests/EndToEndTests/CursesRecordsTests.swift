import Foundation
import GameRecords
import Testing

/// Records of games played on the full screen, in tmux: written when a game ends, removed when it is taken back,
/// written again when it is finished another way, and not written once the Options screen turns records off.
@Suite(.serialized) struct CursesRecordsTests {
  @Test func aGameTakenBackAndFinishedAgainKeepsOneRecordAndOptionsTurnRecordsOff() throws {
    let environment = try Binary.sandbox().environment
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path); echo EXIT=$?; sleep 30'", environment: environment)
    try tmux.waitFor(text: "Play the computer")
    // The lobby's second item: two players on this keyboard.
    try tmux.send("Down")
    try tmux.send("Enter")
    for digit in ["1", "4", "2", "5"] {
      try tmux.waitFor(text: "to move")
      try tmux.send(digit)
    }
    try tmux.send("3")
    try tmux.waitFor(text: "X (P1) wins!")
    #expect(try waitForRecords(environment, count: 1).first?.result == .won(.x, .line))
    // Take back X's winning move: the game was not played that way, so its record goes (issue 29 item 6) and
    // `games` no longer lists it; then O wins instead, and that game is recorded.
    try tmux.send("u")
    try tmux.waitFor(text: "X to move")
    #expect(try waitForRecords(environment, count: 0).isEmpty, "the undone game is still recorded")
    #expect(try Binary.run(["games"], environment: environment).stdout == "No games saved yet.\n")
    for digit in ["7", "6"] {
      try tmux.waitFor(text: "to move")
      try tmux.send(digit)
    }
    try tmux.waitFor(text: "O (P2) wins!")
    let replaced = try waitForRecords(environment, count: 1) { $0.first?.result == .won(.o, .line) }
    #expect(replaced.first?.moves.count == 6)
    // Options: turn records off; a new game then leaves none.
    try tmux.send("q")
    try tmux.waitFor(text: "Options")
    // From "Two players on this keyboard", where the lobby kept the selection: three down is Options.
    for _ in 0..<3 { try tmux.send("Down") }
    try tmux.send("Enter")
    try tmux.waitFor(text: "Keep records")
    for _ in 0..<5 { try tmux.send("Down") }  // past Your name
    try tmux.send("Right")
    try tmux.waitFor(text: "Keep records    < no >")
    try tmux.send("Escape")
    try tmux.waitFor(text: "Play the computer")
    // Back on Options: three up is "Two players on this keyboard".
    for _ in 0..<3 { try tmux.send("Up") }
    try tmux.send("Enter")
    for digit in ["1", "4", "2", "5"] {
      try tmux.waitFor(text: "to move")
      try tmux.send(digit)
    }
    try tmux.send("3")
    // The score outlived the lobby, so this is the match's second game: P2 is X now.
    try tmux.waitFor(text: "X (P2) wins!")
    try tmux.send("q")
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=0")
    #expect(try waitForRecords(environment, count: 1).count == 1, "a record was written with records off")
    let settings = try String(
      contentsOfFile: try #require(environment["XDG_CONFIG_HOME"]) + "/tictactoe/settings.conf", encoding: .utf8)
    #expect(settings.contains("records = off"))
  }

  /// The records in the sandbox once there are `count` of them that satisfy `condition` (or after 10 s).
  private func waitForRecords(
    _ environment: [String: String], count: Int, _ condition: ([GameRecord]) -> Bool = { _ in true }
  ) throws -> [GameRecord] {
    let deadline = Date().addingTimeInterval(10)
    var records: [GameRecord] = []
    repeat {
      let files = try RecordsEndToEndTests.records(environment)
      records = files.compactMap { try? GameRecord.parse($0.text) }
      if records.count == count && condition(records) { return records }
      usleep(20_000)
    } while Date() < deadline
    return records
  }
}
