/// The conversation of a networked match in the rows it is given: messages wrapped whole (a long line goes on
/// over the next rows, indented), the latest at the bottom unless the player has scrolled back (PgUp/PgDn),
/// a marker for what lies below with the number of messages that came while scrolled back, and the chat field
/// on the last row while typing.
enum ChatPane {
  static func draw(_ net: NetGameState, box: NetScreenLayout.Box, glyphs g: Glyphs, into screen: inout ScreenBuffer) {
    guard box.height > 0, box.width > 0 else { return }
    var bottom = box.bottom
    if let field = net.chatField {
      bottom -= 1
      screen.put("say: ", row: bottom, column: box.left, style: Style(bold: true))
      FieldView.draw(field, row: bottom, column: box.left + 5, width: max(1, box.width - 5), into: &screen)
    }
    if net.chatBack > 0, bottom > box.top {
      bottom -= 1
      let marker = belowMarker(net, glyphs: g)
      screen.put(
        Fit.clip(marker, width: box.width, ellipsis: ""), row: bottom, column: box.left, style: Style(bold: true))
    }
    let lines = visibleLines(net, width: box.width, rows: bottom - box.top, glyphs: g)
    for (index, line) in lines.enumerated() {
      screen.put(line, row: bottom - lines.count + index, column: box.left)
    }
  }

  /// The furthest back the pane can be scrolled in `box`: the most messages that can be below it while the
  /// ones above still fill the pane (its rows less the marker's and, while typing, the field's).
  static func deepestBack(_ net: NetGameState, box: NetScreenLayout.Box) -> Int {
    let rows = box.height - 1 - (net.chatField == nil ? 0 : 1)
    var lines = 0
    for (index, message) in net.chat.enumerated() {
      lines += wrap(message.shown(), width: box.width).count  // the same length in either glyph set
      if lines >= rows { return net.chat.count - 1 - index }
    }
    return 0
  }

  /// How many messages PgDn brings into view in `box`, at most `most`: as many of the messages below the view as
  /// fit in its rows together (at least one), so that none scrolls past without being shown.
  static func pageDown(_ net: NetGameState, box: NetScreenLayout.Box, most: Int) -> Int {
    let rows = box.height - 1 - (net.chatField == nil ? 0 : 1)
    let below = net.chat.suffix(net.chatBack)
    var lines = 0
    var count = 0
    for message in below.prefix(most) {
      lines += wrap(message.shown(), width: box.width).count  // the same length in either glyph set
      if lines > rows { break }
      count += 1
    }
    return max(1, count)
  }

  /// "↓ 3 new · PgDn" or "↓ 5 more · PgDn".
  static func belowMarker(_ net: NetGameState, glyphs g: Glyphs) -> String {
    let arrow = g.upDown == "↑↓" ? "↓" : "v"
    let what = net.chatUnread > 0 ? "\(net.chatUnread) new" : "\(net.chatBack) more"
    return "\(arrow) \(what)\(g.separator)PgDn"
  }

  /// The last `rows` lines of the messages up to the scroll position, each message wrapped to `width`.
  static func visibleLines(_ net: NetGameState, width: Int, rows: Int, glyphs g: Glyphs) -> [String] {
    guard rows > 0 else { return [] }
    var lines: [String] = []
    for message in net.chat.dropLast(net.chatBack).reversed() {
      lines.insert(contentsOf: wrap(message.shown(in: g), width: width), at: 0)
      if lines.count >= rows { break }
    }
    return Array(lines.suffix(rows))
  }

  /// A message in lines of at most `width`, the continuation lines indented by two.
  static func wrap(_ message: String, width: Int) -> [String] {
    guard width > 4 else { return Fit.wrap(message, width: width) }
    return Fit.wrap(message, width: width, then: width - 2).enumerated().map { $0 == 0 ? $1 : "  " + $1 }
  }
}
