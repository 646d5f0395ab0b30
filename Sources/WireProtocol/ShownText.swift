import UntrustedText

extension Message {
  /// Refuses text a peer's screen would show that could not be shown as it is: control characters (C0, C1,
  /// DEL, NUL), line separators, bidirectional controls and invisible characters (which make two names look
  /// alike), and text longer than `maximumCharacters` characters.
  static func checkShownText(_ text: String, _ field: String, maximumCharacters: Int) throws(WireError) {
    if let bad = text.unicodeScalars.first(where: VisibleText.isUnsafe) {
      let hex = String(bad.value, radix: 16, uppercase: true)
      let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      throw .badValue(field, reason: "it contains \(code), a control, bidirectional or invisible character")
    }
    guard text.count <= maximumCharacters else {
      throw .badValue(field, reason: "it has \(text.count) characters (at most \(maximumCharacters))")
    }
    if !text.isEmpty && text.allSatisfy(\.isWhitespace) { throw .badValue(field, reason: "it is only spaces") }
  }
}
