import GameCore

/// The go-to key (`g`): a field where a coordinate (`h8`, a cell number, or row,col) moves the cursor there, so
/// crossing a big board takes one typed cell instead of many presses. Letters cannot move the cursor directly:
/// h, j, k, l, n, u, q and the match's letters are keys.
public struct GoToField: Sendable, Equatable {
  public var field = TextField(limit: 12)
  /// Why the last cell typed was not one, read by the parser of typed moves.
  public var problem: String?

  public init() {}

  /// A key while the field is open: where the cursor goes (Enter on a cell of the board), whether the field
  /// stays open, and nothing else happens.
  mutating func handle(_ key: Key, rules: Rules) -> (cursor: Position?, open: Bool) {
    switch key {
    case .escape: return (nil, false)
    case .enter:
      switch PlainSession.readMove(field.text, rules: rules) {
      case .success(let position): return (position, false)
      case .failure(let error):
        problem = "\(error)"
        field.set("")
        return (nil, true)
      }
    default:
      field.handle(key)
      problem = nil
      return (nil, true)
    }
  }

  /// The field on the screen's last row, in place of the key legend.
  static func draw(_ goTo: GoToField, state: UIState, into screen: inout ScreenBuffer) {
    let row = state.height - 1
    let g = state.glyphs
    screen.put(String(repeating: " ", count: state.width), row: row, column: 0)
    let label = " Go to: "
    screen.put(label, row: row, column: 0, style: Style(bold: true))
    let help = goTo.problem.map { "  \($0)" } ?? "  a cell such as h8\(g.separator)Enter go\(g.separator)Esc back"
    let fieldWidth = 8
    FieldView.draw(goTo.field, row: row, column: label.count, width: fieldWidth, into: &screen)
    let style = goTo.problem == nil ? Style(dim: true) : Style(bold: true, color: .warning)
    let left = label.count + fieldWidth
    screen.put(
      Fit.clip(help, width: max(0, state.width - left - 1), ellipsis: g.ellipsis), row: row, column: left, style: style)
  }
}
