import GameCore

/// What both players of a network game sign (docs/RECORDS.md, "Signatures"): lines of ASCII, each ending in `\n`,
/// starting with this protocol's own context string, so a signature over a record can never pass for anything
/// else the same key signs (its TLS handshakes). Version 1 (before version 3 of the protocol) signs the rules,
/// the keys, the day, the moves and the result; version 2 adds the terms (the time control), each move's agreed
/// times, how the game ended and the flag claim, so `verify` checks signed times.
extension GameRecord {
  public static let signatureContext = "tictactoe game record signature v1"
  public static let signatureContextVersion2 = "tictactoe game record signature v2"

  /// The bytes each player signs, in the record's `signedVersion`. Names are left out: they are what each player
  /// calls itself, and the keys are who they are.
  public var signedBytes: [UInt8] {
    // Built as bytes in room reserved once: a practice bot signs thousands of records a second.
    var out = RecordBytes(capacity: 512 + 6 * moves.count + 16 * times.count)
    out.add(signedVersion == 1 ? GameRecord.signatureContext : GameRecord.signatureContextVersion2)
    out.add("\n")
    addSignedRules(to: &out)
    if signedVersion != 1 {
      out.add("\nclock ")
      out.add(Self.signedClock(timeControl))
    }
    out.add("\nblack ")
    out.add(black.publicKey ?? "")
    out.add("\nwhite ")
    out.add(white.publicKey ?? "")
    out.add("\ndate ")
    out.add(date)
    out.add("\nmoves")
    for move in moves {
      out.add(" ")
      out.addPoint(move)
    }
    if signedVersion == 1 {
      out.add("\nresult ")
      out.add(result.version1Value)
      out.add("\n")
      return out.bytes
    }
    out.add("\ntimes")
    for time in times {
      out.add(" ")
      out.add(time.charged)
      out.add("/")
      out.add(time.left)
    }
    out.add("\nresult ")
    out.add(result.sgfValue)
    out.add("\nend ")
    out.add(result.endToken ?? "")
    out.add("\nflag")
    if let flag {
      out.add(flag.claimant == .x ? " B " : " W ")
      out.add(flag.timeLeft)
      out.add(" ")
      out.add(flag.observed)
      out.add(" ")
      out.add(flag.thinking)
    }
    out.add("\n")
    return out.bytes
  }

  /// The rules in the signed bytes: `rules ROWS COLUMNS K`, and after them the variant's name when it is not
  /// freestyle (`rules 15 15 5 renju`, protocol version 4), then a Swap2 opening's choices when the game opened so
  /// (`rules 15 15 5 opening swap2 place-two white`), so a record whose RU or TTO was changed no longer verifies
  /// while every freestyle record without an opening signs the bytes it always did.
  var signedRules: String {
    var out = RecordBytes(capacity: 64)
    addSignedRules(to: &out)
    return out.string
  }

  private func addSignedRules(to out: inout RecordBytes) {
    out.add("rules ")
    out.add(rules.rows)
    out.add(" ")
    out.add(rules.columns)
    out.add(" ")
    out.add(rules.k)
    if rules.variant != .freestyle {
      out.add(" ")
      out.add(rules.variant.name)
    }
    if let opening {
      out.add(" opening ")
      out.add(opening.sgfValue)
    }
  }

  /// The time control in the signed bytes: `none`, `fischer BASE INCREMENT` or `move TIME`, in milliseconds.
  static func signedClock(_ control: TimeControl) -> String {
    switch control {
    case .none: return "none"
    case .fischer(let base, let increment): return "fischer \(base) \(increment)"
    case .perMove(let time): return "move \(time)"
    }
  }

  /// Why the record's times cannot be a game's, or nil: a timed game has one pair of times per move, each side's
  /// first move is not charged, and with a fixed time per move each move's time left is that time less its charge.
  public var timesProblem: String? {
    guard timeControl.isTimed else { return times.isEmpty ? nil : "times without a time control" }
    guard times.count == moves.count else {
      return "\(times.count) moves carry times, but the game has \(moves.count) moves"
    }
    for (ply, time) in times.enumerated() {
      let number = ply + 1
      if time.charged < 0 || time.left < 0 { return "move \(number) has a negative time" }
      if ply < 2 && (time.charged != 0 || time.left != timeControl.base) {
        return "move \(number) is charged, but each side's first move is free"
      }
      if case .perMove(let limit) = timeControl, ply >= 2, time.left != limit - time.charged {
        return "move \(number) leaves \(time.left) ms of \(limit) ms after a charge of \(time.charged) ms"
      }
    }
    return nil
  }
}
