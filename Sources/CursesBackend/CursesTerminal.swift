import CNcursesw
import Glibc
import TerminalUI

/// The ncursesw terminal: draws screen buffers with colours (or without, under NO_COLOR or on a monochrome
/// terminal) and reads keys, mouse clicks and resizes without blocking.
public final class CursesTerminal: Terminal {
  private let colors: Bool
  /// Key codes given to the terminal's bracketed-paste markers (ESC [ 200 ~ and ESC [ 201 ~).
  private static let pasteStart: Int32 = 0x7F00
  private static let pasteEnd: Int32 = 0x7F01
  /// A bracketed paste still arriving (it may span reads), with at most `pasteLimit` characters kept.
  private var paste: String?
  private static let pasteLimit = 4096

  /// Starts curses on the controlling terminal. `useColor` false forces monochrome.
  /// Why the terminal cannot show the full-screen UI (nil when it can): TERM unknown to terminfo, or a
  /// terminal that cannot address the cursor, such as TERM=dumb. Asked before `init`, which would exit.
  /// How many columns the terminal on `fd` has; nil when `fd` is not a terminal or the kernel does not say.
  public static func columns(of fd: Int32) -> Int? {
    var rows: Int32 = 0
    var columns: Int32 = 0
    guard isatty(fd) == 1, ttt_window_size(fd, &rows, &columns) == 0, columns > 0 else { return nil }
    return Int(columns)
  }

  public static func unusable(term: String?) -> String? {
    let name = term.map { "\"\($0)\"" } ?? "(TERM is not set)"
    switch ttt_terminal_usable() {
    case 0: return nil
    case 1: return "the terminal type \(name) cannot move the cursor"
    default: return "the terminal type \(name) is not known to terminfo"
    }
  }

  public init(useColor: Bool) {
    ttt_set_locale()
    initscr()
    cbreak()
    noecho()
    nonl()
    keypad(ttt_stdscr(), true)
    nodelay(ttt_stdscr(), true)
    set_escdelay(25)
    curs_set(0)
    mouseinterval(0)
    mousemask(ttt_button1_pressed() | ttt_button1_clicked(), nil)
    define_key("\u{1B}[200~", Self.pasteStart)
    define_key("\u{1B}[201~", Self.pasteEnd)
    Self.writeControl("\u{1B}[?2004h")  // bracketed paste on: a terminal without it ignores this
    if useColor && has_colors() {
      start_color()
      use_default_colors()
      let palette: [(ColorRole, Int16)] = [
        (.xMark, Int16(COLOR_CYAN)), (.oMark, Int16(COLOR_MAGENTA)), (.winningLine, Int16(COLOR_GREEN)),
        (.title, Int16(COLOR_YELLOW)), (.accent, Int16(COLOR_GREEN)), (.warning, Int16(COLOR_RED)),
      ]
      for (role, color) in palette { init_pair(Int16(role.rawValue), color, -1) }
      colors = true
    } else {
      colors = false
    }
  }

  public var size: (width: Int, height: Int) { (Int(ttt_cols()), Int(ttt_lines())) }

  public var inputDescriptor: Int32 { 0 }

  public func draw(_ screen: ScreenBuffer) {
    erase()
    for row in 0..<min(screen.height, Int(ttt_lines())) {
      var column = 0
      while column < screen.width {
        let style = screen[row, column].style
        var run = ""
        let start = column
        while column < screen.width && screen[row, column].style == style {
          run.append(screen[row, column].character)
          column += 1
        }
        attrset(attributes(for: style))
        // The last cell of the screen cannot be written without scrolling: leave it out.
        if row == Int(ttt_lines()) - 1 && column >= Int(ttt_cols()) { run = String(run.dropLast()) }
        mvaddstr(Int32(row), Int32(start), run)
      }
    }
    attrset(0)
    refresh()
  }

  private func attributes(for style: Style) -> Int32 {
    var attributes: Int32 = 0
    if style.bold { attributes |= ttt_attr_bold() }
    if style.reverse { attributes |= ttt_attr_reverse() }
    if style.dim { attributes |= ttt_attr_dim() }
    if style.underline { attributes |= ttt_attr_underline() }
    if colors, let role = style.color { attributes |= ttt_color_pair(Int32(role.rawValue)) }
    return attributes
  }

  /// Every key waiting now. Text that came at once (a bracketed paste, or several characters in one read, as
  /// when a terminal without bracketed paste pastes) is reported as one `.paste`, never as key presses.
  public func readKeys() -> [Key] {
    var keys: [Key] = []
    var code: wint_t = 0
    while true {
      let kind = wget_wch(ttt_stdscr(), &code)
      if kind == ERR { break }
      if kind == KEY_CODE_YES && Int32(code) == Self.pasteStart {
        paste = ""
      } else if kind == KEY_CODE_YES && Int32(code) == Self.pasteEnd {
        if let text = paste { keys.append(.paste(text)) }
        paste = nil
      } else if var text = paste {
        if kind != KEY_CODE_YES, let scalar = Unicode.Scalar(UInt32(code)), text.count < Self.pasteLimit {
          text.unicodeScalars.append(scalar)
        }
        paste = text
      } else if kind == KEY_CODE_YES {
        if let key = functionKey(Int32(code)) { keys.append(key) }
      } else if let key = characterKey(UInt32(code)) {
        keys.append(key)
      }
    }
    return KeyMap.groupingText(keys)
  }

  private static func writeControl(_ sequence: String) {
    let bytes = Array(sequence.utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
  }

  private func functionKey(_ code: Int32) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_DC: return .delete
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_ENTER: return .enter
    case KEY_BACKSPACE: return .backspace
    case KEY_RESIZE: return .resize
    case KEY_MOUSE:
      var event = MEVENT()
      guard getmouse(&event) == OK else { return nil }
      let buttons = ttt_button1_pressed() | ttt_button1_clicked()
      guard event.bstate & buttons != 0 else { return nil }
      return .click(row: Int(event.y), column: Int(event.x))
    default:
      for n in 1...12 where code == ttt_key_f(Int32(n)) { return .function(n) }
      return nil
    }
  }

  private func characterKey(_ code: UInt32) -> Key? {
    switch code {
    case 10, 13: return .enter
    case 27: return .escape
    case 8, 127: return .backspace
    case 9: return .tab
    case 1...26: return Unicode.Scalar(code + 96).map { .control(Character($0)) }
    default:
      guard let scalar = Unicode.Scalar(code) else { return nil }
      return .character(Character(scalar))
    }
  }

  public func resized() {
    var rows: Int32 = 0
    var columns: Int32 = 0
    if ttt_window_size(1, &rows, &columns) == 0 && rows > 0 && columns > 0 {
      resizeterm(rows, columns)
    }
  }

  public func repaint() {
    clearok(ttt_stdscr(), true)
  }

  public func restore() {
    Self.writeControl("\u{1B}[?2004l")
    endwin()
  }
}
