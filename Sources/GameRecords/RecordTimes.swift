import GameCore

/// One move's time in a timed game's record, in milliseconds, as both players agree on it (PROTOCOL.md rule 14).
public struct MoveTime: Sendable, Hashable {
  /// The time the move was charged: the receiver's charge Q its mover adopted from the echo, or the mover's own
  /// thinking time C for a move no echo followed (the game's last); 0 for each side's first move.
  public var charged: Int
  /// The mover's time left after the move: for Fischer, its clock (the increment added); for a fixed time per
  /// move, what was left of that move's time. SGF's BL or WL.
  public var left: Int

  public init(charged: Int, left: Int) {
    self.charged = charged
    self.left = left
  }
}

/// The flag claim that ended a game and its answer (PROTOCOL.md rule 15), as both sides saw them: they travelled
/// in the claim and the answer, so both records hold the same numbers. Milliseconds.
public struct FlagClaim: Sendable, Hashable {
  /// The side that claimed the other's time had run out.
  public var claimant: Mark
  /// The time the mover had, on the claimant's clock.
  public var timeLeft: Int
  /// The time the claimant saw pass since its own last send.
  public var observed: Int
  /// The mover's own thinking time for that move, from its answer.
  public var thinking: Int

  public init(claimant: Mark, timeLeft: Int, observed: Int, thinking: Int) {
    self.claimant = claimant
    self.timeLeft = timeLeft
    self.observed = observed
    self.thinking = thinking
  }
}

/// Times as SGF writes them: seconds, a real number, with at most three decimals (whole milliseconds).
public enum SGFSeconds {
  /// `287.432`, `300`, `2.5`.
  public static func text(_ milliseconds: Int) -> String {
    let sign = milliseconds < 0 ? "-" : ""
    let value = abs(milliseconds)
    var fraction = String(value % 1_000)
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return sign + String(value / 1_000) + (fraction.isEmpty ? "" : "." + fraction)
  }

  /// The milliseconds of a real number of seconds (`287.432`, `12`, `0.5`; digits past the third decimal are
  /// dropped), or nil for anything else or more than a year.
  public static func milliseconds(_ text: String) -> Int? {
    let isDigit = { (character: Character) in ("0"..."9").contains(character) }
    let parts = text.trimmed.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 8,
      whole.allSatisfy(isDigit), parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy(isDigit))
    else { return nil }
    var fraction = parts.count == 2 ? String(parts[1].prefix(3)) : ""
    fraction += String(repeating: "0", count: 3 - fraction.count)
    guard let seconds = Int(whole), let thousandths = Int(fraction) else { return nil }
    return seconds * 1_000 + thousandths
  }
}

/// The time control as SGF's TM and OT (docs/RECORDS.md): Fischer as `TM[base]OT[increment fischer]`, a fixed
/// time per move as `TM[0]OT[time simple]` (the words the Online Go Server writes and reads), seconds.
enum SGFTimeControl {
  static func properties(_ control: TimeControl) -> (tm: String, ot: String)? {
    switch control {
    case .none: return nil
    case .fischer(let base, let increment): return (SGFSeconds.text(base), "\(SGFSeconds.text(increment)) fischer")
    case .perMove(let time): return ("0", "\(SGFSeconds.text(time)) simple")
    }
  }

  /// The control TM and OT describe, or nil for one this program does not play (byo-yomi, Canadian). TM alone
  /// is sudden death: Fischer with no increment.
  static func control(tm: String?, ot: String?) -> TimeControl? {
    guard let tm, let base = SGFSeconds.milliseconds(tm) else { return nil }
    let words = (ot ?? "").trimmed.lowercased().split(separator: " ")
    let control: TimeControl
    if words.isEmpty {
      control = .fischer(base: base, increment: 0)
    } else if words.count == 2, words[1] == "fischer", let increment = SGFSeconds.milliseconds(String(words[0])) {
      control = .fischer(base: base, increment: increment)
    } else if words.count == 2, words[1] == "simple", base == 0, let time = SGFSeconds.milliseconds(String(words[0])) {
      control = .perMove(time)
    } else {
      return nil
    }
    do throws(TimeControlError) {
      return try TimeControl.checked(control)
    } catch {
      return nil
    }
  }
}
