import Foundation
import GameRecords
import TestSupport
import Testing

/// `play --engine` against a brain not written in Swift: a small Gomocup brain written here in Python from the
/// protocol text (it plays the first empty cell row by row), and its hostile variants, each of which must
/// forfeit with its cause named, the game recorded, and the player able to play on against the built-in
/// computer.
@Suite(.serialized) struct EngineGameTests {
  static let brain = #"""
    import os, sys, time
    # A small Gomocup brain written from the protocol text: it plays the first empty cell, row by row from the top
    # left. Its first argument makes it misbehave at its first move: crash, hang, occupied, offboard, garbage,
    # flood, longline, blank (endless empty lines), errflood (endless lines on stderr), twice (two moves in one
    # write), junk (its move and a line of junk in one write); "fds" writes its open descriptors to stderr, "tty"
    # tries to write on the terminal.
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    size = (0, 0)
    stones = set()
    def out(line):
        sys.stdout.write(line + "\r\n")
        sys.stdout.flush()
    def move():
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            time.sleep(3600)
        if mode == "garbage":
            return out("\x1b[2Jhello there")
        if mode == "offboard":
            return out("%d,%d" % (size[0] + 3, 0))
        if mode == "occupied" and stones:
            x, y = sorted(stones)[0]
            return out("%d,%d" % (x, y))
        if mode == "flood":
            while True:
                out("MESSAGE la la la")
        if mode == "blank":
            while True:
                sys.stdout.write("\r\n" * 64)
                sys.stdout.flush()
        if mode == "errflood":
            while True:
                sys.stderr.write("noise\n" * 64)
                sys.stderr.flush()
        if mode == "twice":
            stones.update({(0, 0), (1, 0)})
            sys.stdout.write("0,0\r\n1,0\r\n")
            return sys.stdout.flush()
        if mode == "junk":
            stones.add((0, 0))
            sys.stdout.write("0,0\r\njunk\r\n")
            return sys.stdout.flush()
        if mode == "longline":
            while True:
                sys.stdout.write("7" * 65536)
                sys.stdout.flush()
        for y in range(size[1]):
            for x in range(size[0]):
                if (x, y) not in stones:
                    stones.add((x, y))
                    return out("%d,%d" % (x, y))
    sys.stderr.write("brain: started \x1b]2;owned\x07\n")
    if mode == "tty":
        try:
            with open("/dev/tty", "w") as tty:
                tty.write("TTYWRITE")
            sys.stderr.write("brain tty: opened\n")
        except OSError as error:
            sys.stderr.write("brain tty: refused %s\n" % error.errno)
    if mode == "fds":
        sys.stderr.write("brain fds: %s\n" % sorted(int(f) for f in os.listdir("/proc/self/fd")))
    sys.stderr.flush()
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "START":
            n = int(rest)
            size = (n, n)
            stones.clear()
            out("OK")
        elif word == "RECTSTART":
            w, h = rest.split(",")
            size = (int(w), int(h))
            out("OK")
        elif word == "INFO":
            pass
        elif word == "BEGIN":
            move()
        elif word == "TURN":
            x, y = rest.split(",")
            stones.add((int(x), int(y)))
            out("MESSAGE thinking about %s" % rest)
            move()
        elif word == "END":
            break
        else:
            out("UNKNOWN " + word)
    """#

  /// The brain's file, written once per test process.
  static let brainPath: String = {
    // In a directory of its own, under the name the game shows it by.
    let path = ((try? TestDirectory.make("brain")) ?? TestDirectory.path("brain")) + "/brain.py"
    try? brain.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }()

  static func engine(_ mode: String = "good") -> String { "python3 '\(brainPath)' \(mode)" }

  /// Plays a5 b5 c5 d5 e5 as X on 9×9 (the brain's O fills row 9 from a9), then `after`.
  static func play(_ mode: String, after: [String] = [], environment: [String: String]) throws -> Binary.Result {
    let moves = ["a5", "b5", "c5", "d5", "e5"] + after
    return try Binary.run(
      ["play", "--ui", "plain", "--size", "9", "--first", "me", "--engine", engine(mode)],
      input: moves.joined(separator: "\n") + "\n", environment: environment, timeout: 60)
  }

  static func log(_ environment: [String: String]) throws -> String {
    let directory = try #require(environment["XDG_STATE_HOME"]) + "/tictactoe"
    let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".log") }
    return try files.map { try String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }.joined()
  }

  static func records(_ environment: [String: String]) throws -> [GameRecord] {
    try RecordsEndToEndTests.records(environment).map { try GameRecord.parse($0.text) }
  }

  @Test("a whole game against the Python brain: moves both ways, the win, the record, its stderr in the log")
  func wholeGame() throws {
    let environment = try Binary.sandbox().environment
    let result = try Self.play("good", environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("You play X against the engine brain.py."))
    for cell in ["a9", "b9", "c9", "d9"] { #expect(result.stdout.contains("engine plays \(cell)")) }
    #expect(result.stdout.contains("result: X wins"))
    let records = try Self.records(environment)
    #expect(records.count == 1)
    #expect(records.first?.result == .won(.x, .line))
    #expect(records.first?.white.name == "brain.py" && records.first?.white.level == "engine")
    #expect(records.first?.moves.count == 9)
    let log = try Self.log(environment)
    // Its standard error is kept, with the escape sequence it wrote made visible.
    #expect(log.contains("stderr: brain: started \\x1B]2;owned\\x07"))
    #expect(!log.contains("\u{1B}"))
    #expect(log.contains("MESSAGE thinking about 0,4"))
  }

  @Test(
    "each hostile brain forfeits with its cause, the game is recorded, and the player plays on",
    arguments: [
      ("crash", "the engine stopped (exited with status 3)"),
      ("hang", "the engine gave no move within 7000 ms"),
      ("occupied", "the engine played 0,4, which is already taken"),
      ("offboard", "the engine played 12,0, which is off the board"),
      ("garbage", #"the engine wrote "\x1B[2Jhello there", which is not an answer"#),
      ("flood", "the engine wrote more than 100 message lines for one move"),
      ("longline", #"the engine wrote "7777"#),
      ("blank", "the engine wrote more than 100 message lines for one move"),
      ("errflood", "the engine wrote more than 10000 lines on its standard error in one game"),
    ])
  func hostile(mode: String, cause: String) throws {
    let environment = try Binary.sandbox().environment
    let started = Date()
    let result = try Self.play(mode, after: ["yes", "f1", "quit"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("the engine forfeits: \(cause)"), "\(result.stdout)")
    #expect(result.stdout.contains("result: X wins by the engine's forfeit"))
    // No escape sequence from the engine reaches the terminal.
    #expect(!result.stdout.contains("\u{1B}"))
    // The player goes on against the built-in computer.
    #expect(result.stdout.contains("You play X against the computer"))
    #expect(result.stdout.contains("computer plays"))
    let records = try Self.records(environment)
    #expect(records.count == 1)
    #expect(records.first?.result == .won(.x, .forfeit))
    #expect(records.first?.moves.count == 1)
    #expect(try Self.log(environment).contains("forfeits: engine."))
    // `games` names the engine and how the game was won.
    let games = try Binary.run(["games"], environment: environment)
    #expect(games.stdout.contains("brain.py (engine)") && games.stdout.contains("won by the engine's forfeit"))
    // A hang is waited for timeout_turn (5 s) and the grace (2 s), no longer.
    if mode == "hang" { #expect(Date().timeIntervalSince(started) < 20) }
  }

  @Test("typed ahead: a second move written with the first is an answer nobody asked for, not the next TURN's")
  func typedAheadUnaskedMove() throws {
    let environment = try Binary.sandbox().environment
    let result = try Self.play("twice", after: ["yes", "f1", "quit"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("engine plays a9"))
    // 1,0 was written before the TURN for b5 was sent: it is no answer to it.
    #expect(!result.stdout.contains("engine plays b9"), "\(result.stdout)")
    #expect(
      result.stdout.contains(#"the engine forfeits: the engine wrote "1,0" when no answer was asked for"#),
      "\(result.stdout)")
    #expect(result.stdout.contains("You play X against the computer"))
    #expect(try Self.records(environment).first?.result == .won(.x, .forfeit))
  }

  @Test("a forfeit while the player is to move ends the game; no engine is started again without the board")
  func forfeitOnThePlayersTurn() throws {
    let environment = try Binary.sandbox().environment
    let logs = try #require(environment["XDG_STATE_HOME"]) + "/tictactoe"
    // a5 alone; b5 only once the engine's forfeit is in the log (waited for 10 s at most), so that it comes
    // while the player is to move.
    let script = """
      { printf 'a5\n'
        for i in $(seq 200); do grep -qs 'forfeits' "$2"/*.log && break; sleep 0.05; done
        printf 'b5\nyes\nf1\nquit\n'; } | "$0" play --ui plain --size 9 --first me --engine "$1"
      """
    let result = try ChildProcess.run(
      "bash", ["-c", script, Binary.path, Self.engine("junk"), logs], environment: environment, timeout: 60)
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("engine plays a9"))
    #expect(
      result.output.contains(#"the engine forfeits: the engine wrote "junk" when no answer was asked for"#),
      "\(result.output)")
    #expect(result.output.contains("You play X against the computer"))
    let log = try Self.log(environment)
    #expect(log.components(separatedBy: "started as process").count == 2, "\(log)")
    #expect(try Self.records(environment).first?.result == .won(.x, .forfeit))
  }

  @Test("while a hanging engine is waited for, with the input at its end, the game takes no CPU")
  func waitingTakesNoCPU() throws {
    let environment = try Binary.sandbox().environment
    let script = """
      TIMEFORMAT='cpu %U %S'
      time (printf 'a5\\n' | "$0" play --ui plain --size 9 --first me --engine "$1" > /dev/null 2>&1)
      """
    let result = try ChildProcess.run(
      "bash", ["-c", script, Binary.path, Self.engine("hang")], environment: environment, timeout: 60)
    // bash's `time` line, wherever it stands (once, on a loaded CI machine, no line began with it).
    let found = try #require(result.output.range(of: "cpu ", options: .backwards), "no time line: \(result.output)")
    let line = result.output[found.lowerBound...].prefix { $0 != "\n" }
    let seconds = line.split(separator: " ").dropFirst().compactMap { Double($0) }.reduce(0, +)
    #expect(line.split(separator: " ").count == 3, "\(line) in: \(result.output)")
    // The wait is timeout_turn and the grace, 7 s; a loop spinning on the ended input would use most of it.
    #expect(seconds < 2, "\(line)")
  }

  @Test("the engine gets no descriptor of ours but its standard input, output and error")
  func noLeakedDescriptors() throws {
    let environment = try Binary.sandbox().environment
    let result = try Self.play("fds", environment: environment)
    // Once, on a loaded CI machine, this game ended with status 1: what it said, for the next time.
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)\((try? Self.log(environment)) ?? "")")
    // Python's listing holds one descriptor of its own (3) while it reads the directory.
    #expect(try Self.log(environment).contains("stderr: brain fds: [0, 1, 2, 3]"))
  }

  @Test("an engine game needs five in a row on 5x5 or more, and a command that splits; usage errors say so")
  func usageErrors() throws {
    let environment = try Binary.sandbox().environment
    let cases: [([String], String)] = [
      (["play", "--ui", "plain", "--engine", Self.engine(), "--k", "4"], "five in a row only"),
      (["play", "--ui", "plain", "--engine", Self.engine(), "--size", "4"], "from 5×5"),
      (["play", "--ui", "plain", "--engine", "brain 'unclosed"], "never closed"),
      (["play", "--ui", "plain", "--engine", ""], "is empty"),
      (["play", "--ui", "plain", "--engine", Self.engine(), "--ai", "easy"], "cannot be combined"),
      // The saved settings (3×3 at first) do not fit an engine.
      (["play", "--ui", "plain", "--engine", Self.engine()], "the saved settings give 3×3"),
    ]
    for (arguments, words) in cases {
      let result = try Binary.run(arguments, environment: environment)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
    }
    let missing = try Binary.run(
      ["play", "--ui", "plain", "--size", "9", "--first", "me", "--engine", "/nonexistent/brain"], input: "e5\nquit\n",
      environment: environment)
    #expect(missing.stdout.contains("the engine forfeits: the engine stopped (it could not be started"))
  }

  @Test("the engine named in settings.conf plays when the opponent setting says so, and not from an exposed file")
  func fromTheSettings() throws {
    let environment = try Binary.sandbox().environment
    let directory = try #require(environment["XDG_CONFIG_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    let path = directory + "/settings.conf"
    try "size = 9\nk = 5\nfirst = me\nengine = \(Self.engine())\nopponent = engine\n".write(
      toFile: path, atomically: false, encoding: .utf8)
    chmod(path, 0o600)
    let input = "a5\nb5\nc5\nd5\ne5\n"
    let played = try Binary.run(["play", "--ui", "plain"], input: input, environment: environment)
    #expect(played.status == 0, "\(played.stderr)")
    #expect(played.stdout.contains("against the engine brain.py") && played.stdout.contains("engine plays a9"))
    // --ai still plays the computer.
    let computer = try Binary.run(["play", "--ui", "plain", "--ai", "easy"], input: "quit\n", environment: environment)
    #expect(computer.stdout.contains("against the computer (easy)"))
    // Writable by others: nothing it names is run.
    chmod(path, 0o666)
    let refused = try Binary.run(["play", "--ui", "plain"], input: input, environment: environment)
    #expect(refused.status != 0)
    #expect(!refused.stdout.contains("engine plays"))
    #expect(refused.stderr.contains("can be changed by others") && refused.stderr.contains("chmod 600"))
  }

  @Test("full screen at 80x24: a game won against the brain, then a crashing one forfeits and n plays the computer")
  func fullScreen() throws {
    let environment = try Binary.sandbox().environment
    let tmux = try TmuxSession(
      command:
        "sh -c '\(Binary.path) play --size 9 --first me --engine \"\(Self.engine("tty"))\"; echo EXIT=$?; sleep 30'",
      environment: environment)
    try tmux.waitFor(text: "You play X against the engine brain.py")
    try tmux.send("Enter")  // e5, the centre
    try tmux.waitFor(text: "The engine plays a9.")
    for cell in ["b9", "c9", "d9"] {
      try tmux.send("Right", "Enter")
      try tmux.waitFor(text: "The engine plays \(cell).")
    }
    try tmux.send("Right", "Enter")
    let won = try tmux.waitFor(text: "You win!")
    #expect(won.contains("You 1 · Engine 0"))
    // The engine has no controlling terminal: it could not open /dev/tty to write over the screen.
    #expect(!won.contains("TTYWRITE"))
    #expect(try Self.log(environment).contains("brain tty: refused"))
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=0")

    let crashing = try TmuxSession(
      command:
        "sh -c '\(Binary.path) play --size 9 --first me --engine \"\(Self.engine("crash"))\"; echo EXIT=$?; sleep 30'",
      environment: environment)
    try crashing.waitFor(text: "You play X against the engine brain.py")
    try crashing.send("Enter")
    let forfeit = try crashing.waitFor(text: "You win: the engine stopped (exited with status 3).")
    #expect(forfeit.contains("n play the computer"))
    try crashing.send("n")
    try crashing.waitFor(text: "You play X against the computer")
    try crashing.send("q")
    try crashing.waitFor(text: "EXIT=0")
    let results = try Self.records(environment).map(\.result)
    #expect(results.contains(.won(.x, .line)) && results.contains(.won(.x, .forfeit)))
  }
}
