import UntrustedText

/// A one-line text field with a cursor and the editing keys of readline and every terminal program: Left/Right,
/// Home/End (Ctrl-A/Ctrl-E), Backspace, Delete (Ctrl-D), Ctrl-U (to the start), Ctrl-K (to the end) and Ctrl-W
/// (the word before the cursor). Typed and pasted text is held to a limit in UTF-8 bytes, without controls or
/// line breaks. Pure: the screens draw `window(width:)`, which scrolls to keep the cursor in sight.
public struct TextField: Sendable, Equatable {
  public private(set) var characters: [Character]
  /// Where the next character goes: 0 is before the first, `characters.count` after the last.
  public private(set) var cursor: Int
  /// The most UTF-8 bytes the field holds.
  public let limit: Int
  /// Whether a line break (or a tab) in pasted text becomes one space, as a chat message's lines are words of
  /// one message; otherwise it is left out (an address or a fingerprint pasted over two lines is one word).
  public var breaksAsSpaces = false
  /// Whether the last text inserted did not fit whole under `limit` and was cut.
  public private(set) var wasCut = false

  public init(_ text: String = "", limit: Int) {
    self.limit = limit
    characters = Array(Self.clean(text, room: limit))
    cursor = characters.count
  }

  public var text: String { String(characters) }
  public var isEmpty: Bool { characters.isEmpty }

  /// Replaces the whole text (the cursor at its end), as choosing a recent address does.
  public mutating func set(_ text: String) {
    self = TextField(text, limit: limit)
  }

  /// Inserts `text` at the cursor, cleaned, as far as the limit allows.
  public mutating func insert(_ text: String) {
    let used = characters.reduce(0) { $0 + $1.utf8.count }
    var added = Array(Self.clean(text, room: limit - used, breaksAsSpaces: breaksAsSpaces))
    wasCut = added.count < Self.clean(text, room: Int.max, breaksAsSpaces: breaksAsSpaces).count
    // No space doubled where the text meets what is already there.
    if breaksAsSpaces, added.first == " ", cursor > 0, characters[cursor - 1] == " " { added.removeFirst() }
    characters.insert(contentsOf: added, at: cursor)
    cursor += added.count
  }

  /// Applies an editing key; false when the key is not one (Enter, Esc, Up and Down are the screen's).
  @discardableResult
  public mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(characters.count, cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .backspace:
      guard cursor > 0 else { return true }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete, .control("d"):
      if cursor < characters.count { characters.remove(at: cursor) }
    case .control("u"):
      characters.removeFirst(cursor)
      cursor = 0
    case .control("k"):
      characters.removeLast(characters.count - cursor)
    case .control("w"):
      var start = cursor
      while start > 0 && characters[start - 1].isWhitespace { start -= 1 }
      while start > 0 && !characters[start - 1].isWhitespace { start -= 1 }
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .character(let c): insert(String(c))
    case .paste(let text): insert(text)
    default: return false
    }
    return true
  }

  /// What to show in `width` columns (each character counted as one column) and the cursor's column within it.
  /// The end of the text is shown, the cursor in the last column after it, unless the cursor is further left:
  /// then the window starts one character before the cursor, so the character it would delete stays in sight.
  public func window(width: Int) -> (text: String, cursor: Int) {
    let width = max(1, width)
    // One column is kept for the cursor itself when it stands after the last character.
    guard characters.count >= width else { return (text, cursor) }
    var start = characters.count + 1 - width
    if cursor <= start { start = max(0, cursor - 1) }
    let end = min(characters.count, start + width)
    return (String(characters[start..<end]), cursor - start)
  }

  /// `text` without line breaks or characters unsafe on a terminal, cut at a character boundary to `room` bytes.
  /// With `breaksAsSpaces` each run of line breaks and tabs is one space instead (none at the very start).
  static func clean(_ text: String, room: Int, breaksAsSpaces: Bool = false) -> String {
    var result = ""
    var left = room
    for var character in text {
      if character.isNewline || character == "\t" {
        guard breaksAsSpaces, !result.isEmpty, result.last != " " else { continue }
        character = " "
      }
      if character.unicodeScalars.contains(where: VisibleText.isUnsafe) { continue }
      let size = character.utf8.count
      guard size <= left else { break }
      result.append(character)
      left -= size
    }
    return result
  }
}

/// Draws a text field: its window underlined, the cursor's cell reversed (an underscore after the last
/// character, where the next one goes).
enum FieldView {
  static func draw(_ field: TextField, row: Int, column: Int, width: Int, into screen: inout ScreenBuffer) {
    let (text, cursor) = field.window(width: width)
    screen.put(text, row: row, column: column, style: Style(underline: true))
    let characters = Array(text)
    let under = cursor < characters.count ? String(characters[cursor]) : "_"
    screen.put(under, row: row, column: column + cursor, style: Style(reverse: true, underline: true))
  }
}
