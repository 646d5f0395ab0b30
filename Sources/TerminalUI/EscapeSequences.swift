extension KeyMap {
  /// `keys`, as read at once, with every Esc that began a longer sequence taken out, and that sequence with it.
  ///
  /// A terminal sends Esc alone for the Esc key, but Alt+key as Esc and the key, and keys terminfo does not know
  /// for this TERM (Home as `ESC [ 1 ~` under a TERM that says `ESC [ H`) as Esc followed by the rest. The curses
  /// backend waits a moment after Esc for the rest (ESCDELAY); what came with it in the same read is part of it,
  /// never a lone Esc (which leaves a game) followed by letters (which are keys of their own: `[`, `H`, `q`).
  /// The sequence's characters are dropped: a control sequence (`[`, parameters, one final byte), a
  /// single-shift (`O` and one character), or Alt's one character. A key that is not a character after Esc (an
  /// arrow terminfo knew, after Alt) is kept.
  public static func droppingEscapeSequences(_ keys: [Key]) -> [Key] {
    var kept: [Key] = []
    var index = 0
    while index < keys.count {
      let key = keys[index]
      index += 1
      guard key == .escape, index < keys.count else {
        kept.append(key)
        continue
      }
      index = endOfSequence(keys, from: index)
    }
    return kept
  }

  /// Where the characters of the sequence that starts at `start` (just after its Esc) end.
  private static func endOfSequence(_ keys: [Key], from start: Int) -> Int {
    guard case .character(let first) = keys[start] else { return start }
    var index = start + 1
    switch first {
    case "[":
      // Parameter bytes 0x30–0x3F and intermediate bytes 0x20–0x2F, then one final byte 0x40–0x7E.
      while index < keys.count, case .character(let c) = keys[index], let value = c.asciiValue {
        index += 1
        if (0x40...0x7E).contains(value) { break }
        if !(0x20...0x3F).contains(value) { return index - 1 }
      }
      return index
    case "O":
      if index < keys.count, case .character = keys[index] { index += 1 }
      return index
    default:
      return index
    }
  }
}
