import GameCore
import GameRecords
import UntrustedText

/// Stepping through a recorded game: the record, and how many of its moves are on the board. Pure.
public struct Replay: Sendable, Equatable {
  public let record: GameRecord
  /// Moves shown, from 0 (the empty board) to every move.
  public private(set) var shown: Int

  public init(record: GameRecord) {
    self.record = record
    self.shown = 0
  }

  /// The board after `shown` moves (the moves of a parsed record are legal, so every prefix replays).
  public var game: Game {
    (try? Game(rules: record.rules, moves: Array(record.moves.prefix(shown)))) ?? Game(rules: record.rules)
  }

  /// What a key does: ←/→ (also h/l, p/n) a move back or on, Home/End (also g/G) the start or the end, q or Esc
  /// to leave. Returns false when the replay is over.
  public mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .left, .character("h"), .character("p"), .backspace: shown = max(0, shown - 1)
    case .right, .character("l"), .character("n"), .character(" "), .enter: shown = min(record.moves.count, shown + 1)
    case .home, .character("g"): shown = 0
    case .end, .character("G"): shown = record.moves.count
    case .character("q"), .escape, .control("c"): return false
    default: break
    }
    return true
  }

  /// The label of a cell in the notation of five in a row: columns a, b, … from the left, rows 1, 2, … from the
  /// bottom (`h8` is the centre of 15×15).
  public static func label(_ position: Position, _ rules: Rules) -> String {
    Coordinates(rules).name(of: position)
  }

  /// Move `number` (1-based) as the move list shows it: `3. X b2`.
  public func moveText(_ number: Int) -> String {
    let mark: Mark = number % 2 == 1 ? .x : .o
    return "\(number). \(mark) \(Replay.label(record.moves[number - 1], record.rules))"
  }

  /// Who played, as the header shows it: `alice (X) vs Computer, perfect (O)`, names made safe for a terminal.
  public var players: String {
    func name(_ player: GameRecord.Player, _ mark: Mark) -> String {
      let shown = player.name.isEmpty ? "?" : VisibleText.escaping(player.name)
      return shown + (player.level.map { ", \(VisibleText.escaping($0))" } ?? "") + " (\(mark))"
    }
    return "\(name(record.black, .x)) vs \(name(record.white, .o))"
  }

  /// The rules, the date and the result: `3×3, 3 in a row · 2026-12-01 · X won with a line`, and the opening
  /// when it was not the usual one (`· Swap2: two, white`).
  public var summary: String {
    let date = record.date.isEmpty ? "no date" : VisibleText.escaping(record.date)
    let opening = record.opening.map { " · \($0.shown)" } ?? ""
    return "\(record.rules) · \(date) · \(record.result)\(opening)"
  }

  /// The board after `shown` moves as text with coordinates: rows numbered from the bottom, columns lettered.
  public static func boardText(_ game: Game) -> String {
    let rules = game.rules
    let coordinates = Coordinates(rules)
    let width = String(rules.rows).count
    var lines: [String] = []
    for row in 0..<rules.rows {
      let label = coordinates.rowName(row)
      var line = String(repeating: " ", count: width - label.count) + label
      for column in 0..<rules.columns {
        line += " " + (game.board[Position(row: row, column: column)].map { "\($0)" } ?? ".")
      }
      lines.append(line)
    }
    let letters = (0..<rules.columns).map { coordinates.columnName($0) }.joined(separator: " ")
    lines.append(String(repeating: " ", count: width + 1) + letters)
    return lines.joined(separator: "\n")
  }

  /// Plain mode: the header, then the board after every move, each under its move.
  public var plainText: String {
    var out = "\(players)\n\(summary)\n\nstart:\n\(Replay.boardText(Game(rules: record.rules)))\n"
    var game = Game(rules: record.rules)
    for number in 1...max(1, record.moves.count) where number <= record.moves.count {
      try? game.play(record.moves[number - 1])
      out += "\nmove \(moveText(number)):\n\(Replay.boardText(game))\n"
    }
    return out + "\nresult: \(record.result)\n"
  }
}
