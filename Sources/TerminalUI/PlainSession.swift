import GameCore

/// The plain line mode, for screen readers and scripts: the board as text after every move, moves read as a
/// coordinate ("h8"), a cell number or "row,col", errors on lines starting "error:", and a final "result:" line.
/// Pure: the driver feeds it lines and computer moves and prints what it returns.
public struct PlainSession: Sendable {
  public internal(set) var game: Game
  public let opponent: Opponent
  /// The player's mark (P1's in hot seat); in a Swap2 game, the one the first player holds until the colours
  /// are settled, then the one it ended with.
  public internal(set) var humanMark: Mark
  /// The Swap2 opening and every move after it, in a game that opens so (nil: the usual opening).
  public internal(set) var swap2: Swap2?
  /// The player's place in a Swap2 opening: first (tentative) when it began with X, P1 in hot seat.
  public let humanSwap2Player: Swap2.Player
  /// Both clocks of a timed game (nil: untimed), read at the times the driver gives; in a Swap2 game they count
  /// turns from the first stone, as a network game's do (`LocalClock.swap2`).
  public internal(set) var clock: LocalClock?

  /// A game begun at `now` (the driver's monotonic seconds) under `control` (an engine's game is never timed
  /// here: it keeps its own time).
  /// With `opening` Swap2 (on rules it supports, not against an engine: the command line checks), the player
  /// with `humanMark` X is the first (tentative) player, and a timed game's clocks count its turns from the first
  /// stone: the side that places or chooses is the side whose clock runs.
  public init(
    opponent: Opponent, rules: Rules, humanMark: Mark, clock control: TimeControl = .none, now: Double = 0,
    opening: Opening = .standard
  ) {
    self.game = Game(rules: rules)
    self.opponent = opponent
    self.humanMark = humanMark
    self.humanSwap2Player = humanMark == .x ? .first : .second
    if opening == .swap2 { swap2 = try? Swap2(rules: rules) }
    if case .engine = opponent {
    } else {
      clock = swap2 == nil ? LocalClock(control, now: now) : LocalClock.swap2(control, now: now)
    }
  }

  var isComputerGame: Bool {
    if case .computer = opponent { return true }
    return false
  }

  public var isFinished: Bool { game.isOver || clock?.flagged != nil }

  var isEngineGame: Bool {
    if case .engine = opponent { return true }
    return false
  }

  /// Whether the driver should ask the engine for a move now (in a Swap2 game, once the colours are settled).
  public var engineToMove: Bool {
    if let swap2 {
      return isEngineGame && !isFinished && swap2.isSettled && swap2.actor == humanSwap2Player.other
    }
    return isEngineGame && !isFinished && game.turn != humanMark
  }

  /// Whether the driver should ask the computer for a move now.
  public var computerToMove: Bool {
    if let swap2 {
      return isComputerGame && !isFinished && swap2.isSettled && swap2.actor == humanSwap2Player.other
    }
    return isComputerGame && !isFinished && game.turn != humanMark
  }

  /// The opening text: who plays what, how to enter moves, and the empty board.
  public func introduction() -> String {
    let rules = game.rules
    var lines = ["tictactoe: \(rules)."]
    if rules.variant != .freestyle { lines.append("Rule: \(rules.variant.summary).") }
    switch opponent {
    case .computer(let level):
      lines.append("You play \(humanMark) against the computer (\(level.shown(on: rules))). X moves first.")
    case .engine(let name):
      lines.append("You play \(humanMark) against the engine \(name). X moves first.")
    case .hotseat:
      lines.append("Two players: X moves first, then O.")
    }
    if let clock, clock.countsTurns {
      lines.append("Clock: \(clock.control.spoken) for each side, from the first stone; each turn is charged.")
    } else if let clock {
      lines.append("Clock: \(clock.control.spoken) for each side; a clock starts after that side's first move.")
    }
    lines += swap2Introduction
    let timed = clock != nil
    lines += PlainSession.howToMove(rules) + ["Other commands: \(timed ? "clock" : "undo"), help, quit."]
    return lines.joined(separator: "\n") + "\n" + boardText() + "\n" + (swap2StatusLine.map { $0 + "\n" } ?? "")
  }

  /// The prompt to print before reading a line (no newline).
  public var prompt: String {
    if let swap2Prompt { return swap2Prompt }
    if isComputerGame || isEngineGame { return "your move (\(humanMark)): " }
    return "\(game.turn) to move: "
  }

  /// Handles one line of input and returns the text to print.
  public mutating func handle(line raw: String, now: Double = 0) -> String {
    // A line typed after the flag fell plays nothing: the game was lost on time.
    if let text = flagIfDue(now: now) { return text }
    let line = raw.trimmingSpaces().lowercased()
    switch line {
    case "help", "h", "?":
      return introduction()
    case "undo", "u":
      if clock != nil { return "error: a timed game cannot be taken back\n" }
      return swap2 == nil ? undo() : swap2Undo()
    case "clock":
      return (clockLine(now: now) ?? "this game has no clock") + "\n"
    default:
      break
    }
    if let text = swap2Choice(line, now: now) { return text }
    switch PlainSession.readMove(raw, rules: game.rules) {
    case .failure(let error):
      return "error: \(error)\n"
    case .success(let position):
      if computerToMove { return "error: it is the computer's turn\n" }
      if engineToMove { return "error: it is the engine's turn\n" }
      if swap2 != nil { return swap2Place(position, by: nil, now: now) }
      return play(position, announce: nil, now: now)
    }
  }

  /// Applies the engine's move (already checked legal) and returns the text to print.
  public mutating func engineMoved(_ position: Position) -> String {
    if swap2 != nil { return swap2Place(position, by: humanSwap2Player.other) }
    return play(position, announce: "engine plays \(PlainSession.moveName(position, rules: game.rules))", now: 0)
  }

  /// Applies the computer's move, chosen by `now`, and returns the text to print (a loss on time when its flag
  /// fell first).
  public mutating func computerMoved(_ position: Position, now: Double = 0) -> String {
    if let text = flagIfDue(now: now) { return text }
    if swap2 != nil { return swap2Place(position, by: humanSwap2Player.other, now: now) }
    return play(position, announce: "computer plays \(PlainSession.moveName(position, rules: game.rules))", now: now)
  }

  mutating func play(_ position: Position, announce: String?, now: Double) -> String {
    do {
      try game.play(position)
    } catch {
      return "error: \(PlainSession.describe(error, rules: game.rules))\n"
    }
    clock?.moved(now: now, ends: game.isOver)
    var text = announce.map { $0 + "\n" } ?? ""
    text += boardText() + "\n"
    if !game.isOver, let line = clockLine(now: now) { text += line + "\n" }
    if let outcome = game.outcome {
      switch outcome.winner {
      case .some(let mark): text += "result: \(mark) wins\n"
      case nil where game.endedWithOnlyForbiddenCells:
        text += "result: draw (every empty cell is forbidden to X under renju)\n"
      case nil: text += "result: draw\n"
      }
    }
    return text
  }

  /// When the running clock's flag falls (the driver wakes then and calls `flagIfDue`); nil when none runs.
  public var flagDeadline: Double? { clock?.flagDeadline }

  /// The running clock's flag falls if its time is out at `now`: the lines that end the game on time, once.
  public mutating func flagIfDue(now: Double) -> String? {
    guard let side = clock?.flagIfDue(now: now) else { return nil }
    let loser = LocalClock.colour(ofSide: side, in: swap2)
    let names = clockNames
    let who =
      opponent == .hotseat
      ? "\(side == clockSide ? names.0 : names.1)'s" : side == clockSide ? "your" : "the computer's"
    return "\(who) time is up\nresult: \(loser.opponent) wins (\(loser) lost on time)\n"
  }

  /// "clock: you 0:08, computer 0:10 (yours is running)"; with two players "clock: X 0:08, O 0:10 (X's is
  /// running)" (in a Swap2 game "P1" and "P2": the clocks are the players' places, whatever colours they end
  /// with); nil in an untimed game.
  public func clockLine(now: Double) -> String? {
    guard let clock else { return nil }
    return NetGameState.Clocks(clock, mine: clockSide, now: now).plainLine(names: clockNames)
  }

  /// The player's clock side (P1's in hot seat): its mark, or in a Swap2 game its place's (X the first player).
  var clockSide: Mark { swap2 == nil ? humanMark : humanSwap2Player == .first ? .x : .o }

  /// The names the clock line gives the player's side and the other.
  private var clockNames: (String, String) {
    guard opponent == .hotseat else { return ("you", "computer") }
    return swap2 == nil ? ("\(humanMark)", "\(humanMark.opponent)") : ("P1", "P2")
  }

  /// The most the computer may search for its move at `now`, in milliseconds: its usual budget, bounded by its
  /// time left on a running clock.
  public func searchBudget(now: Double) -> Int {
    clock?.searchBudget(now: now, emptyCells: game.legalMoves.count, usual: AIPlayer.usualMilliseconds)
      ?? AIPlayer.usualMilliseconds
  }

  private mutating func undo() -> String {
    if isEngineGame { return "error: a game against an engine cannot be taken back\n" }
    let humanPlies = game.history.indices.filter { ($0.isMultiple(of: 2) ? Mark.x : .o) == humanMark }
    guard !game.history.isEmpty, !isComputerGame || !humanPlies.isEmpty else { return "error: nothing to undo\n" }
    while let last = game.history.indices.last {
      game.undo()
      if !isComputerGame || (last.isMultiple(of: 2) ? Mark.x : .o) == humanMark { break }
    }
    return "undone\n" + boardText() + "\n"
  }

  /// Reads a move typed for `rules` in any of the forms `Coordinates` reads; when it names no cell, why, as the
  /// player is told it after "error: ".
  public static func readMove(_ raw: String, rules: Rules) -> Result<Position, PlainMoveError> {
    switch Coordinates(rules).parse(raw) {
    case .success(let position): return .success(position)
    case .failure(.empty): return .failure(PlainMoveError(description: hint(rules)))
    case .failure(.notAMove(let text)):
      return .failure(PlainMoveError(description: "\"\(text)\" is not a move; \(hint(rules))"))
    case .failure(let error): return .failure(PlainMoveError(description: error.description))
    }
  }

  /// What to type: "type a cell number (1-9) or row,col", with coordinates on boards larger than 3×3.
  static func hint(_ rules: Rules) -> String {
    guard BoardLayout.isLabelled(rules) else { return "type a cell number (1-\(rules.cellCount)) or row,col" }
    return "type a coordinate (\(Coordinates(rules).range)), a cell number (1-\(rules.cellCount)) or row,col"
  }

  /// The introduction's lines on the forms a move is typed in, both ways of counting rows side by side, each
  /// line within 80 columns.
  static func howToMove(_ rules: Rules) -> [String] {
    guard BoardLayout.isLabelled(rules) else {
      return ["Enter a move as a cell number (1-\(rules.cellCount), row by row from the top left) or as row,col."]
    }
    let names = Coordinates(rules)
    let centre = names.name(of: Position(row: rules.rows / 2, column: rules.columns / 2))
    let columns = "a-\(names.columnName(rules.columns - 1))"
    return [
      "Type a move as a coordinate such as \(centre) (column \(columns), row 1-\(rules.rows) from the bottom),",
      "a cell number (1-\(rules.cellCount), from the top left) or row,col (rows from the top).",
    ]
  }

  /// A refused move in the words of the board: "e5 is already taken by X" where the board has coordinates.
  public static func describe(_ error: MoveError, rules: Rules) -> String {
    guard BoardLayout.isLabelled(rules) else { return error.description }
    switch error {
    case .occupied(let position, let mark): return "\(moveName(position, rules: rules)) is already taken by \(mark)"
    case .forbidden(let position, let foul):
      return "\(moveName(position, rules: rules)) is forbidden to X under renju (\(foul)): \(foul.explanation)"
    default: return error.description
    }
  }

  /// How a move is named in messages: "h8" on a board with coordinates, "5 (row 2, column 2)" on 3×3.
  public static func moveName(_ position: Position, rules: Rules) -> String {
    guard BoardLayout.isLabelled(rules) else { return "\(position.cellNumber(in: rules)) (\(position))" }
    return Coordinates(rules).name(of: position)
  }

  /// The board, one text line per row: marks as X and O, empty cells as their numbers.
  public func boardText() -> String { PlainSession.boardText(game) }

  /// `game`'s board as text lines. On 3×3: marks as X and O, empty cells as their numbers, ruled. Larger: one
  /// line per row, the row number (from the bottom) first, "." for an empty cell, the column letters on the
  /// first line: 15×15 takes 32 columns.
  public static func boardText(_ game: Game) -> String {
    let rules = game.rules
    if BoardLayout.isLabelled(rules) { return labelledBoardText(game) }
    let width = String(rules.cellCount).count
    var rows: [String] = []
    for r in 0..<rules.rows {
      var cells: [String] = []
      for c in 0..<rules.columns {
        let position = Position(row: r, column: c)
        let text = game.board[position].map { "\($0)" } ?? String(position.cellNumber(in: rules))
        cells.append(String(repeating: " ", count: width - text.count) + text)
      }
      rows.append(" " + cells.joined(separator: " | "))
    }
    let rule = Array(repeating: String(repeating: "-", count: width + 2), count: rules.columns).joined(separator: "+")
    return rows.joined(separator: "\n" + rule + "\n")
  }

  static func labelledBoardText(_ game: Game) -> String {
    let rules = game.rules
    let names = Coordinates(rules)
    var lines = ["   " + (0..<rules.columns).map(names.columnName).joined(separator: " ")]
    for r in 0..<rules.rows {
      let number = names.rowName(r)
      let cells = (0..<rules.columns).map { c in game.board[Position(row: r, column: c)].map { "\($0)" } ?? "." }
      lines.append(String(repeating: " ", count: 2 - number.count) + number + " " + cells.joined(separator: " "))
    }
    return lines.joined(separator: "\n")
  }
}

/// Why a typed line is not a move, in the words plain mode prints after "error: ".
public struct PlainMoveError: Error, Sendable, Equatable, CustomStringConvertible {
  public let description: String
}

extension String {
  func trimmingSpaces() -> String {
    var s = Substring(self)
    while s.first?.isWhitespace == true { s.removeFirst() }
    while s.last?.isWhitespace == true { s.removeLast() }
    return String(s)
  }
}
