import GameCore
import PlayerSettings
import UntrustedText

/// The options screen's keys: each setting changed with left and right, the name typed in its field.
extension UIController {
  mutating func options(_ action: Action?) -> [Effect] {
    switch action {
    case .moveCursor(let rows, _):
      state.optionSelection = step(state.optionSelection, by: rows)
    case .adjust(let delta):
      return adjust(state.optionSelection, by: delta)
    case .click(let row, _):
      if let item = OptionsView.item(atRow: row, state: state) {
        state.optionSelection = item
        if item == .back { return leaveOptions() }
      }
    case .select:
      if state.optionSelection == .back { return leaveOptions() }
      if state.optionSelection == .name {
        state.nameField = TextField(state.settings.name ?? "", limit: 64)
        state.nameProblem = nil
        return []
      }
      return adjust(state.optionSelection, by: 1)
    case .back:
      return leaveOptions()
    case .help:
      state.helpVisible = true
    default:
      break
    }
    return []
  }

  mutating func adjust(_ item: OptionItem, by delta: Int) -> [Effect] {
    var settings = state.settings
    switch item {
    case .size:
      settings.size = wrap(settings.size + delta, in: Rules.sideRange)
      // A new board comes with its natural k, as `--size` gives it: 3 on 3×3, 4 on 4×4, five in a row above.
      settings.k = min(settings.size, 5)
      settings.clamp()
    case .k:
      settings.k = wrap(settings.k + delta, in: 3...settings.size)
    case .rule:
      // Exact five and renju are for five in a row: choosing one makes the game five in a row (on 15×15 when
      // the board was smaller than 5×5); the rule is shown as freestyle again once k is not 5.
      settings.rule = step(settings.rules.variant, by: delta, wrapping: true)
      if settings.rule != .freestyle, settings.k != Rules.variantK {
        if settings.size < Rules.variantK { settings.size = 15 }
        settings.k = Rules.variantK
      }
    case .opening:
      // Offered only where Swap2 is played: five in a row on boards from 9×9.
      if Swap2.supports(settings.rules) { settings.opening = settings.opening == .swap2 ? .standard : .swap2 }
    case .level:
      settings.aiLevel = step(settings.aiLevel, by: delta, wrapping: true)
    case .first:
      settings.first = step(settings.first, by: delta, wrapping: true)
    case .records:
      settings.records.toggle()
    case .opponent:
      // Only an engine named in settings.conf (engine = COMMAND) can be chosen here.
      if settings.engine != nil { settings.useEngine.toggle() }
    case .clock:
      // The usual controls, and after them the player's own from settings.conf (until the player steps away).
      var controls = Settings.clockChoices
      if !controls.contains(settings.clock) { controls.append(settings.clock) }
      let index = controls.firstIndex(of: settings.clock) ?? 0
      settings.clock = controls[(index + delta % controls.count + controls.count) % controls.count]
    case .name, .back:
      return []
    }
    state.settings = settings
    return []
  }

  mutating func leaveOptions() -> [Effect] {
    state.page = .lobby
    return [.saveSettings(state.settings)]
  }

  /// A key while the name field is open: Enter keeps the name (empty: the login name again), Esc cancels.
  mutating func editName(_ key: Key) -> [Effect] {
    guard var field = state.nameField else { return [] }
    switch key {
    case .escape:
      state.nameField = nil
    case .enter:
      let name = field.text.trimmingSpaces()
      if let problem = Self.problem(withName: name) {
        state.nameProblem = problem
        return []
      }
      state.settings.name = name.isEmpty ? nil : name
      state.nameField = nil
    default:
      field.handle(key)
      state.nameField = field
      state.nameProblem = nil
    }
    return []
  }

  /// Why a typed name cannot be a player's name (as the other side would refuse it), or nil.
  static func problem(withName name: String) -> String? {
    if name.count > 32 { return "A name is at most 32 characters." }
    if name.unicodeScalars.contains(where: VisibleText.isUnsafe) {
      return "A name cannot hold control, invisible or direction-changing characters."
    }
    return nil
  }

  // MARK: - Helpers

  func step<T: CaseIterable & Equatable>(_ value: T, by delta: Int, wrapping: Bool = false) -> T
  where T.AllCases == [T] {
    let all = T.allCases
    guard let index = all.firstIndex(of: value) else { return value }
    let next =
      wrapping ? (index + delta % all.count + all.count) % all.count : min(max(index + delta, 0), all.count - 1)
    return all[next]
  }

  func wrap(_ value: Int, in range: ClosedRange<Int>) -> Int {
    if value > range.upperBound { return range.lowerBound }
    if value < range.lowerBound { return range.upperBound }
    return value
  }
}
