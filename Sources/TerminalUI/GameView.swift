import GameCore

/// Draws a local match: title and score, the board with its cursor, the status line and the key legend.
public enum GameView {
  /// Rows taken by everything but the board: title, subtitle, gap, gap, status, legend.
  static let chromeHeight = 6
  static let minimumWidth = 30
  /// The move list's column beside a board with coordinates: one "15. h8  i9" pair a line.
  static let movesWidth = 13

  /// The board's place on the current screen, or nil when the terminal is too small for it.
  public static func layout(for state: UIState) -> BoardLayout? {
    guard let rules = state.match?.rules else { return nil }
    return layout(rules: rules, width: state.width, height: state.height)
  }

  /// The board's place for `rules` on a screen of this size, or nil when it does not fit.
  public static func layout(rules: Rules, width screenWidth: Int, height screenHeight: Int, extraRows: Int = 0)
    -> BoardLayout?
  {
    let state = (width: screenWidth, height: screenHeight - extraRows)
    for kind in [BoardLayout.Kind.boxed, .compact] {
      let width = BoardLayout.width(of: rules, kind: kind)
      let height = BoardLayout.height(of: rules, kind: kind)
      if width + 2 <= state.width && height + chromeHeight <= state.height && state.width >= minimumWidth {
        // Centre the board and its status line in the space between the header and the legend; a board with
        // coordinates has its move list beside it when there is room, the two centred together.
        let top = max(3, (state.height - height - 4) / 2)
        let withMoves = BoardLayout.isLabelled(rules) && width + 3 + movesWidth + 1 <= state.width
        let left = withMoves ? max(1, (state.width - width - 3 - movesWidth) / 2) : (state.width - width) / 2
        return BoardLayout(rules: rules, kind: kind, top: top, left: left)
      }
    }
    return nil
  }

  /// The smallest terminal the compact board fits in, for the "too small" message.
  public static func minimumSize(for rules: Rules) -> (width: Int, height: Int) {
    (
      max(BoardLayout.width(of: rules, kind: .compact) + 2, minimumWidth),
      BoardLayout.height(of: rules, kind: .compact) + chromeHeight
    )
  }

  public static func draw(_ state: UIState, match: Match, layout: BoardLayout, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    let rules = match.rules
    let score = scoreText(match, glyphs: g)
    let variant = rules.variant == .freestyle ? "" : ", \(rules.variant.name)"
    let about = "  \(rules.rows)\(g.times)\(rules.columns), \(rules.k) in a row\(variant)"
    screen.put(" tictactoe", row: 0, column: 0, style: Style(bold: true, color: .title))
    if 10 + about.count + score.count + 2 <= state.width { screen.put(about, row: 0, column: 10) }
    screen.put(score, row: 0, column: max(0, state.width - score.count - 1))
    screen.put(
      " " + Fit.clip(subtitle(match), width: state.width - 2, ellipsis: g.ellipsis), row: 1, column: 0,
      style: Style(dim: true))
    if let clocks = match.clocks(now: state.now) {
      // The row between the subtitle and the board (which starts on row 3 at the highest) is the clocks'.
      let (text, style) = NetPanelView.clockLine(clocks, names: match.clockNames, width: state.width - 2, glyphs: g)
      screen.putCentred(text, row: 2, style: style)
    }
    drawBoard(match.game, cursor: match.cursor, layout: layout, glyphs: g, into: &screen)
    let movesLeft = layout.left + layout.width + 3
    if BoardLayout.isLabelled(rules), movesLeft + movesWidth <= state.width, !match.game.history.isEmpty {
      let lines = NetPanelView.moveLines(match.game, width: movesWidth, rows: max(1, layout.height - 1))
      for (index, line) in lines.enumerated() {
        screen.put(line, row: layout.top + 1 + index, column: movesLeft, style: Style(dim: true))
      }
    }
    let (status, statusStyle) = statusLine(match, glyphs: g, direct: state.direct)
    screen.putCentred(status, row: layout.top + layout.height + 1, style: statusStyle)
    let below = layout.top + layout.height + 2
    if let line = swap2Explanation(match) ?? match.openingNote, below < state.height - 1,
      line.count <= state.width - 2
    {
      screen.putCentred(line, row: below, style: Style(dim: true))
    }
    let legend =
      match.confirming.map { confirmation($0, glyphs: g).legend }
      ?? swap2Legend(match, width: state.width, glyphs: g)
      ?? legendText(width: state.width, glyphs: g, digits: rules == .standard)
    screen.put(" " + legend, row: state.height - 1, column: 0, style: Style(dim: true))
    if let question = match.confirming {
      let (lines, footer, _) = confirmation(question, glyphs: g)
      NetGameView.drawDialog(lines, footer: footer, state: state, into: &screen)
    }
    if let goTo = match.goTo { GoToField.draw(goTo, state: state, into: &screen) }
  }

  /// The question before an unfinished game is dropped: its lines, the dialog's footer and the key legend.
  static func confirmation(_ question: LocalConfirmation, glyphs g: Glyphs) -> (
    lines: [String], footer: String, legend: String
  ) {
    let unfinished = "is not finished: it will not be counted or kept."
    switch question {
    case .leave:
      return (
        ["Leave this game?", "It " + unfinished], "y leave\(g.separator)n play on",
        "y leave the game\(g.separator)n or Esc play on"
      )
    case .newGame:
      return (
        ["Start a new game?", "This one " + unfinished], "y new game\(g.separator)n play on",
        "y start a new game\(g.separator)n or Esc play on"
      )
    }
  }

  static func scoreText(_ match: Match, glyphs g: Glyphs) -> String {
    let s = match.score
    let names = match.isComputerGame ? ("You", "Computer") : match.isEngineGame ? ("You", "Engine") : ("P1", "P2")
    return "\(names.0) \(s.first)\(g.separator)\(names.1) \(s.second)\(g.separator)draws \(s.draws)"
  }

  static func subtitle(_ match: Match) -> String {
    if let text = swap2Subtitle(match) { return text }
    switch match.opponent {
    case .computer(let level):
      return "You play \(match.humanMark) against the computer (\(level.shown(on: match.rules)))"
    case .engine(let name):
      return "You play \(match.humanMark) against the engine \(name)"
    case .hotseat:
      let (x, o) = (match.player(with: .x), match.player(with: .o))
      return "Two players take turns at this keyboard: \(x) is X and moves first, \(o) is O"
    }
  }

  static func drawBoard(
    _ game: Game, cursor: Position?, layout: BoardLayout, glyphs g: Glyphs, into screen: inout ScreenBuffer
  ) {
    let rules = game.rules
    if BoardLayout.isLabelled(rules) { drawCoordinates(rules, layout: layout, into: &screen) }
    if layout.kind == .boxed {
      let lineStyle = Style(dim: false)
      let grid = layout.gridOrigin
      for r in 0...rules.rows {
        let y = grid.row + r * 2
        let (leftEnd, middle, rightEnd) =
          r == 0
          ? (g.topLeft, g.teeDown, g.topRight)
          : (r == rules.rows ? (g.bottomLeft, g.teeUp, g.bottomRight) : (g.teeRight, g.cross, g.teeLeft))
        var line = String(leftEnd)
        for c in 0..<rules.columns {
          line += String(repeating: g.horizontal, count: 3)
          line.append(c == rules.columns - 1 ? rightEnd : middle)
        }
        screen.put(line, row: y, column: grid.column, style: lineStyle)
        if r < rules.rows {
          for c in 0...rules.columns {
            screen.put(String(g.vertical), row: y + 1, column: grid.column + c * 4, style: lineStyle)
          }
        }
      }
    }
    let winning: Set<Position>
    if case .win(_, let line) = game.outcome { winning = Set(line) } else { winning = [] }
    for r in 0..<rules.rows {
      for c in 0..<rules.columns {
        let position = Position(row: r, column: c)
        let origin = layout.origin(of: position)
        let mark = game.board[position]
        let isCursor = position == cursor && !game.isOver
        let isLast = position == game.lastMove
        var style = Style(bold: mark != nil, color: mark.map { $0 == .x ? .xMark : .oMark })
        if winning.contains(position) {
          style = Style(bold: true, underline: true, color: .winningLine)
        } else if isLast && mark != nil {
          style.underline = true
        }
        let symbol = mark.map { String(describing: $0) } ?? (layout.kind == .compact ? String(g.emptyCell) : " ")
        if isCursor {
          var cursorStyle = style
          cursorStyle.reverse = true
          screen.put("[\(symbol)]", row: origin.row, column: origin.column, style: cursorStyle)
        } else {
          screen.put(" ", row: origin.row, column: origin.column)
          screen.put(symbol, row: origin.row, column: origin.column + 1, style: style)
          screen.put(" ", row: origin.row, column: origin.column + 2)
        }
      }
    }
  }

  /// The column letters above the grid and the row numbers (1 at the bottom) left of it, dim.
  static func drawCoordinates(_ rules: Rules, layout: BoardLayout, into screen: inout ScreenBuffer) {
    let names = Coordinates(rules)
    let style = Style(dim: true)
    for c in 0..<rules.columns {
      let cell = layout.origin(of: Position(row: 0, column: c))
      screen.put(names.columnName(c), row: layout.top, column: cell.column + 1, style: style)
    }
    for r in 0..<rules.rows {
      let number = names.rowName(r)
      let cell = layout.origin(of: Position(row: r, column: 0))
      screen.put(
        String(repeating: " ", count: 2 - number.count) + number, row: cell.row, column: layout.left, style: style)
    }
  }

  static func statusLine(_ match: Match, glyphs g: Glyphs, direct: Bool) -> (String, Style) {
    if let notice = match.notice { return (notice, Style(bold: true, color: .warning)) }
    let next = "n new game\(g.separator)q \(direct ? "quit" : "menu")"
    if let forfeit = match.forfeit {
      // The reason came from the engine's fault, already sanitised; the player goes on against the computer.
      return ("You win: \(forfeit).  n play the computer", Style(bold: true, color: .accent))
    }
    if let loser = match.lostOnTime {
      let text: String
      switch match.opponent {
      case .hotseat: text = "\(loser) (\(match.player(with: loser))) lost on time: \(loser.opponent) wins!"
      default: text = loser == match.humanMark ? "You lost on time." : "The computer lost on time: you win!"
      }
      return ("\(text)  \(next)", Style(bold: true, color: .accent))
    }
    if let outcome = match.game.outcome {
      let text: String
      switch outcome.winner {
      case nil where match.game.endedWithOnlyForbiddenCells:
        text = "Draw: every empty cell is forbidden to X (renju)."
      case nil: text = "Draw."
      case .some(let mark) where match.isComputerGame:
        text = mark == match.humanMark ? "You win!" : "The computer wins."
      case .some(let mark) where match.isEngineGame:
        text = mark == match.humanMark ? "You win!" : "The engine wins."
      case .some(let mark): text = "\(mark) (\(match.player(with: mark))) wins!"
      }
      return ("\(text)  \(next)", Style(bold: true, color: .accent))
    }
    if let swap2 = match.swap2, swap2.isOpening { return swap2Status(match, swap2, glyphs: g) }
    if match.aiThinking {
      return ("The \(match.isEngineGame ? "engine" : "computer") is thinking\(g.ellipsis)", Style(dim: true))
    }
    // The last move is named, as in a network game: "The computer plays h8.", and on 3×3 by the number of its
    // cell, as the keys 1-9 name cells: "The computer plays 7." (the board marks it only by an underline).
    var last = ""
    if let move = match.game.lastMove, let mark = match.game.board[move] {
      let name =
        BoardLayout.isLabelled(match.rules)
        ? Coordinates(match.rules).name(of: move) : "\(move.cellNumber(in: match.rules))"
      let who = match.isEngineGame ? "engine" : "computer"
      last = match.isMachineGame && mark != match.humanMark ? "The \(who) plays \(name). " : "\(mark) plays \(name). "
    }
    if let choice = swap2Choice(match) { last = choice }
    if match.isMachineGame { return (last + "Your turn (\(match.humanMark))", Style(bold: true)) }
    return (last + "\(match.game.turn) to move (\(match.player(with: match.game.turn)))", Style(bold: true))
  }

  /// The one-line key legend, the least needed keys dropped first when the line is short.
  static func legendText(width: Int, glyphs g: Glyphs, digits: Bool) -> String {
    let items =
      [("\(g.arrows)/hjkl move", 3), ("Enter place", 0)] + (digits ? [("1-9 place", 4)] : [])
      + [("u undo", 5), ("n new", 6)] + (digits ? [] : [("g go to", 7)]) + [("? help", 2), ("q back", 1)]
    return Fit.legend(items, separator: g.separator, width: width - 1)
  }
}
