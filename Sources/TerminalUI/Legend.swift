/// Fits one line of text to a width.
enum Fit {
  /// Joins the items in their order with `separator`; while the line is too long, drops the item with the
  /// highest `rank` (rank 0 is kept longest).
  static func legend(_ items: [(text: String, rank: Int)], separator: String, width: Int) -> String {
    var kept = items
    while kept.count > 1 && kept.map(\.text).joined(separator: separator).count > width,
      let worst = kept.indices.max(by: { kept[$0].rank < kept[$1].rank })
    {
      kept.remove(at: worst)
    }
    return clip(kept.map(\.text).joined(separator: separator), width: width, ellipsis: "")
  }

  /// Cuts `text` to `width` characters, ending with `ellipsis` when something was cut.
  static func clip(_ text: String, width: Int, ellipsis: String) -> String {
    guard text.count > width else { return text }
    guard width > ellipsis.count else { return String(text.prefix(max(0, width))) }
    return String(text.prefix(width - ellipsis.count)) + ellipsis
  }

  /// Splits `text` into lines of at most `width` characters (`then` for the lines after the first), breaking
  /// at spaces; a word longer than a line (an address, a fingerprint, a path) is cut into pieces, so nothing
  /// is lost.
  static func wrap(_ text: String, width: Int, then: Int? = nil) -> [String] {
    var lines: [String] = []
    var room: Int { max(1, lines.isEmpty ? width : (then ?? width)) }
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty && current.count + 1 + word.count > room {
        lines.append(current)
        current = ""
      }
      var rest = Substring(word)
      while current.isEmpty && rest.count > room {
        let cut = room
        lines.append(String(rest.prefix(cut)))
        rest = rest.dropFirst(cut)
      }
      current += (current.isEmpty ? "" : " ") + rest
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}
