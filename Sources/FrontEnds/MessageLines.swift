/// Messages for a person, broken into lines at word boundaries so that a terminal never cuts a word in two.
enum MessageLines {
  /// The widest a message line is made: 80 columns, or the terminal's width when it is narrower.
  static let maximumWidth = 80

  /// `text` with each line longer than `width` broken at the last space that fits (a word longer than the width
  /// stays whole on a line of its own). Lines already short enough, line ends, and a last line with no line end
  /// (a question waiting for its answer) are kept as they are; a line with a tab (a table) is left alone.
  /// `hang` spaces start each line a break made (a list's items: `doctor`'s text under its verdicts).
  static func wrapped(_ text: String, width: Int = maximumWidth, hang: Int = 0) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.count <= width || line.contains("\t") ? String(line) : wrap(line, width: max(width, 20), hang: hang)
    }.joined(separator: "\n")
  }

  /// One long line as several, each at most `width` characters where its words allow: broken at the last space
  /// that fits, the spaces at a break dropped, the line's indent kept on its first line.
  private static func wrap(_ line: Substring, width: Int, hang: Int) -> String {
    var lines: [String] = []
    var rest = line
    let indent = line.prefix { $0 == " " }.count
    let hang = min(hang, width / 2)
    while rest.count > (lines.isEmpty ? width : width - hang) {
      let width = lines.isEmpty ? width : width - hang
      // A space just past the width still ends a full line.
      let head = rest.prefix(width + 1).dropFirst(lines.isEmpty ? indent : 0)
      let space = head.lastIndex(of: " ") ?? rest.dropFirst(width).firstIndex(of: " ")
      guard let space else { break }
      var cut = rest[..<space]
      while cut.count > (lines.isEmpty ? indent : 0), cut.last == " " { cut = cut.dropLast() }
      lines.append(String(cut))
      rest = rest[space...].drop { $0 == " " }
    }
    lines.append(String(rest))
    let margin = String(repeating: " ", count: hang)
    return lines.enumerated().map { $0.offset == 0 ? $0.element : margin + $0.element }.joined(separator: "\n")
  }
}
