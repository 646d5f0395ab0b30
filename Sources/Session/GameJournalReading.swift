import ExplainedErrors
import GameCore

extension GameJournal {
  /// Reads a journal's text, for the game between `myKey` and `peerKey`: any other pair's journal, a damaged one,
  /// one whose SHA-256 does not match or whose moves cannot be played is refused, naming what is wrong. Nothing
  /// is read from a refused journal: a game is never rebuilt from part of one.
  public init(text: String, myKey: String, peerKey: String, sha256: ([UInt8]) -> [UInt8]) throws(JournalError) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    guard lines.first?.hasPrefix("tictactoe journal ") == true else { throw .notAJournal }
    let format = String(lines[0].dropFirst("tictactoe journal ".count))
    guard let format = Int(format), (1...Self.version).contains(format), lines[0].hasSuffix(" \(format)") else {
      throw .unknownVersion(format)
    }
    guard let last = lines.last, last.hasPrefix("sha256 "), lines.count >= 9 + format else { throw .incomplete }
    let body = lines.dropLast().joined(separator: "\n") + "\n"
    guard last == "sha256 \(Self.hex(sha256(Array(body.utf8))))" else { throw .checksumMismatch }
    var reader = JournalLines(lines: Array(lines.dropLast()), next: 1)
    let me = try reader.word("me")
    let peer = try reader.word("peer")
    guard me == myKey, peer == peerKey else { throw .otherKeys }
    let role: Role = try reader.choice("role", ["host": .host, "joiner": .joiner])
    let rules = try reader.rules()
    let control = try reader.clock()
    let version = try reader.numbers("protocol", count: 1)[0]
    guard version >= 3 else { throw .badLine(number: 7, "protocol \(version): journals are of version 3 games") }
    let game = try reader.numbers("game", count: 1)[0]
    guard game >= 1 else { throw .badLine(number: 8, "game 0") }
    let hostPlaysX = try reader.choice("x", ["host": true, "joiner": false])
    // Version 2: the score of the games before this one.
    let score = try format < 2 ? nil : reader.numbers("score", count: 3)
    // Version 3: a Swap2 opening's choices.
    let choices = try format < 3 ? [] : reader.choices()
    let (moves, times) = try reader.moves(timed: control.isTimed)
    var board = Game(rules: rules)
    for (ply, move) in moves.enumerated() {
      do {
        try board.play(move, by: board.turn)
      } catch {
        throw .badLine(number: 9 + format + ply, "the move cannot be played: \(error.reason)")
      }
    }
    self.init(
      myKey: me, peerKey: peer, role: role, rules: rules, timeControl: control, protocolVersion: version,
      gameNumber: game, hostPlaysX: hostPlaysX, moves: moves, times: times,
      score: score.map { MatchScore(hostWins: $0[0], joinerWins: $0[1], draws: $0[2]) }, choices: choices)
  }
}

/// The journal's lines read in order, each checked for its word and its numbers.
private struct JournalLines {
  let lines: [String]
  var next: Int

  mutating func line(_ word: String) throws(JournalError) -> [Substring] {
    guard next < lines.count else { throw .incomplete }
    let words = lines[next].split(separator: " ", omittingEmptySubsequences: false)
    guard words.first.map(String.init) == word, words.count >= 2 else {
      throw .badLine(number: next + 1, "expected \(word)")
    }
    next += 1
    return Array(words.dropFirst())
  }

  mutating func word(_ word: String) throws(JournalError) -> String {
    let words = try line(word)
    guard words.count == 1, !words[0].isEmpty else { throw .badLine(number: next, "\(word) takes one word") }
    return String(words[0])
  }

  mutating func choice<T>(_ word: String, _ choices: [String: T]) throws(JournalError) -> T {
    let value = try self.word(word)
    guard let chosen = choices[value] else { throw .badLine(number: next, "\(word) \(value)") }
    return chosen
  }

  /// The line of a Swap2 opening's choices: one or two of black, white and place-two.
  mutating func choices() throws(JournalError) -> [Swap2.Choice] {
    let words = try line("opening")
    let choices = words.compactMap { Swap2.Choice(rawValue: String($0)) }
    guard choices.count == words.count, choices.count <= 2 else {
      throw .badLine(number: next, "opening \(words.joined(separator: " "))")
    }
    return choices
  }

  mutating func numbers(_ word: String, count: Int) throws(JournalError) -> [Int] {
    let words = try line(word)
    return try Self.numbers(words, count: count, line: next)
  }

  static func numbers(_ words: [Substring], count: Int, line: Int) throws(JournalError) -> [Int] {
    let values = words.compactMap { $0.allSatisfy(\.isASCII) ? Int($0) : nil }
    guard values.count == count, words.count == count, values.allSatisfy({ (0...999_999_999).contains($0) })
    else { throw .badLine(number: line, "expected \(count) numbers") }
    return values
  }

  /// `rules ROWS COLUMNS K`, and a rule variant's name after them when it is not freestyle (protocol version 4).
  mutating func rules() throws(JournalError) -> Rules {
    var words = try line("rules")
    var variant = RuleVariant.freestyle
    if words.count == 4, let last = words.last {
      guard let named = RuleVariant(name: String(last)), named != .freestyle else {
        throw .badLine(number: next, "\(last) is not a rule variant")
      }
      variant = named
      words.removeLast()
    }
    let values = try Self.numbers(words, count: 3, line: next)
    do {
      return try Rules(rows: values[0], columns: values[1], k: values[2], variant: variant)
    } catch {
      throw .badLine(number: next, error.reason)
    }
  }

  mutating func clock() throws(JournalError) -> TimeControl {
    guard next < lines.count, lines[next] != "clock none" else {
      _ = try word("clock")
      return .none
    }
    let words = try line("clock")
    let times = try Self.numbers(Array(words.dropFirst()), count: words.first == "fischer" ? 2 : 1, line: next)
    let control: TimeControl
    switch words.first {
    case "fischer": control = .fischer(base: times[0], increment: times[1])
    case "move": control = .perMove(times[0])
    default: throw .badLine(number: next, "not a clock")
    }
    do {
      return try TimeControl.checked(control)
    } catch {
      throw .badLine(number: next, error.reason)
    }
  }

  /// The moves to the end, each `move ROW COLUMN` and, in a timed game, its charge and the time left after it.
  mutating func moves(timed: Bool) throws(JournalError) -> ([Position], [GameClock.AgreedTime]) {
    var moves: [Position] = []
    var times: [GameClock.AgreedTime] = []
    while next < lines.count {
      let words = try line("move")
      let values = try Self.numbers(words, count: timed && words.count == 4 ? 4 : 2, line: next)
      guard times.count == moves.count || values.count == 2 else {
        throw .badLine(number: next, "a time after a move without one")
      }
      moves.append(Position(row: values[0], column: values[1]))
      if values.count == 4 { times.append(GameClock.AgreedTime(charged: values[2], left: values[3])) }
    }
    return (moves, times)
  }
}

/// Why a journal (PROTOCOL.md rule 19) was not used.
public enum JournalError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// It does not begin as a journal does.
  case notAJournal
  /// A journal of a later program.
  case unknownVersion(String)
  /// It ends before its last line (the SHA-256).
  case incomplete
  /// Its SHA-256 does not match its lines: changed or damaged.
  case checksumMismatch
  /// A line that does not read, by its number from 1.
  case badLine(number: Int, String)
  /// It keeps a game between other keys than this player's and this opponent's.
  case otherKeys

  public var code: String {
    switch self {
    case .notAJournal: "journal.not-a-journal"
    case .unknownVersion: "journal.unknown-version"
    case .incomplete: "journal.incomplete"
    case .checksumMismatch: "journal.checksum"
    case .badLine: "journal.bad-line"
    case .otherKeys: "journal.other-keys"
    }
  }

  public var reason: String {
    switch self {
    case .notAJournal: "the file is not a game journal"
    case .unknownVersion(let version): "the journal is of version \(version), which this program does not read"
    case .incomplete: "the journal ends early"
    case .checksumMismatch: "the journal's SHA-256 does not match its lines: it was changed or damaged"
    case .badLine(let number, let what): "line \(number) of the journal does not read (\(what))"
    case .otherKeys: "the journal keeps a game between other keys"
    }
  }

  public var hint: String? {
    switch self {
    case .unknownVersion: "use the program that wrote it, or remove the file to give the game up"
    case .otherKeys: "it is not used for this opponent; remove the file if you do not need it"
    default: "the game in it cannot be resumed from it; remove the file to give the game up"
    }
  }

  public var description: String { hint.map { "\(reason): \($0)" } ?? reason }
}
