import Foundation
import GameCore
import GameRecords
import TestSupport
import Testing

extension SgfmillTests {
  @Test func everyKindOfGameTheBinaryRecordsReadsInSgfmill() throws {
    // Hot seat and the computer, in plain mode.
    var local = try Binary.sandbox().environment
    local["USER"] = "carol"
    let everyCell = (1...9).map(String.init).joined(separator: "\n") + "\n"
    _ = try Binary.run(["play", "--ui", "plain", "--hotseat"], input: everyCell, environment: local)
    _ = try Binary.run(
      ["play", "--ui", "plain", "--ai", "normal", "--size", "4"], input: everyCell + "10\n11\n12\n13\n14\n15\n16\n",
      environment: local)
    // A network game on loopback, and the bot's day collection.
    var alice = try Binary.sandbox().environment
    alice["USER"] = "alice"
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let host = try Player(["host", "--port", "0", "--ui", "plain", "--accept-new"], environment: alice)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob)
    #expect(host.waitFor("game 1:") && joiner.waitFor("game 1:"))
    Player.playOut(host, joiner)
    host.send("quit")
    #expect(host.exitStatus() == 0)
    _ = joiner.exitStatus()
    let botHome = try Player.oneGameAgainstABot(joiner: bob)

    let files = try Self.files(local) + Self.files(alice) + Self.files(bob) + Self.files(botHome)
    var records: [GameRecord] = []
    for file in files {
      records += try GameRecord.parseCollection(String(contentsOfFile: file, encoding: .utf8))
    }
    // Hot seat, computer; host, joiner; the joiner's game with the bot, and the bot's.
    #expect(records.count == 6, "\(files)")
    #expect(records.contains { $0.black.level == "easy" || $0.white.level == "easy" })
    #expect(records.contains { $0.rules.rows == 4 })
    let read = try Self.readWithSgfmill(files)
    #expect(read.count == records.count)
    for (read, record) in zip(read, records) { Self.expect(read, is: record) }
  }

  @Test func everyResultAndBoardShapeReadsInSgfmill() throws {
    let big = try Rules(size: 15, k: 5)
    let line = [(7, 7), (0, 0), (7, 8), (0, 1), (7, 9), (0, 2), (7, 10), (0, 3), (7, 11)].map {
      Position(row: $0.0, column: $0.1)
    }
    let draw = [1, 2, 3, 5, 4, 6, 8, 7, 9].map { Position(cellNumber: $0, rules: .standard)! }
    let rectangle = try Rules(rows: 4, columns: 7, k: 3)
    let players = (GameRecord.Player(name: "Ann ]\\ Æ 名", publicKey: "AAAA"), GameRecord.Player(name: "Ben"))
    let records = [
      GameRecord(
        rules: big, black: players.0, white: players.1, date: "2026-12-01", result: .won(.x, .line), moves: line),
      GameRecord(
        rules: .standard, black: players.1, white: players.0, date: "2026-12-01", result: .drawn(.full), moves: draw),
      GameRecord(
        rules: big, black: players.0, white: players.1, date: "", result: .won(.o, .resignation), moves: [line[0]]),
      GameRecord(
        rules: big, black: players.0, white: players.1, date: "", result: .won(.x, .claim), moves: Array(line[0..<3])),
      GameRecord(
        rules: big, black: players.0, white: players.1, date: "", result: .won(.x, .time), moves: Array(line[0..<3])),
      GameRecord(rules: big, black: players.0, white: players.1, date: "", result: .won(.o, .left), moves: []),
      GameRecord(
        rules: rectangle, black: players.0, white: players.1, date: "2026-12-01", result: .won(.o, .line),
        moves: [(0, 0), (3, 6), (1, 0), (3, 5), (0, 2), (3, 4)].map { Position(row: $0.0, column: $0.1) }),
    ]
    var files: [String] = []
    for record in records {
      let file = TestDirectory.path("written") + ".sgf"
      try record.sgf.write(toFile: file, atomically: true, encoding: .utf8)
      files.append(file)
    }
    let read = try Self.readWithSgfmill(files)
    #expect(read.count == records.count)
    for (read, record) in zip(read, records) { Self.expect(read, is: record) }
    #expect(read.map(\.result) == ["B+", "0", "W+R", "B+F", "B+T", "W+F", "W+"])
  }

  /// Version 3's records: a timed game lost on time (TM, OT, BL/WL, TTQ, TTF), a fixed time per move, an abort
  /// (Void), a disputed flag (?), draws by agreement and in a dead position: sgfmill reads the moves, the result,
  /// the winner (none for Void and ?), the time control and every move's time left.
  @Test func timedVoidAndDisputedRecordsReadInSgfmill() throws {
    let big = try Rules(size: 15, k: 5)
    let moves = [(7, 7), (0, 0), (7, 8), (0, 1), (7, 9)].map { Position(row: $0.0, column: $0.1) }
    let times = [
      MoveTime(charged: 0, left: 10_000), MoveTime(charged: 0, left: 10_000), MoveTime(charged: 1_234, left: 8_766),
      MoveTime(charged: 2_500, left: 7_500), MoveTime(charged: 999, left: 7_767),
    ]
    func record(
      _ result: RecordResult, _ control: TimeControl, times: [MoveTime], flag: FlagClaim? = nil, count: Int = 5
    ) -> GameRecord {
      var record = GameRecord(
        rules: big, black: .init(name: "Ann", publicKey: "AAAA"), white: .init(name: "Ben ]", publicKey: "BBBB"),
        date: "2026-12-02", result: result, moves: Array(moves.prefix(count)))
      record.timeControl = control
      record.times = Array(times.prefix(count))
      record.flag = flag
      record.signedVersion = 2
      return record
    }
    let fischer = TimeControl.fischer(base: 10_000, increment: 0)
    let perMove = times.map { MoveTime(charged: $0.charged, left: 20_000 - $0.charged) }
    let records = [
      record(
        .won(.x, .time), fischer, times: times,
        flag: FlagClaim(claimant: .x, timeLeft: 7_500, observed: 8_600, thinking: 7_400)),
      record(.won(.o, .time), .perMove(20_000), times: perMove),
      record(.void, .fischer(base: 300_000, increment: 3_000), times: [MoveTime(charged: 0, left: 300_000)], count: 1),
      record(
        .disputed, fischer, times: times,
        flag: FlagClaim(claimant: .o, timeLeft: 7_767, observed: 8_800, thinking: 5_000)),
      record(.drawn(.agreed), .none, times: [], count: 4),
      record(.won(.o, .claim), fischer, times: times),
    ]
    var files: [String] = []
    for record in records {
      #expect(record.timesProblem == nil, "\(record.sgf)")
      let file = TestDirectory.path("timed") + ".sgf"
      try record.sgf.write(toFile: file, atomically: true, encoding: .utf8)
      files.append(file)
    }
    let read = try Self.readWithSgfmill(files)
    #expect(read.count == records.count)
    for (read, record) in zip(read, records) { Self.expect(read, is: record) }
    #expect(read.map(\.result) == ["B+T", "W+T", "Void", "?", "0", "W+F"])
    #expect(read.map(\.overtime) == ["0 fischer", "20 simple", "3 fischer", "0 fischer", nil, "0 fischer"])
  }

  /// sgfmill writes the games (go's writer, told GM[4]); the binary replays each, with k from TTK or five.
  @Test func filesSgfmillWroteReplay() throws {
    let writer = #"""
      import sys
      from sgfmill import sgf
      def write(path, size, moves, result, k=None):
          game = sgf.Sgf_game(size=size)
          root = game.get_root()
          root.set_raw("GM", b"4")
          root.set("PB", "Black stone")
          root.set("PW", "White stone")
          root.set("RE", result)
          if k is not None:
              root.set_raw("TTK", str(k).encode())
          for index, point in enumerate(moves):
              game.extend_main_sequence().set_move("b" if index % 2 == 0 else "w", point)
          open(path, "wb").write(game.serialise())
      folder = sys.argv[1]
      write(folder + "/five.sgf", 15, [(7, 3), (0, 0), (7, 4), (0, 1), (7, 5), (0, 2), (7, 6), (0, 3), (7, 7)], "B+")
      write(folder + "/three.sgf", 3, [(2, 0), (2, 1), (2, 2), (1, 1), (1, 0), (1, 2), (0, 1), (0, 0), (0, 2)], "0")
      write(folder + "/four.sgf", 9, [(0, 0), (8, 8), (1, 1), (8, 7), (2, 2), (8, 6), (3, 3)], "B+", k=4)
      """#
    let folder = try TestDirectory.make("sgfmill-wrote")
    let script = folder + "/write.py"
    try writer.write(toFile: script, atomically: true, encoding: .utf8)
    let written = try ChildProcess.run(try Self.python(), [script, folder], errors: .withOutput)
    #expect(written.status == 0, "\(written.output)")
    let home = try Binary.sandbox().environment
    let expected: [(String, String, String)] = [
      ("five", "15×15, 5 in a row", "move 9. X h8:"),
      ("three", "3×3, 3 in a row", "move 9. X c1:"),
      ("four", "9×9, 4 in a row", "move 7. X d4:"),
    ]
    for (name, rules, last) in expected {
      let replay = try Binary.run(["replay", folder + "/\(name).sgf", "--ui", "plain"], environment: home)
      #expect(replay.status == 0, "\(name): \(replay.stderr)")
      #expect(replay.stdout.hasPrefix("Black stone (X) vs White stone (O)\n\(rules) · no date · "), "\(replay.stdout)")
      #expect(replay.stdout.contains(last), "\(replay.stdout)")
      let record = try GameRecord.parse(try String(contentsOfFile: folder + "/\(name).sgf", encoding: .utf8))
      #expect(record.resultProblem == nil, "\(name): \(record.resultProblem ?? "")")
    }
  }
}
