import Foundation
import TestSupport
import Testing

/// `tictactoe brain` driven by a Gomocup manager nobody here wrote: pygomo-lib (PyPI), installed by
/// scripts/setup-pygomo.sh (or $PYGOMO_PYTHON). Two brains play whole games through it, the manager checking
/// every move (on the board, on an empty cell) and the five; then ABOUT, BOARD, TAKEBACK and START 20.
/// Nothing is skipped: without pygomo-lib the tests fail.
@Suite(.serialized) struct PygomoBrainTests {
  /// The manager: pygomo's EngineClient runs `tictactoe brain` twice and relays the moves; one JSON line out.
  static let manager = #"""
    import json, sys, time
    from pygomo import EngineClient
    from pygomo.protocol.models import BoardPosition, Move

    binary, size, games, turn_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    report = {"games": [], "slowestMs": 0, "peakKib": 0, "checks": {}}

    def five(stones, x, y):
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while (cx, cy) in stones:
                    run += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
            if run >= 5:
                return True
        return False

    def peak_kib(client):
        for line in open(f"/proc/{client.process_id}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return 0

    def timed(call):
        started = time.monotonic()
        result = call()
        report["slowestMs"] = max(report["slowestMs"], int((time.monotonic() - started) * 1000))
        return result

    brains = [EngineClient(binary, args=["brain"]), EngineClient(binary, args=["brain"])]
    for brain in brains:
        assert brain.start(board_size=size, timeout=10), "START refused"
        brain.configure(timeout_turn=turn_ms, timeout_match=1000000, rule=0, max_memory=0)

    for number in range(games):
        if number:
            for brain in brains:
                assert brain.restart(timeout=5), "RESTART refused"
        first, second = (brains[0], brains[1]) if number % 2 == 0 else (brains[1], brains[0])
        stones = {}
        moves = []
        result = timed(lambda: first.begin(timeout=10))
        assert result is not None, "no answer to BEGIN"
        mover, other = first, second
        winner = None
        while True:
            move = result.move
            x, y = move.col, move.row
            assert 0 <= x < size and 0 <= y < size, f"off the board: {x},{y}"
            assert (x, y) not in stones, f"occupied: {x},{y}"
            colour = len(moves) % 2
            stones[(x, y)] = colour
            moves.append([x, y])
            own = {p for p, c in stones.items() if c == colour}
            if five(own, x, y):
                winner = colour
                break
            if len(stones) == size * size:
                break
            mover, other = other, mover
            result = timed(lambda: mover.turn(Move((x, y)), timeout=10))
            assert result is not None, "no answer to TURN"
        report["games"].append({"moves": moves, "winner": winner})

    brain = brains[0]
    # ABOUT names the brain.
    report["checks"]["about"] = brain.about(timeout=5)
    # BOARD: a position with three stones, the brain to move as the second player.
    brain.restart(timeout=5)
    position = BoardPosition()
    position.add_move(Move((7, 7)), 2)
    position.add_move(Move((8, 8)), 1)
    position.add_move(Move((6, 6)), 2)
    answer = timed(lambda: brain.board(position, timeout=10))
    report["checks"]["board"] = [answer.move.col, answer.move.row] if answer else None
    # TAKEBACK of that answer, and of a cell without a stone.
    report["checks"]["takeback"] = brain.takeback(Move((answer.move.col, answer.move.row)), timeout=5)
    brain.send_raw("TAKEBACK 0,0")
    report["checks"]["takeback_empty"] = brain.receive_raw("error", timeout=5)
    # A size the brain does not play.
    brain.send_raw("START 20")
    report["checks"]["start20"] = brain.receive_raw("error", timeout=5)
    report["peakKib"] = max(peak_kib(b) for b in brains)
    for b in brains:
        b.quit()
    print(json.dumps(report))
    """#

  /// The interpreter of the environment pygomo-lib is in.
  static func python() throws -> String {
    if let path = ProcessInfo.processInfo.environment["PYGOMO_PYTHON"], !path.isEmpty { return path }
    let script =
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path + "/scripts/setup-pygomo.sh"
    let result = try ChildProcess.run("bash", [script], timeout: 600, errors: .null)
    let path = result.output.split(separator: "\n").last.map(String.init) ?? ""
    guard result.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
      throw PygomoSetupFailure(description: "scripts/setup-pygomo.sh failed: \(result.output)")
    }
    return path
  }

  struct Report: Decodable {
    struct Played: Decodable {
      var moves: [[Int]]
      var winner: Int?
    }
    var games: [Played]
    var slowestMs: Int
    var peakKib: Int
    var checks: [String: Check]

    enum Check: Decodable, Equatable {
      case text(String)
      case flag(Bool)
      case cell([Int])
      case none
      init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
          self = .none
        } else if let flag = try? value.decode(Bool.self) {
          self = .flag(flag)
        } else if let cell = try? value.decode([Int].self) {
          self = .cell(cell)
        } else {
          self = .text(try value.decode(String.self))
        }
      }
    }
  }

  @Test("two brains play whole 15x15 games through pygomo-lib, each move within timeout_turn")
  func wholeGames() throws {
    let script = TestDirectory.path("pygomo") + ".py"
    try Self.manager.write(toFile: script, atomically: true, encoding: .utf8)
    let turn = 300
    let result = try ChildProcess.run(try Self.python(), [script, Binary.path, "15", "2", "\(turn)"], timeout: 300)
    #expect(result.status == 0, "the manager failed:\n\(result.output)")
    let line = try #require(result.output.split(separator: "\n").last { $0.hasPrefix("{") })
    let report = try JSONDecoder().decode(Report.self, from: Data(line.utf8))
    #expect(report.games.count == 2)
    for game in report.games {
      // Each game went to five in a row or a full board (the manager checked the five and every cell).
      #expect(game.winner != nil || game.moves.count == 15 * 15)
      #expect(game.moves.count >= 9)
    }
    // Every answer within timeout_turn, seen from the manager's side of the pipe.
    #expect(report.slowestMs < turn, "slowest answer \(report.slowestMs) ms")
    // Within the max_memory floor the brain states.
    #expect(report.peakKib * 1024 < 32 * 1024 * 1024, "peak \(report.peakKib) KiB")
    #expect(report.checks["about"] == .text(#"name="tictactoe", version="0.2.0", author="the tictactoe authors""#))
    #expect(report.checks["takeback"] == .flag(true))
    guard case .cell(let cell) = report.checks["board"] else {
      Issue.record("no answer to BOARD: \(String(describing: report.checks["board"]))")
      return
    }
    #expect(![[7, 7], [8, 8], [6, 6]].contains(cell) && cell.allSatisfy { (0..<15).contains($0) })
    guard case .text(let empty) = report.checks["takeback_empty"], case .text(let twenty) = report.checks["start20"]
    else {
      Issue.record("no ERROR for TAKEBACK 0,0 or START 20: \(report.checks)")
      return
    }
    #expect(empty.hasPrefix("ERROR ") && twenty.hasPrefix("ERROR ") && twenty.contains("20x20"))
  }
}

struct PygomoSetupFailure: Error, CustomStringConvertible {
  var description: String
}
