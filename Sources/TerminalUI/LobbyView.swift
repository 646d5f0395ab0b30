import GameCore
import Gomocup
import PlayerSettings

/// Draws the lobby: the title, a menu of what there is to do, and the key legend.
public enum LobbyView {
  static let firstItemRow = 5
  static let minimumSize = (width: 40, height: 12)

  public static func draw(_ state: UIState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    screen.putCentred("T I C - T A C - T O E", row: 1, style: Style(bold: true, color: .title))
    let rules = state.settings.rules
    let variant =
      (rules.variant == .freestyle ? "" : ", \(rules.variant.name)")
      + (state.settings.openingInPlay == .swap2 ? ", Swap2" : "")
    let about =
      "\(rules.rows)\(g.times)\(rules.columns), \(rules.k) in a row\(variant)\(g.separator)computer: \(state.settings.aiLevel.shown(on: rules))"
    screen.putCentred(about, row: 3, style: Style(dim: true))
    let width = LobbyItem.allCases.map(\.title.count).max() ?? 0
    let left = max(0, (state.width - width - 2) / 2)
    for item in LobbyItem.allCases {
      let selected = item == state.lobbySelection && state.lanSelection == nil
      let row = firstItemRow + item.rawValue
      screen.put(selected ? g.pointer : " ", row: row, column: left, style: Style(bold: true, color: .accent))
      screen.put(item.title, row: row, column: left + 2, style: Style(bold: selected, reverse: selected))
    }
    drawLANGames(state, into: &screen)
    if let notice = state.notice {
      // Whole (a settings file's path and line, a refused join's reason): wrapped, ending on the row above the
      // legend's gap.
      let lines = Fit.wrap(notice, width: state.width - 2)
      for (index, line) in lines.enumerated() {
        screen.putCentred(line, row: state.height - 2 - lines.count + index, style: Style(bold: true, color: .warning))
      }
    }
    let legend = Fit.legend(
      [("\(g.upDown)/jk choose", 2), ("Enter select", 0), ("? help", 3), ("q quit", 1)], separator: g.separator,
      width: state.width - 1)
    screen.put(" " + legend, row: state.height - 1, column: 0, style: Style(dim: true))
  }

  static var lanHeaderRow: Int { firstItemRow + LobbyItem.allCases.count + 1 }

  /// The games on this network, below the menu: name, rules, state, key status, addresses.
  static func drawLANGames(_ state: UIState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    let top = lanHeaderRow
    guard top < state.height - 3 else { return }
    screen.put(" Games on this network:", row: top, column: 0, style: Style(bold: true))
    if state.lanGames.isEmpty {
      let status = state.lanStatus ?? "none found yet"
      for (index, line) in Fit.wrap(status, width: state.width - 4).enumerated()
      where top + 1 + index < state.height - 3 {
        screen.put("   " + line, row: top + 1 + index, column: 0, style: Style(dim: state.lanStatus == nil))
      }
      return
    }
    for (index, game) in state.lanGames.enumerated() where top + 1 + index < state.height - 3 {
      let selected = state.lanSelection == index
      let text = game.fields(glyphs: g).joined(separator: g.separator)
      let style = Style(
        bold: selected || game.isWarning, reverse: selected, color: game.isWarning ? .warning : nil)
      screen.put(selected ? g.pointer : " ", row: top + 1 + index, column: 1, style: Style(bold: true, color: .accent))
      screen.put(
        Fit.clip(text, width: state.width - 5, ellipsis: g.ellipsis), row: top + 1 + index, column: 3, style: style)
    }
  }

  /// The LAN game on a screen row (for mouse clicks).
  public static func lanGame(atRow row: Int, state: UIState) -> Int? {
    let index = row - lanHeaderRow - 1
    return state.lanGames.indices.contains(index) ? index : nil
  }

  /// The menu entry on a screen row (for mouse clicks).
  public static func item(atRow row: Int, state: UIState) -> LobbyItem? {
    LobbyItem(rawValue: row - firstItemRow)
  }
}

/// Draws the options screen: each setting with its value, changed with left and right.
public enum OptionsView {
  static let firstItemRow = 4

  public static func draw(_ state: UIState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    screen.putCentred("Options", row: 1, style: Style(bold: true, color: .title))
    let labelWidth = OptionItem.allCases.map(\.title.count).max() ?? 0
    let left = max(0, (state.width - labelWidth - 16) / 2)
    for item in OptionItem.allCases {
      let selected = item == state.optionSelection
      let row = firstItemRow + item.rawValue + (item == .back ? 1 : 0)
      screen.put(selected ? g.pointer : " ", row: row, column: left, style: Style(bold: true, color: .accent))
      screen.put(item.title, row: row, column: left + 2, style: Style(bold: selected, reverse: selected))
      let column = left + 4 + labelWidth
      if item == .name {
        if let field = state.nameField {
          FieldView.draw(
            field, row: row, column: column, width: max(1, min(34, state.width - column - 1)), into: &screen)
        } else {
          let name = state.settings.name ?? "(your login name)"
          screen.put(name, row: row, column: column, style: Style(bold: selected, dim: state.settings.name == nil))
        }
      } else if let value = value(of: item, state.settings, glyphs: g) {
        screen.put("< \(value) >", row: row, column: column, style: Style(bold: selected))
      }
    }
    if let problem = state.nameProblem {
      let lines = Fit.wrap(problem, width: state.width - 2)
      for (index, line) in lines.enumerated() {
        screen.putCentred(line, row: state.height - 2 - lines.count + index, style: Style(bold: true, color: .warning))
      }
    }
    let items =
      state.nameField != nil
      ? [("type your name", 2), ("Enter keep", 0), ("Esc cancel", 1)]
      : [("\(g.upDown) choose", 2), ("\(g.leftRight) change", 0)]
        + (state.optionSelection == .name ? [("Enter type it", 3)] : []) + [("Esc back", 1)]
    let legend = Fit.legend(items, separator: g.separator, width: state.width - 1)
    screen.put(" " + legend, row: state.height - 1, column: 0, style: Style(dim: true))
  }

  static func value(of item: OptionItem, _ settings: Settings, glyphs g: Glyphs) -> String? {
    switch item {
    case .size: return "\(settings.size)\(g.times)\(settings.size)"
    case .k: return "\(settings.k)"
    case .rule: return settings.rules.variant.name
    case .opening:
      return Swap2.supports(settings.rules) ? settings.opening.rawValue : "standard (swap2: k 5, 9\(g.times)9 up)"
    case .level: return settings.aiLevel.shown(on: settings.rules)
    case .first:
      switch settings.first {
      case .me: return "me"
      case .them: return "the computer"
      case .random: return "coin toss"
      }
    case .records: return settings.records ? "yes" : "no"
    case .opponent:
      // The engine's command is the player's own (settings.conf); its name is still shown made safe.
      guard settings.useEngine, let command = settings.engine,
        case .success(let words) = EngineCommandLine.words(command)
      else { return settings.engine == nil ? "computer (no engine set)" : "computer" }
      return "engine \(EngineCommandLine.shownName(words))"
    case .clock: return settings.clock.isTimed ? "\(settings.clock) (\(settings.clock.spoken))" : "none"
    case .name, .back: return nil
    }
  }

  public static func item(atRow row: Int, state: UIState) -> OptionItem? {
    let index = row - firstItemRow
    if index == OptionItem.back.rawValue + 1 { return .back }
    return index < OptionItem.back.rawValue ? OptionItem(rawValue: index) : nil
  }
}
