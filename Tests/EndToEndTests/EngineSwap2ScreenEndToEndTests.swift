import Foundation
import TestSupport
import Testing

/// `play --engine ... --opening swap2` on the full screen, through the real binary in tmux at 80×24, against a
/// small brain written here in Python from the protocol text that answers SWAP2BOARD by a fixed plan (or, in
/// mode `unknown`, says it does not know the command): each of its steps shown as the computer's are, and the
/// game going on with ordinary moves after the opening; an engine without Swap2 said on screen, then the usual
/// opening.
@Suite(.serialized) struct EngineSwap2ScreenEndToEndTests {
  static let brain = #"""
    import sys
    # A Gomocup brain for Swap2 tests: to SWAP2BOARD it places e5 d4 f6 on an empty board, two more (a1 i1) after
    # three stones, and takes black (SWAP) after five; its moves are the first empty cell row by row from a9. In
    # mode "unknown" it answers SWAP2BOARD with UNKNOWN, as an engine without Swap2 does.
    mode = sys.argv[1] if len(sys.argv) > 1 else "swap2"
    size = 0
    stones = set()
    def out(line):
        sys.stdout.write(line + "\r\n")
        sys.stdout.flush()
    def cells_until_done():
        read = []
        for raw in sys.stdin:
            line = raw.strip()
            if line.upper() == "DONE":
                break
            x, y = line.split(",")[:2]
            read.append((int(x), int(y)))
        return read
    def move():
        for y in range(size):
            for x in range(size):
                if (x, y) not in stones:
                    stones.add((x, y))
                    return out("%d,%d" % (x, y))
    for raw in sys.stdin:
        line = raw.strip()
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "START":
            size = int(rest)
            stones.clear()
            out("OK")
        elif word in ("INFO", ""):
            pass
        elif word == "SWAP2BOARD":
            if mode == "unknown":
                out("UNKNOWN SWAP2BOARD")
                cells_until_done()
                continue
            placed = cells_until_done()
            stones.update(placed)
            if len(placed) == 0:
                stones.update({(4, 4), (3, 5), (5, 3)})
                out("4,4 3,5 5,3")
            elif len(placed) == 3:
                stones.update({(0, 8), (8, 8)})
                out("0,8 8,8")
            else:
                out("SWAP")
        elif word == "BOARD":
            stones.clear()
            stones.update(cells_until_done())
            move()
        elif word == "BEGIN":
            move()
        elif word == "TURN":
            x, y = rest.split(",")
            stones.add((int(x), int(y)))
            move()
        elif word == "END":
            break
        else:
            out("UNKNOWN " + word)
    """#

  static let brainPath: String = {
    let path = ((try? TestDirectory.make("swap2brain")) ?? TestDirectory.path("swap2brain")) + "/brain.py"
    try? brain.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }()

  static func start(first: String, mode: String = "swap2") throws -> TmuxSession {
    let engine = "python3 \(brainPath) \(mode)"
    return try TmuxSession(
      command:
        "sh -c '\(Binary.path) play --size 9 --opening swap2 --first \(first) --engine \"\(engine)\"; "
        + "echo EXIT=$?; sleep 30'",
      environment: try Binary.sandbox().environment)
  }

  /// Moves the cursor to `cell` with the go-to field and places there (not a cell in column f, whose names
  /// f1-f9 tmux would send as function keys).
  private func place(_ tmux: TmuxSession, _ cell: String) throws {
    try tmux.send("g")
    try tmux.waitFor(text: "Go to")
    try tmux.send(cell)
    try tmux.send("Enter")
    try tmux.send("Enter")
  }

  private func leave(_ tmux: TmuxSession) throws {
    try tmux.send("q")
    try tmux.waitFor(text: "Leave this game?")
    try tmux.send("y")
    try tmux.waitFor(text: "EXIT=0")
  }

  @Test func thePlayerPlacesThreeTheEnginePlacesTwoMoreAndThePlayerTakesO() throws {
    let tmux = try Self.start(first: "me")
    var screen = try tmux.waitFor(text: "Swap2, you: place stone 1 of 3 (X)")
    #expect(screen.contains("Swap2 against the engine brain.py: you are the first player"), "\(screen)")
    try place(tmux, "e5")
    try tmux.waitFor(text: "Swap2, you: place stone 2 of 3 (O)")
    try place(tmux, "d4")
    try tmux.waitFor(text: "Swap2, you: place stone 3 of 3 (X)")
    try place(tmux, "g6")
    screen = try tmux.waitFor(text: "Swap2, you: choose b take X, o take O")
    #expect(screen.contains("The engine chose to place 2 more and placed a1 i1."), "\(screen)")
    try tmux.send("o")
    screen = try tmux.waitFor(text: "You took O. Your turn (O)")
    #expect(screen.contains("You play O against the engine brain.py"), "\(screen)")
    try place(tmux, "e6")
    // The engine, told the whole board (BOARD), plays the first empty cell from a9.
    screen = try tmux.waitFor(text: "The engine plays a9. Your turn (O)")
    #expect(!screen.contains("forfeit"), "\(screen)")
    try leave(tmux)
  }

  @Test func theEnginePlacesThreeThePlayerPlacesTwoMoreAndTheEngineTakesX() throws {
    let tmux = try Self.start(first: "them")
    var screen = try tmux.waitFor(text: "Swap2, you: choose b take X, o take O, p place 2 more")
    #expect(screen.contains("you are the second player (you answer)"), "\(screen)")
    #expect(screen.contains("The engine placed e5 d4 f6."), "\(screen)")
    try tmux.send("p")
    try tmux.waitFor(text: "Swap2, you: place stone 1 of 2 (O)")
    try place(tmux, "a1")
    try tmux.waitFor(text: "Swap2, you: place stone 2 of 2 (X)")
    try place(tmux, "i1")
    screen = try tmux.waitFor(text: "The engine took X. Your turn (O)")
    try place(tmux, "e6")
    screen = try tmux.waitFor(text: "The engine plays a9. Your turn (O)")
    #expect(!screen.contains("forfeit"), "\(screen)")
    try leave(tmux)
  }

  @Test func anEngineWithoutSwap2IsSaidAndTheUsualOpeningIsPlayed() throws {
    let tmux = try Self.start(first: "me", mode: "unknown")
    try tmux.waitFor(text: "Swap2, you: place stone 1 of 3 (X)")
    try place(tmux, "e5")
    try place(tmux, "d4")
    try tmux.waitFor(text: "Swap2, you: place stone 3 of 3 (X)")
    try place(tmux, "g6")
    var screen = try tmux.waitFor(text: "No Swap2: the engine answered \"UNKNOWN SWAP2BOARD\". Usual opening;")
    #expect(screen.contains("you play X."), "\(screen)")
    #expect(screen.contains("You play X against the engine brain.py"), "\(screen)")
    #expect(!screen.contains("1. "), "the board is empty again, no move listed: \(screen)")
    try place(tmux, "e5")
    screen = try tmux.waitFor(text: "The engine plays a9. Your turn (X)")
    #expect(screen.contains("No Swap2: the engine answered"), "the note stays for the game: \(screen)")
    try leave(tmux)
  }
}
