import GameCore

/// Version 4's terms (PROTOCOL.md, "Version 4: rule variants and openings"): the rule variant in field 6 of the
/// host's hello and the opening in field 7, each a u8 and each left out when it is the usual one (freestyle, no
/// opening), so a freestyle host's hello is byte for byte what version 3 sent.
extension HostTerms {
  /// Tag 6 of `hello`: the rule variant (0 freestyle, 1 exact five, 2 renju).
  static let variantTag: UInt8 = 6
  /// Tag 7 of `hello`: the opening (0 none, 1 swap2).
  static let openingTag: UInt8 = 7

  /// The protocol version that carries these terms: 4 when they name a rule other than freestyle or an opening
  /// (an older peer cannot be offered them), else 2 (every version this program speaks plays them).
  public var minimumVersion: UInt16 { needsVersion4 ? 4 : 2 }

  /// Whether the terms say anything only version 4 carries.
  var needsVersion4: Bool { (rules?.variant ?? .freestyle) != .freestyle || opening != .standard }

  /// What in the terms needs version 4, for a refusal's words ("renju", "exact5 and the swap2 opening"); nil
  /// when nothing does.
  public var version4Terms: String? {
    var parts: [String] = []
    if let variant = rules?.variant, variant != .freestyle { parts.append("the \(variant.name) rule") }
    if opening != .standard { parts.append("the \(opening.rawValue) opening") }
    return parts.isEmpty ? nil : parts.joined(separator: " and ")
  }

  /// The variant's number on the wire.
  static func wireValue(_ variant: RuleVariant) -> UInt8 {
    switch variant {
    case .freestyle: 0
    case .exactFive: 1
    case .renju: 2
    }
  }

  func writeVariantTerms(into writer: inout FrameWriter) {
    if let variant = rules?.variant, variant != .freestyle {
      writer.field(Self.variantTag, u8: Self.wireValue(variant))
    }
    if opening == .swap2 { writer.field(Self.openingTag, u8: 1) }
  }

  /// Field 6, freestyle when absent; a number no version defines is a violation (a term cannot be skipped).
  static func readVariant(_ f: Fields) throws(WireError) -> RuleVariant {
    guard f.has(variantTag) else { return .freestyle }
    let value = try f.u8(variantTag, "rule variant")
    guard let variant = RuleVariant.allCases.first(where: { wireValue($0) == value }) else {
      throw .badValue("rule variant", reason: "it is \(value), not 0 (freestyle), 1 (exact five) or 2 (renju)")
    }
    return variant
  }

  /// Field 7, no opening when absent.
  static func readOpening(_ f: Fields) throws(WireError) -> Opening {
    guard f.has(openingTag) else { return .standard }
    switch try f.u8(openingTag, "opening") {
    case 0: return .standard
    case 1: return .swap2
    case let other: throw .badValue("opening", reason: "it is \(other), not 0 (none) or 1 (swap2)")
    }
  }
}

extension Message {
  /// The choice's number in `opening choice`: 1 black, 2 white, 3 place two more.
  static func wireValue(_ choice: Swap2.Choice) -> UInt8 {
    switch choice {
    case .black: 1
    case .white: 2
    case .placeTwo: 3
    }
  }

  func writeOpeningChoice(ply: UInt16, choice: Swap2.Choice, into writer: inout FrameWriter) {
    writer.field(1, u16: ply)
    writer.field(2, u8: Self.wireValue(choice))
  }

  /// `opening choice` (0x2d): 1 the stones on the board (u16), 2 the choice (u8); in a timed game, when it ends
  /// the chooser's turn, 4 and 5 as a move's (its thinking time and the echo).
  static func decodeOpeningChoice(_ f: Fields) throws(WireError) -> Message {
    let ply = try f.u16(1, "ply")
    let value = try f.u8(2, "choice")
    guard let choice = Swap2.Choice.allCases.first(where: { wireValue($0) == value }) else {
      throw .badValue("choice", reason: "it is \(value), not 1 (black), 2 (white) or 3 (place two more)")
    }
    return .openingChoice(ply: ply, choice: choice, clock: try MoveClock(f, in: "opening choice"))
  }
}
