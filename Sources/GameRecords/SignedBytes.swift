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
    // One string, its room reserved, each line appended: a practice bot signs thousands of records a second,
    // and an array of lines joined cost it a dozen allocations a record.
    var text = ""
    text.reserveCapacity(512 + 6 * moves.count + 16 * times.count)
    func line(_ parts: String...) {
      for part in parts { text += part }
      text += "\n"
    }
    var moveLine = "moves"
    for move in moves { moveLine += " " + SGFPoint.text(move) }
    if signedVersion == 1 {
      line(GameRecord.signatureContext)
      line(signedRules)
      line("black ", black.publicKey ?? "")
      line("white ", white.publicKey ?? "")
      line("date ", date)
      line(moveLine)
      line("result ", result.version1Value)
    } else {
      var timeLine = "times"
      for time in times { timeLine += " " + String(time.charged) + "/" + String(time.left) }
      let flag = self.flag.map { f in " \(f.claimant == .x ? "B" : "W") \(f.timeLeft) \(f.observed) \(f.thinking)" }
      line(GameRecord.signatureContextVersion2)
      line(signedRules)
      line("clock ", Self.signedClock(timeControl))
      line("black ", black.publicKey ?? "")
      line("white ", white.publicKey ?? "")
      line("date ", date)
      line(moveLine)
      line(timeLine)
      line("result ", result.sgfValue)
      line("end ", result.endToken ?? "")
      line("flag", flag ?? "")
    }
    return Array(text.utf8)
  }

  /// The rules in the signed bytes: `rules ROWS COLUMNS K`, and after them the variant's name when it is not
  /// freestyle (`rules 15 15 5 renju`, protocol version 4), then a Swap2 opening's choices when the game opened so
  /// (`rules 15 15 5 opening swap2 place-two white`), so a record whose RU or TTO was changed no longer verifies
  /// while every freestyle record without an opening signs the bytes it always did.
  var signedRules: String {
    var line = "rules \(rules.rows) \(rules.columns) \(rules.k)"
    if rules.variant != .freestyle { line += " \(rules.variant.name)" }
    if let opening { line += " opening \(opening.sgfValue)" }
    return line
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
