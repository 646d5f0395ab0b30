import GameCore

/// The host's terms, sent in its `hello` in every version (PROTOCOL.md, "The terms"): the rules and the time
/// control; from version 4 the rule variant (in `rules`) and the opening (`VariantTerms.swift`). A peer older
/// than the terms skips their tags.
public struct HostTerms: Sendable, Equatable {
  /// The rules the host offers, its rule variant with them (nil when its hello names none: a later host that
  /// sends only other terms).
  public var rules: Rules?
  public var timeControl: TimeControl
  /// How each game opens (version 4, field 7): as usual, or with Swap2.
  public var opening: Opening
  /// Not a term but the host's word beside them (PROTOCOL.md rule 19, field 16): present, this host takes back a
  /// game in progress its joiner kept while the host's program restarted; the number is the game its journal
  /// keeps with the joiner's key (0: none). nil: a host that does not (older, or the practice bot).
  public var keptGame: UInt16?
  /// Field 8 (version 4): whether spectators may watch the game (nil: the host did not say; an older host).
  public var watchable: Bool?

  public init(
    rules: Rules?, timeControl: TimeControl = .none, opening: Opening = .standard, keptGame: UInt16? = nil,
    watchable: Bool? = nil
  ) {
    self.rules = rules
    self.timeControl = timeControl
    self.opening = opening
    self.keptGame = keptGame
    self.watchable = watchable
  }

  /// Whether a joiner's player is asked before playing on these terms (PROTOCOL.md, "The terms"): a timed game,
  /// a rule other than freestyle or an opening; an untimed freestyle game is what every version plays.
  public var asksConsent: Bool { timeControl.isTimed || needsVersion4 }

  /// Tags of `hello`: 4 the rules, 5 the time control.
  static let rulesTag: UInt8 = 4
  static let timeControlTag: UInt8 = 5
  /// Tag 16 of `hello`: the kept game a restarted host takes back (rule 19).
  static let keptGameTag: UInt8 = 16
  /// Tag 8 of `hello`: the game may be watched (u8 1) or not (0).
  static let watchableTag: UInt8 = 8

  func write(into writer: inout FrameWriter) {
    if let rules {
      writer.field(Self.rulesTag, bytes: [UInt8(rules.rows), UInt8(rules.columns), UInt8(rules.k)])
    }
    let (kind, base, increment): (UInt8, Int, Int)
    switch timeControl {
    case .none: (kind, base, increment) = (0, 0, 0)
    case .fischer(let b, let i): (kind, base, increment) = (1, b, i)
    case .perMove(let t): (kind, base, increment) = (2, t, 0)
    }
    // No time control goes without its field (a reader takes its absence for none), unless it is all the terms.
    if kind != 0 || rules == nil {
      var value = [kind]
      for number in [base, increment] {
        let u32 = UInt32(clamping: number)
        value += (0..<4).map { UInt8(truncatingIfNeeded: u32 >> (24 - 8 * $0)) }
      }
      writer.field(Self.timeControlTag, bytes: value)
    }
    writeVariantTerms(into: &writer)
    if let watchable { writer.field(Self.watchableTag, u8: watchable ? 1 : 0) }
    if let keptGame { writer.field(Self.keptGameTag, u16: keptGame) }
  }

  /// The terms of a hello's fields: nil when it carries none (a joiner, or a host older than the terms).
  init?(_ f: Fields) throws(WireError) {
    let tags = [
      Self.rulesTag, Self.timeControlTag, Self.variantTag, Self.openingTag, Self.watchableTag, Self.keptGameTag,
    ]
    guard tags.contains(where: f.has) else { return nil }
    if f.has(Self.keptGameTag) { keptGame = try f.u16(Self.keptGameTag, "kept game") }
    opening = try Self.readOpening(f)
    let variant = try Self.readVariant(f)
    if f.has(Self.watchableTag) {
      let value = try f.u8(Self.watchableTag, "watchable")
      guard value <= 1 else { throw .badValue("watchable", reason: "it is \(value), not 0 or 1") }
      watchable = value == 1
    }
    if f.has(Self.rulesTag) {
      let bytes = try f.bytes(Self.rulesTag, "rules", count: 3)
      do throws(RulesError) {
        rules = try Rules(rows: Int(bytes[0]), columns: Int(bytes[1]), k: Int(bytes[2]), variant: variant)
      } catch {
        throw .badValue("rules", reason: error.description)
      }
    } else if variant != .freestyle {
      throw .badValue("rule variant", reason: "\(variant.name) without the rules it varies (field 4)")
    }
    guard f.has(Self.timeControlTag) else {
      timeControl = .none
      return
    }
    let bytes = try f.bytes(Self.timeControlTag, "time control", count: 9)
    let base = Int(bytes[1...4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    let increment = Int(bytes[5...8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    let control: TimeControl
    switch bytes[0] {
    case 0 where base == 0 && increment == 0: control = .none
    case 1: control = .fischer(base: base, increment: increment)
    case 2 where increment == 0: control = .perMove(base)
    default:
      throw .badValue("time control", reason: "kind \(bytes[0]) with base \(base) ms and increment \(increment) ms")
    }
    do throws(TimeControlError) {
      timeControl = try TimeControl.checked(control)
    } catch {
      throw .badValue("time control", reason: error.reason)
    }
  }
}

/// The clock fields of a version-3 move (PROTOCOL.md rule 14), in milliseconds.
public struct MoveClock: Sendable, Equatable {
  /// The mover's own thinking time C for this move.
  public var thinking: Int
  /// What the mover charged the receiver for the receiver's last move (nil when there is none to echo).
  public var echo: Int?

  public init(thinking: Int, echo: Int?) {
    self.thinking = thinking
    self.echo = echo
  }

  func write(into writer: inout FrameWriter) {
    writer.field(4, u32: UInt32(clamping: thinking))
    if let echo { writer.field(5, u32: UInt32(clamping: echo)) }
  }

  /// The clock of a move's (or an opening choice's) fields: nil for an untimed one.
  init?(_ f: Fields, in message: String = "move") throws(WireError) {
    guard f.has(4) else {
      if f.has(5) { throw .missingField("thinking time", in: message) }
      return nil
    }
    thinking = Int(try f.u32(4, "thinking time"))
    echo = f.has(5) ? Int(try f.u32(5, "echoed charge")) : nil
  }
}

extension Message {
  /// The protocol version a message needs: 3 for the game flow (draws, takebacks, abort, flags), else 1.
  public var minimumVersion: UInt16 {
    switch kind {
    case .drawOffer, .drawAccept, .drawDecline, .takebackRequest, .takebackAccept, .takebackDecline, .abort,
      .flagClaim, .flagAnswer, .gameOffer, .gameTaken:
      return 3
    case .openingChoice: return 4
    case .coinKept: return 2
    case .watchSnapshot, .watchMove, .watchEnd, .watchers, .watchChat, .watchRecord: return 4
    default: return 1
    }
  }

  /// Writes the fields of the version-3 game-flow messages (PROTOCOL.md rules 15 to 17).
  func writeGameFlow(into writer: inout FrameWriter) {
    switch self {
    case .takebackRequest(let ply), .takebackAccept(let ply), .takebackDecline(let ply):
      writer.field(1, u16: ply)
    case .abort(let seen): writer.field(1, u16: seen)
    case .flagClaim(let ply, let timeLeft, let observed):
      writer.field(1, u16: ply)
      writer.field(2, u32: UInt32(clamping: timeLeft))
      writer.field(3, u32: UInt32(clamping: observed))
    case .flagAnswer(let ply, let disputed, let thinking):
      writer.field(1, u16: ply)
      writer.field(2, u8: disputed ? 2 : 1)
      writer.field(3, u32: UInt32(clamping: thinking))
    default: break  // no fields: draw offer, accept and decline
    }
  }

  /// Decodes the version-3 game-flow messages (PROTOCOL.md rules 15 to 17).
  static func decodeGameFlow(_ kind: Kind, _ f: Fields) throws(WireError) -> Message {
    switch kind {
    case .drawOffer: return .drawOffer
    case .drawAccept: return .drawAccept
    case .drawDecline: return .drawDecline
    case .takebackRequest: return .takebackRequest(ply: try f.u16(1, "ply"))
    case .takebackAccept: return .takebackAccept(ply: try f.u16(1, "ply"))
    case .takebackDecline: return .takebackDecline(ply: try f.u16(1, "ply"))
    case .abort:
      let seen = try f.u16(1, "moves seen")
      guard seen < 2 else { throw .badValue("moves seen", reason: "an abort after \(seen) moves (at most 1)") }
      return .abort(seen: seen)
    case .flagClaim:
      return .flagClaim(
        ply: try f.u16(1, "ply"), timeLeft: Int(try f.u32(2, "time left")), observed: Int(try f.u32(3, "time seen")))
    case .flagAnswer:
      let ply = try f.u16(1, "ply")
      let verdict = try f.u8(2, "verdict")
      guard verdict == 1 || verdict == 2 else {
        throw .badValue("verdict", reason: "it is \(verdict), not 1 (conceded) or 2 (disputed)")
      }
      return .flagAnswer(ply: ply, disputed: verdict == 2, thinking: Int(try f.u32(3, "thinking time")))
    default:
      preconditionFailure("\(kind) is not a game-flow message")
    }
  }
}
