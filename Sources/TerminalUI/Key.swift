import GameCore

/// A key press or terminal event, as the backends report it.
public enum Key: Sendable, Hashable {
  case up, down, left, right
  case home, end, delete
  case pageUp, pageDown
  /// A control key, by its lowercase letter: `.control("l")` is Ctrl-L.
  case control(Character)
  case enter
  case escape
  case backspace
  case tab
  case function(Int)
  case character(Character)
  /// Text that arrived at once (a bracketed paste, or several characters in one read): never a key command
  /// where that would matter, such as `y` at a trust question.
  case paste(String)
  /// A mouse click at a screen cell (0-based).
  case click(row: Int, column: Int)
  case resize
}

/// What a key means to the screen that has it.
public enum Action: Sendable, Equatable {
  /// Whether the action moves the cursor or places a mark: not taken while the board is not on the screen.
  var isOnTheBoard: Bool {
    switch self {
    case .moveCursor, .place, .placeNumber, .click: return true
    default: return false
    }
  }

  case moveCursor(rows: Int, columns: Int)
  case place
  /// Place on the cell with this 1-based, row-major number (digits on 3×3).
  case placeNumber(Int)
  case click(row: Int, column: Int)
  case undo
  case newGame
  case help
  case back
  case select
  case adjust(Int)
  case redraw
  /// Open the go-to field: a typed cell moves the cursor there.
  case goTo
  /// A choice of a Swap2 opening: `b` takes X (black), `o` takes O (white), `p` places two more stones.
  case choose(Swap2.Choice)
}

/// Maps keys to actions for each screen. Pure, so every binding is tested.
public enum KeyMap {
  public enum Context: Sendable {
    case menu
    case game(digitsPlace: Bool)
    case overlay
  }

  /// `keys` with each run of two or more characters read together turned into one `.paste` (Enter between two
  /// characters of it a line break in it).
  public static func groupingText(_ keys: [Key]) -> [Key] {
    var grouped: [Key] = []
    var run = ""
    func flush() {
      if run.count == 1, let only = run.first { grouped.append(.character(only)) }
      if run.count > 1 { grouped.append(.paste(run)) }
      run = ""
    }
    for (index, key) in keys.enumerated() {
      if case .character(let c) = key {
        run.append(c)
      } else if key == .enter, !run.isEmpty, index + 1 < keys.count, case .character = keys[index + 1] {
        // A line break inside text that came at once (a paste without bracketed paste) is part of the text, not
        // Enter: it must not send the first line and hand the rest to the screen as keys.
        run.append("\n")
      } else {
        flush()
        grouped.append(key)
      }
    }
    flush()
    return grouped
  }

  public static func action(for key: Key, in context: Context) -> Action? {
    if key == .resize { return .redraw }
    switch context {
    case .overlay:
      return .back
    case .menu:
      return menuAction(key)
    case .game(let digitsPlace):
      return gameAction(key, digitsPlace: digitsPlace)
    }
  }

  private static func menuAction(_ key: Key) -> Action? {
    switch key {
    case .up, .character("k"): return .moveCursor(rows: -1, columns: 0)
    case .down, .character("j"), .tab: return .moveCursor(rows: 1, columns: 0)
    case .left, .character("h"), .character("-"): return .adjust(-1)
    case .right, .character("l"), .character("+"): return .adjust(1)
    case .enter, .character(" "): return .select
    case .escape, .character("q"), .backspace: return .back
    case .character("?"), .function(1): return .help
    case .click(let row, let column): return .click(row: row, column: column)
    default: return nil
    }
  }

  private static func gameAction(_ key: Key, digitsPlace: Bool) -> Action? {
    switch key {
    case .up, .character("k"): return .moveCursor(rows: -1, columns: 0)
    case .down, .character("j"): return .moveCursor(rows: 1, columns: 0)
    case .left, .character("h"): return .moveCursor(rows: 0, columns: -1)
    case .right, .character("l"): return .moveCursor(rows: 0, columns: 1)
    case .enter, .character(" "): return .place
    case .character("u"): return .undo
    case .character("n"): return .newGame
    case .character("g"): return .goTo
    case .character("b"): return .choose(.black)
    case .character("o"): return .choose(.white)
    case .character("p"): return .choose(.placeTwo)
    case .character("?"), .function(1): return .help
    case .escape, .character("q"): return .back
    case .click(let row, let column): return .click(row: row, column: column)
    case .character(let c):
      if digitsPlace, let digit = c.wholeNumberValue, (1...9).contains(digit) { return .placeNumber(digit) }
      return nil
    default: return nil
    }
  }
}
