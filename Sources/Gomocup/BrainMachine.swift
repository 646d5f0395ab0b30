import GameCore

/// The brain side of the Gomocup protocol as a state machine: the manager's lines in, the brain's answers out.
/// It does no I/O and keeps no clock: when a move is wanted it asks for a search (`Output.search`) and hears
/// the chosen cell through `chose(_:)`. Five in a row, freestyle (an overline wins), boards from 5×5 to 15×15.
public struct BrainMachine: Sendable {
  /// What the brain does after a line.
  public enum Output: Sendable, Equatable {
    /// A line to write (the shell ends it with CR LF).
    case reply(String)
    /// Choose a move for the side to move in `game` within `milliseconds`, then call `chose(_:)`.
    case search(Game, milliseconds: Int)
    /// Answer the Swap2 opening as its actor within `milliseconds` (`Swap2Computer`), then call `answered(_:)`.
    case swap2(Swap2, milliseconds: Int)
    /// END: exit without a word.
    case end
  }

  /// Who is named in ABOUT.
  public struct About: Sendable, Equatable {
    public var name: String
    public var version: String
    public init(name: String, version: String) {
      self.name = name
      self.version = version
    }
  }

  /// Board sides the brain plays: five in a row needs five; the game core stops at 15.
  public static let sides = 5...Rules.sideRange.upperBound
  /// The INFO rule values this brain plays, and the variant each means: 0 freestyle (an overline wins), 1
  /// exactly five, 4 renju. Any other (2 a continuous game, 8 caro, or a mix) is refused with ERROR.
  public static let ruleVariants: [Int: RuleVariant] = [0: .freestyle, 1: .exactFive, 4: .renju]

  /// The INFO rule value that names `variant`.
  public static func ruleNumber(of variant: RuleVariant) -> Int {
    switch variant {
    case .freestyle: 0
    case .exactFive: 1
    case .renju: 4
    }
  }
  /// The smallest max_memory the brain can keep to (bytes): the program's own size while it plays 15×15,
  /// measured, with room to spare (docs/ENGINES.md).
  public static let memoryFloor = 32 * 1024 * 1024

  enum Phase: Sendable, Equatable {
    /// No START yet (or it was refused).
    case unstarted
    /// A board is set; commands are awaited.
    case ready
    /// Between BOARD and DONE: the stones so far, and the first fault, answered at DONE.
    case board(lines: Int, fault: String?)
    /// Between SWAP2BOARD and DONE: the stones so far, and the first fault, answered at DONE.
    case swap2(lines: Int, stones: [Position], fault: String?)
    /// A search was asked for and not answered yet.
    case searching
    /// A Swap2 answer was asked for and not given yet.
    case answeringSwap2(Swap2)
    case ended
  }

  public let about: About
  public private(set) var limits = BrainLimits()
  public private(set) var rule = 0
  var phase = Phase.unstarted
  /// The board's rules once START or RECTSTART was accepted.
  public internal(set) var rules: Rules?
  /// Stones by their owner: the brain's own and the opponent's.
  public internal(set) var stones = BrainStones()
  private var pending = BrainStones()

  public init(about: About) { self.about = about }

  public var hasEnded: Bool { phase == .ended }

  /// Reads one line from the manager.
  public mutating func receive(_ raw: String) -> [Output] {
    guard phase != .ended else { return [] }
    guard raw.utf8.count <= ProtocolText.lineLimit else {
      if case .board(let lines, let fault) = phase {
        phase = .board(lines: lines + 1, fault: fault ?? "a line of more than \(ProtocolText.lineLimit) bytes")
        return []
      }
      return [.reply("ERROR the line is longer than \(ProtocolText.lineLimit) bytes and was ignored")]
    }
    let line = ProtocolText.trimmed(raw)
    if line.isEmpty { return [] }
    let (keyword, rest) = ProtocolText.split(line)
    if keyword == "END" {
      phase = .ended
      return [.end]
    }
    switch phase {
    case .board(let lines, let fault): return boardLine(line, keyword: keyword, lines: lines, fault: fault)
    case .swap2(let lines, let stones, let fault):
      return swap2Line(line, keyword: keyword, read: (lines, stones), fault: fault)
    case .searching, .answeringSwap2:
      return [.reply("ERROR a move is being chosen; the line \"\(ProtocolText.echo(keyword))\" came too early")]
    default: return command(keyword, rest)
    }
  }

  /// The cell the search chose: played as the brain's, and answered.
  public mutating func chose(_ position: Position) -> [Output] {
    guard phase == .searching else { return [] }
    phase = .ready
    stones.own.append(position)
    return [.reply(ProtocolText.cell(position))]
  }

  private mutating func command(_ keyword: String, _ rest: Substring) -> [Output] {
    switch keyword {
    case "START":
      guard let side = ProtocolText.number(rest) else {
        return [.reply("ERROR START needs a board size such as START 15")]
      }
      return start(width: side, height: side)
    case "RECTSTART":
      guard let sides = ProtocolText.numbers(rest, count: 2) else {
        return [.reply("ERROR RECTSTART needs a width and a height such as RECTSTART 15,10")]
      }
      return start(width: sides[0], height: sides[1])
    case "INFO":
      return info(rest)
    case "ABOUT":
      return [.reply("name=\"\(about.name)\", version=\"\(about.version)\", author=\"the tictactoe authors\"")]
    default:
      break
    }
    guard let rules, phase == .ready else {
      return [.reply("ERROR no board yet: send START or RECTSTART first")]
    }
    switch keyword {
    case "RESTART":
      stones = BrainStones()
      return [.reply("OK")]
    case "BEGIN":
      guard stones.isEmpty else { return [.reply("ERROR BEGIN needs an empty board: send RESTART first")] }
      return search()
    case "TURN":
      return turn(rest, rules: rules)
    case "BOARD":
      pending = BrainStones()
      phase = .board(lines: 0, fault: nil)
      return []
    case "TAKEBACK":
      return takeBack(rest, rules: rules)
    case "SWAP2BOARD":
      phase = .swap2(lines: 0, stones: [], fault: nil)
      return []
    default:
      return [.reply("UNKNOWN \(ProtocolText.echo(keyword)) is not a command this brain knows")]
    }
  }

  /// TURN: the opponent's stone at the cell given, then the brain's search (the stone taken off again when the
  /// search is refused with an error).
  private mutating func turn(_ rest: Substring, rules: Rules) -> [Output] {
    switch ProtocolText.cell(rest, on: rules) {
    case .failure(let error): return [.reply("ERROR TURN \(error)")]
    case .success(let position):
      guard stones.owner(of: position) == nil else {
        return [.reply("ERROR TURN \(ProtocolText.cell(position)) is already taken")]
      }
      stones.opponent.append(position)
      let outputs = search()
      if case .reply = outputs.first { stones.opponent.removeLast() }
      return outputs
    }
  }

  /// TAKEBACK: the stone at the cell given taken off the board, whoever's it is.
  private mutating func takeBack(_ rest: Substring, rules: Rules) -> [Output] {
    switch ProtocolText.cell(rest, on: rules) {
    case .failure(let error): return [.reply("ERROR TAKEBACK \(error)")]
    case .success(let position):
      guard stones.remove(position) else {
        return [.reply("ERROR TAKEBACK \(ProtocolText.cell(position)): there is no stone there to take back")]
      }
      return [.reply("OK")]
    }
  }

  private mutating func start(width: Int, height: Int) -> [Output] {
    guard Self.sides.contains(width), Self.sides.contains(height) else {
      return [
        .reply(
          "ERROR a \(width)x\(height) board is not supported: five in a row is played on boards from "
            + "\(Self.sides.lowerBound) to \(Self.sides.upperBound) on a side")
      ]
    }
    do {
      rules = try Rules(rows: height, columns: width, k: 5, variant: Self.ruleVariants[rule] ?? .freestyle)
    } catch {
      return [.reply("ERROR a \(width)x\(height) board is not supported: \(error)")]
    }
    stones = BrainStones()
    phase = .ready
    return [.reply("OK")]
  }

  private mutating func info(_ rest: Substring) -> [Output] {
    let (key, value) = ProtocolText.split(rest)
    let known = ["TIMEOUT_TURN", "TIMEOUT_MATCH", "TIME_LEFT", "MAX_MEMORY", "RULE", "GAME_TYPE"]
    // Keys the brain does not use (evaluate, folder, and any a later manager adds) are ignored, as the
    // protocol asks.
    guard known.contains(key) else { return [] }
    guard let number = ProtocolText.number(value) else {
      return [.reply("ERROR INFO \(key.lowercased()) needs a whole number of at most 9 digits")]
    }
    switch key {
    case "TIMEOUT_TURN": limits.turnMilliseconds = number
    case "TIMEOUT_MATCH": limits.matchMilliseconds = number
    case "TIME_LEFT": limits.leftMilliseconds = number
    case "MAX_MEMORY":
      limits.memoryBytes = number
      if number != 0, number < Self.memoryFloor {
        return [
          .reply(
            "ERROR max_memory \(number) bytes is less than this brain needs (\(Self.memoryFloor) bytes); "
              + "allow more memory or 0 for no limit")
        ]
      }
    case "RULE":
      guard let variant = Self.ruleVariants[number] else {
        return [
          .reply(
            "ERROR rule \(number) is not supported: this brain plays freestyle (rule 0), exactly five (1) and "
              + "renju (4), not continuous games (2), caro (8) or a mix")
        ]
      }
      rule = number
      if let current = rules, let changed = try? current.with(variant) { rules = changed }
    default: break  // game_type: who the opponent is changes nothing here
    }
    return []
  }

  private mutating func boardLine(_ line: Substring, keyword: String, lines: Int, fault: String?) -> [Output] {
    guard let rules else { return [] }
    if keyword == "DONE" {
      phase = .ready
      if let fault { return [.reply("ERROR BOARD refused: \(fault)")] }
      let previous = stones
      stones = pending
      let outputs = search()
      if case .reply = outputs.first { stones = previous }
      return outputs
    }
    // A manager that never says DONE is stopped after a board's worth of lines (and some).
    guard lines < rules.cellCount + 8 else {
      phase = .ready
      return [.reply("ERROR BOARD refused: more lines than the board has cells, and no DONE")]
    }
    var fault = fault
    if fault == nil { fault = pending.add(line, on: rules) }
    phase = .board(lines: lines + 1, fault: fault)
    return []
  }

  /// Asks for a search on the current stones, or says why there is no move to choose.
  private mutating func search() -> [Output] {
    guard let rules else { return [.reply("ERROR no board yet: send START or RECTSTART first")] }
    switch stones.game(rules: rules) {
    case .failure(let fault):
      return [.reply("ERROR \(fault)")]
    case .success(let game):
      if let winner = game.outcome?.winner {
        let who = winner == game.turn ? "this brain" : "the opponent"
        return [.reply("ERROR the game is over: \(who) already has five in a row")]
      }
      if game.endedWithOnlyForbiddenCells {
        return [.reply("ERROR the game is over: a draw, every empty cell is forbidden to black under renju")]
      }
      if game.isOver { return [.reply("ERROR the game is over: the board is full")] }
      phase = .searching
      return [.search(game, milliseconds: limits.searchMilliseconds(emptyCells: game.legalMoves.count))]
    }
  }
}
