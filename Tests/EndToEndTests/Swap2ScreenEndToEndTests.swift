import Foundation
import Testing

/// Swap2 on the full screen through the real binary in tmux at 80×24: a game against the computer played through
/// the opening (the player's three stones, the computer's answer, a choice if it is left to the player) to moves
/// after it, and the Options row saved to settings.conf, read back by the next run and played from the lobby.
@Suite(.serialized) struct Swap2ScreenEndToEndTests {
  /// Moves the cursor to `cell` with the go-to field and places there.
  private func place(_ tmux: TmuxSession, _ cell: String) throws {
    try tmux.send("g")
    try tmux.waitFor(text: "Go to")
    try tmux.send(cell)
    try tmux.send("Enter")
    try tmux.send("Enter")
  }

  @Test func aSwap2OpeningAgainstTheComputerGoesOnToMoves() throws {
    let home = try Binary.sandbox().environment
    let tmux = try TmuxSession(
      command:
        "sh -c '\(Binary.path) play --ai normal --size 15 --opening swap2 --first me; echo EXIT=$?; sleep 30'",
      environment: home)
    var screen = try tmux.waitFor(text: "Swap2, you: place stone 1 of 3 (X)")
    #expect(screen.contains("Swap2 against the computer (normal): you are the first player"), "\(screen)")
    #expect(screen.contains("The first player places 3 stones (X, O, X); the second then chooses a colour."))
    try place(tmux, "h8")
    try tmux.waitFor(text: "Swap2, you: place stone 2 of 3 (O)")
    try place(tmux, "j8")
    try tmux.waitFor(text: "Swap2, you: place stone 3 of 3 (X)")
    try place(tmux, "h9")
    // The computer answers in about a move's time: it takes a colour, or places two more and leaves the choice.
    screen = try tmux.waitFor("the computer's answer") {
      $0.contains("Your turn") || $0.contains("Swap2, you: choose b take X, o take O")
    }
    if screen.contains("Swap2, you: choose") {
      #expect(screen.contains("The computer chose to place 2 more and placed "), "\(screen)")
      #expect(screen.contains("b take X | o take O") || screen.contains("b take X · o take O"), "\(screen)")
      try tmux.send("o")
      screen = try tmux.waitFor(text: "You took O. Your turn (O)")
    } else {
      #expect(screen.contains("The computer took "), "\(screen)")
    }
    #expect(screen.contains("You play "), "the colours are settled: \(screen)")
    // A move after the opening, and the computer's reply to it.
    #expect(!screen.contains("The computer plays"))
    try place(tmux, "a1")
    screen = try tmux.waitFor("the computer's reply") { $0.contains("The computer plays") && $0.contains("Your turn") }
    #expect(screen.contains(" X ") && screen.contains(" O "), "\(screen)")
    try tmux.send("q")
    try tmux.waitFor(text: "Leave this game?")
    try tmux.send("y")
    try tmux.waitFor(text: "EXIT=0")
  }

  @Test func theOptionsRowIsSavedReadBackAndPlayedFromTheLobby() throws {
    let home = try Binary.sandbox().environment
    var tmux = try TmuxSession(command: "sh -c '\(Binary.path); echo EXIT=$?; sleep 30'", environment: home)
    try tmux.waitFor(text: "Play the computer")
    for _ in 0..<4 { try tmux.send("Down") }
    try tmux.send("Enter")
    var screen = try tmux.waitFor(text: "Opening")
    #expect(screen.contains("< standard (swap2: k 5, 9×9 up) >"), "offered only where it is played: \(screen)")
    for _ in 0..<6 { try tmux.send("Right") }  // 3×3 to 9×9, which brings five in a row
    try tmux.waitFor(text: "< 9×9 >")
    for _ in 0..<9 { try tmux.send("Down") }
    try tmux.send("Right")
    screen = try tmux.waitFor("the Opening row at swap2") { Self.row("Opening", in: $0)?.contains("< swap2 >") == true }
    try tmux.send("Escape")
    try tmux.waitFor(text: "9×9, 5 in a row, Swap2")
    let file = try #require(home["XDG_CONFIG_HOME"]) + "/tictactoe/settings.conf"
    let saved = try String(contentsOfFile: file, encoding: .utf8)
    #expect(saved.contains("\nopening = swap2\n") && saved.contains("size = 9\n"), "\(saved)")
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=0")
    // The next run reads it back: the lobby says so, Options shows it, and a game opens with Swap2.
    tmux = try TmuxSession(command: "sh -c '\(Binary.path); echo EXIT=$?; sleep 30'", environment: home)
    try tmux.waitFor(text: "9×9, 5 in a row, Swap2")
    for _ in 0..<4 { try tmux.send("Down") }
    try tmux.send("Enter")
    try tmux.waitFor("the Opening row read back") { Self.row("Opening", in: $0)?.contains("< swap2 >") == true }
    try tmux.send("Escape")
    try tmux.waitFor(text: "Play the computer")
    for _ in 0..<3 { try tmux.send("Up") }  // from Options to "Two players on this keyboard"
    try tmux.send("Enter")
    screen = try tmux.waitFor(text: "Swap2, P1: place stone 1 of 3 (X)")
    #expect(screen.contains("Swap2 at one keyboard: P1 is the first player and places 3 stones"), "\(screen)")
    // A game to its end: P2 takes O, X (P1) makes five; its record keeps the opening. (No "f5": tmux sends
    // that as the F5 key.)
    for cell in ["e5", "d5", "e6"] { try place(tmux, cell) }
    try tmux.waitFor(text: "Swap2, P2: choose b take X, o take O, p place 2 more")
    try tmux.send("o")
    try tmux.waitFor(text: "P2 took O. O to move (P2)")
    for cell in ["a1", "e7", "a2", "e8", "a3", "e9"] { try place(tmux, cell) }
    try tmux.waitFor(text: "X (P1) wins!")
    let deadline = Date().addingTimeInterval(10)
    var records = try RecordsEndToEndTests.records(home)
    while records.isEmpty && Date() < deadline {
      usleep(50_000)
      records = try RecordsEndToEndTests.records(home)
    }
    #expect(records.first?.text.contains("TTO[swap2 white]") == true, "\(records)")
    try tmux.send("q")
    try tmux.waitFor(text: "Play the computer")
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=0")
  }

  /// The screen's line that holds `label`.
  static func row(_ label: String, in screen: String) -> String? {
    screen.split(separator: "\n").first { $0.contains(label) }.map(String.init)
  }
}
