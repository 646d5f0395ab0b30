import ExplainedErrors

/// How much time each side has in a game: none, Fischer (a base and an increment added after each move) or a
/// fixed time for every move (Gomocup's timeout_turn). Times are whole milliseconds. docs/PROTOCOL.md, "The
/// terms", has the grammar `init(parsing:)` reads and `description` writes.
public enum TimeControl: Sendable, Hashable, CustomStringConvertible {
  case none
  /// `base` milliseconds for the game, `increment` added after each move.
  case fischer(base: Int, increment: Int)
  /// `perMove` milliseconds for every move.
  case perMove(Int)

  /// The longest base, increment or time per move: a day.
  public static let maximumMilliseconds = 86_400_000

  /// Whether a clock runs at all.
  public var isTimed: Bool { self != .none }

  /// The time a side starts with: the Fischer base, or the time for each move (0 untimed).
  public var base: Int {
    switch self {
    case .none: 0
    case .fischer(let base, _): base
    case .perMove(let time): time
    }
  }

  /// Reads `none`, `5+3` (minutes and seconds), `30s+2` (seconds and seconds) or `move:20s`.
  public init(parsing text: String) throws(TimeControlError) {
    let text = text.trimmingSpaces
    if text == "none" {
      self = .none
      return
    }
    if text.hasPrefix("move:") {
      let time = try Self.milliseconds(String(text.dropFirst(5)), part: .perMove, unitIsMinutes: false)
      guard time > 0 else { throw .zero(.perMove) }
      self = .perMove(time)
      return
    }
    let parts = text.split(separator: "+", omittingEmptySubsequences: false)
    guard parts.count == 2 else { throw .notAClock(text) }
    let base = try Self.milliseconds(String(parts[0]), part: .base, unitIsMinutes: true)
    guard base > 0 else { throw .zero(.base) }
    let increment = try Self.milliseconds(String(parts[1]), part: .increment, unitIsMinutes: false)
    self = .fischer(base: base, increment: increment)
  }

  /// Checks times that came from elsewhere (the wire): the error names the part at fault.
  public static func checked(_ control: TimeControl) throws(TimeControlError) -> TimeControl {
    switch control {
    case .none: return control
    case .fischer(let base, let increment):
      guard base > 0 else { throw .zero(.base) }
      guard base <= maximumMilliseconds else { throw .tooLong(.base) }
      guard (0...maximumMilliseconds).contains(increment) else { throw .tooLong(.increment) }
    case .perMove(let time):
      guard time > 0 else { throw .zero(.perMove) }
      guard time <= maximumMilliseconds else { throw .tooLong(.perMove) }
    }
    return control
  }

  /// A number of minutes (`5`, `1.5`) or, with `s` (always for the increment and the time per move), seconds,
  /// in milliseconds.
  private static func milliseconds(_ text: String, part: TimeControlError.Part, unitIsMinutes: Bool)
    throws(TimeControlError) -> Int
  {
    var digits = Substring(text)
    var scale = unitIsMinutes ? 60_000 : 1_000
    if digits.hasSuffix("s") {
      digits = digits.dropLast()
      scale = 1_000
    }
    let pieces = digits.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(pieces.count), pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
      pieces[0].count <= 6, pieces.count == 1 || pieces[1].count <= 3
    else { throw .badNumber(text, part) }
    let whole = Int(pieces[0]) ?? 0
    let fraction = pieces.count == 2 ? pieces[1] : ""
    let thousandths = Int(fraction + String(repeating: "0", count: 3 - fraction.count)) ?? 0
    let total = whole * scale + thousandths * scale / 1_000
    guard total <= maximumMilliseconds else { throw .tooLong(part) }
    return total
  }

  /// `none`, `5+3`, `30s+2`, `move:20s`: what `init(parsing:)` reads back.
  public var description: String {
    switch self {
    case .none: return "none"
    case .fischer(let base, let increment):
      let minutes = base.isMultiple(of: 60_000) ? "\(base / 60_000)" : "\(Self.seconds(base))s"
      return "\(minutes)+\(Self.seconds(increment))"
    case .perMove(let time): return "move:\(Self.seconds(time))s"
    }
  }

  /// What a player reads: "no clock", "5 min + 3 s a move", "30 s + 2 s a move", "20 s a move".
  public var spoken: String {
    switch self {
    case .none: return "no clock"
    case .fischer(let base, let increment):
      let whole = base.isMultiple(of: 60_000) ? "\(base / 60_000) min" : "\(Self.seconds(base)) s"
      return increment == 0 ? "\(whole) a game" : "\(whole) + \(Self.seconds(increment)) s a move"
    case .perMove(let time): return "\(Self.seconds(time)) s a move"
    }
  }

  /// A time left as a clock shows it: "12:05", "4:07", "0:09" (whole seconds, rounded down, as a clock face
  /// runs); "1:02:03" from an hour.
  public static func face(_ milliseconds: Int) -> String {
    let total = max(0, milliseconds) / 1_000
    let (hours, minutes, seconds) = (total / 3_600, total / 60 % 60, total % 60)
    let ss = seconds < 10 ? "0\(seconds)" : "\(seconds)"
    guard hours > 0 else { return "\(minutes):\(ss)" }
    return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(ss)"
  }

  /// "20", "2.5", "0.125": milliseconds as seconds, no trailing zeros.
  private static func seconds(_ milliseconds: Int) -> String {
    let whole = "\(milliseconds / 1_000)"
    let rest = milliseconds % 1_000
    guard rest != 0 else { return whole }
    var fraction = String(rest + 1_000).dropFirst()
    while fraction.hasSuffix("0") { fraction = fraction.dropLast() }
    return whole + "." + fraction
  }
}

/// Why a time control was refused.
public enum TimeControlError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// Which part of a time control is at fault.
  public enum Part: String, Sendable {
    case base = "base time"
    case increment
    case perMove = "time per move"
  }

  /// Neither `none`, `BASE+INC` nor `move:TIME`.
  case notAClock(String)
  /// The part is not a number of the grammar.
  case badNumber(String, Part)
  case zero(Part)
  case tooLong(Part)

  public var code: String {
    switch self {
    case .notAClock: "clock.not-a-clock"
    case .badNumber: "clock.bad-number"
    case .zero: "clock.zero"
    case .tooLong: "clock.too-long"
    }
  }

  public var reason: String {
    switch self {
    case .notAClock(let text): "\"\(text)\" is not a time control"
    case .badNumber(let text, let part): "the \(part.rawValue) \"\(text)\" is not a number"
    case .zero(let part): "the \(part.rawValue) is 0"
    case .tooLong(let part): "the \(part.rawValue) is longer than a day"
    }
  }

  public var hint: String? {
    switch self {
    case .notAClock, .badNumber:
      "write BASE+INC (5+3: 5 minutes and 3 seconds a move; 30s+2: 30 seconds and 2), move:20s, or none"
    case .zero: "give it some time, or use none for an untimed game"
    case .tooLong: "at most 24 hours"
    }
  }

  public var description: String { hint.map { "\(reason): \($0)" } ?? reason }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
