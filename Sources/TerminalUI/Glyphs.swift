/// The characters the screen is drawn with: Unicode box drawing under a UTF-8 locale, ASCII otherwise.
public struct Glyphs: Sendable, Equatable {
  public let horizontal: Character
  public let vertical: Character
  public let topLeft: Character
  public let topRight: Character
  public let bottomLeft: Character
  public let bottomRight: Character
  public let teeDown: Character
  public let teeUp: Character
  public let teeRight: Character
  public let teeLeft: Character
  public let cross: Character
  public let emptyCell: Character
  public let separator: String
  public let arrows: String
  public let upDown: String
  public let leftRight: String
  public let ellipsis: String
  public let times: String
  public let pointer: String

  public static let unicode = Glyphs(
    horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
    teeDown: "┬", teeUp: "┴", teeRight: "├", teeLeft: "┤", cross: "┼", emptyCell: "·", separator: " · ",
    arrows: "←↑↓→", upDown: "↑↓", leftRight: "←→", ellipsis: "…", times: "×", pointer: "▸")

  public static let ascii = Glyphs(
    horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
    teeDown: "+", teeUp: "+", teeRight: "+", teeLeft: "+", cross: "+", emptyCell: ".", separator: " | ",
    arrows: "arrows", upDown: "up/down", leftRight: "left/right", ellipsis: "...", times: "x", pointer: ">")

  /// Unicode when the locale's character set is UTF-8 (LC_ALL, then LC_CTYPE, then LANG) and ASCII was
  /// not asked for.
  public static func choose(environment: [String: String], forceASCII: Bool) -> Glyphs {
    if forceASCII { return .ascii }
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
    let upper = locale.uppercased()
    return upper.contains("UTF-8") || upper.contains("UTF8") ? .unicode : .ascii
  }
}
