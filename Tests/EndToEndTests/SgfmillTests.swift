import Foundation
import GameCore
import GameRecords
import TestSupport
import Testing

/// Records read by SGF software nobody here wrote: sgfmill (PyPI), installed by scripts/setup-sgfmill.sh (or
/// $SGFMILL_PYTHON). Every kind of record is read with it and its size, players, result and moves checked (its
/// moves, never its board: sgfmill plays go, whose captures would remove stones); files sgfmill wrote replay.
/// Nothing is skipped: without sgfmill the tests fail.
@Suite(.serialized) struct SgfmillTests {
  /// What sgfmill reads from each game of each file given, one JSON line a game. A square board goes through
  /// `Sgf_game`; sgfmill refuses `SZ[c:r]`, so a rectangle is read with its own grammar parser and raw values.
  static let reader = #"""
    import json, sys
    from sgfmill import sgf, sgf_grammar
    for path in sys.argv[1:]:
        for coarse in sgf_grammar.parse_sgf_collection(open(path, "rb").read()):
            root = coarse.sequence[0]
            size = root.get("SZ", [b"19"])[0].decode()
            if ":" in size:
                columns, rows = (int(part) for part in size.split(":"))
                nodes = coarse.sequence + [n for v in coarse.children[:1] for n in v.sequence]
                moves = []
                for node in nodes:
                    for colour in ("B", "W"):
                        if colour in node:
                            value = node[colour][0].decode()
                            moves.append([colour.lower(), ord(value[1]) - 97, ord(value[0]) - 97])
                name = lambda key: sgf_grammar.simpletext_value(root[key][0]).decode() if key in root else None
                re_ = root["RE"][0].decode() if "RE" in root else None
                winner = re_[0].lower() if re_ and re_[0] in "BW" else None
                print(json.dumps({"file": path, "columns": columns, "rows": rows, "black": name("PB"),
                    "white": name("PW"), "result": re_, "winner": winner, "moves": moves, "topDown": True,
                    "timeLimit": None, "overtime": None, "left": []}))
                continue
            game = sgf.Sgf_game.from_coarse_game_tree(coarse)
            moves = []
            left = []
            for node in game.get_main_sequence():
                colour, point = node.get_move()
                if colour is not None:
                    moves.append([colour, point[0], point[1]])
                    key = colour.upper() + "L"
                    if node.has_property(key):
                        left.append(node.get(key))
            root = game.get_root()
            result = root.get("RE") if root.has_property("RE") else None
            print(json.dumps({"file": path, "columns": game.get_size(), "rows": game.get_size(),
                "black": game.get_player_name("b"), "white": game.get_player_name("w"), "result": result,
                "winner": game.get_winner(), "moves": moves, "topDown": False,
                "timeLimit": root.get("TM") if root.has_property("TM") else None,
                "overtime": root.get("OT") if root.has_property("OT") else None, "left": left}))
    """#

  /// The interpreter of the environment sgfmill is in.
  static func python() throws -> String {
    if let path = ProcessInfo.processInfo.environment["SGFMILL_PYTHON"], !path.isEmpty { return path }
    let script =
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path + "/scripts/setup-sgfmill.sh"
    let result = try ChildProcess.run("bash", [script], timeout: 600, errors: .null)
    let path = result.output.split(separator: "\n").last.map(String.init) ?? ""
    guard result.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
      throw SgfmillSetupFailure(description: "scripts/setup-sgfmill.sh failed: \(result.output)")
    }
    return path
  }

  struct Read: Decodable {
    var file: String
    var columns: Int
    var rows: Int
    var black: String?
    var white: String?
    var result: String?
    var winner: String?
    var moves: [[Move]]
    var topDown: Bool
    /// TM (sgfmill's Real), OT, and each move's BL or WL (Real) as sgfmill reads them.
    var timeLimit: Double?
    var overtime: String?
    var left: [Double]

    enum Move: Decodable {
      case colour(String)
      case number(Int)
      init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let number = try? value.decode(Int.self) {
          self = .number(number)
        } else {
          self = .colour(try value.decode(String.self))
        }
      }
    }

    /// The moves as positions counted from the top left, and whether they alternate from black.
    var positions: [Position] {
      moves.compactMap { move in
        guard case .number(let row) = move[1], case .number(let column) = move[2] else { return nil }
        return Position(row: topDown ? row : rows - 1 - row, column: column)
      }
    }
    var colours: [String] { moves.compactMap { if case .colour(let c) = $0[0] { c } else { nil } } }
  }

  static func readWithSgfmill(_ files: [String]) throws -> [Read] {
    let script = TestDirectory.path("read") + ".py"
    try reader.write(toFile: script, atomically: true, encoding: .utf8)
    let result = try ChildProcess.run(try python(), [script] + files, errors: .withOutput)
    #expect(result.status == 0, "sgfmill failed:\n\(result.output)")
    return try result.output.split(separator: "\n").map { try JSONDecoder().decode(Read.self, from: Data($0.utf8)) }
  }

  /// That sgfmill read `record` as it is.
  static func expect(_ read: Read, is record: GameRecord, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(read.columns == record.rules.columns && read.rows == record.rules.rows, sourceLocation: sourceLocation)
    #expect(read.black == record.black.name && read.white == record.white.name, sourceLocation: sourceLocation)
    #expect(read.positions == record.moves, "\(read.file)", sourceLocation: sourceLocation)
    #expect(read.colours == record.moves.indices.map { $0 % 2 == 0 ? "b" : "w" }, sourceLocation: sourceLocation)
    let winner = record.result.winner.map { $0 == .x ? "b" : "w" }
    #expect(read.winner == winner, "\(read.file): \(read.result ?? "no RE")", sourceLocation: sourceLocation)
    // The times: TM in seconds, OT as written, each move's time left to the millisecond.
    guard read.rows == read.columns else { return }
    switch record.timeControl {
    case .none: #expect(read.timeLimit == nil && read.overtime == nil, sourceLocation: sourceLocation)
    case .fischer(let base, let increment):
      #expect(read.timeLimit == Double(base) / 1_000, sourceLocation: sourceLocation)
      #expect(read.overtime == "\(SGFSeconds.text(increment)) fischer", sourceLocation: sourceLocation)
    case .perMove(let time):
      #expect(read.timeLimit == 0 && read.overtime == "\(SGFSeconds.text(time)) simple", sourceLocation: sourceLocation)
    }
    #expect(
      read.left.map { Int(($0 * 1_000).rounded()) } == record.times.map(\.left), "\(read.file)",
      sourceLocation: sourceLocation)
  }

  static func files(_ environment: [String: String]) throws -> [String] {
    let directory = try #require(environment["XDG_DATA_HOME"]) + "/tictactoe/games"
    // The records and collections, not the tally index (.tally-index) beside them.
    return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sgf") }.sorted()
      .map { directory + "/" + $0 }
  }
}

/// A helper that the test could not use.
struct SgfmillSetupFailure: Error, CustomStringConvertible {
  let description: String
}
