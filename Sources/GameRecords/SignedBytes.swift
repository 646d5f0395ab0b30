/// What both players of a network game sign (docs/RECORDS.md, "Signatures"): lines of ASCII, each ending in `\n`,
/// starting with this protocol's own context string, so a signature over a record can never pass for anything
/// else the same key signs (its TLS handshakes).
extension GameRecord {
  public static let signatureContext = "tictactoe game record signature v1"

  /// The bytes each player signs: the context, the rules, both public keys, the date, the moves and the result.
  /// Names are left out: they are what each player calls itself, and the keys are who they are.
  public var signedBytes: [UInt8] {
    let moves = self.moves.map(SGFPoint.text).joined(separator: " ")
    let lines = [
      GameRecord.signatureContext,
      "rules \(rules.rows) \(rules.columns) \(rules.k)",
      "black \(black.publicKey ?? "")",
      "white \(white.publicKey ?? "")",
      "date \(date)",
      "moves" + (moves.isEmpty ? "" : " " + moves),
      "result \(result.sgfValue)",
    ]
    return Array(lines.map { $0 + "\n" }.joined().utf8)
  }
}
