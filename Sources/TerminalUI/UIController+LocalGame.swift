import GameCore

/// A local game (against the computer, an outside engine, or hot seat): its keys, the machine's answers, new
/// games, moves and take-backs, and the score kept across returns to the lobby.
extension UIController {
  /// The computer chose `position`; ignored if the game changed since it was asked.
  public mutating func computerMoved(_ position: Position, token: Int) -> [Effect] {
    _ = clockTick(now: state.now)  // a move that comes after the computer's flag fell is not played
    guard var match = state.match, match.token == token, match.aiThinking else { return [] }
    match.aiThinking = false
    do {
      try match.play(position, now: state.now)
      // "Wait for the computer's move." and the like are over once it has moved.
      match.notice = nil
    } catch {
      match.notice = "The computer tried an illegal move: \(error)"
    }
    if let outcome = match.game.outcome { match.count(outcome) }
    state.match = match
    return []
  }

  /// The outside engine lost the game by `reason` (made safe to show): the player wins, and may play on against
  /// the built-in computer (a new game, `n`).
  public mutating func engineForfeited(_ reason: String, token: Int) -> [Effect] {
    guard var match = state.match, match.token == token, match.isEngineGame, !match.isOver else { return [] }
    match.aiThinking = false
    match.forfeit = reason
    match.notice = nil
    match.score.first += 1
    state.match = match
    return []
  }

  /// No engine can play (the one settings.conf names failed its checks): back to the lobby, saying why.
  public mutating func engineUnavailable(_ reason: String, token: Int) -> [Effect] {
    guard let match = state.match, match.token == token, match.isEngineGame else { return [] }
    if state.direct { return quit() }
    state.match = nil
    state.page = .lobby
    state.notice = reason
    return []
  }

  mutating func startMatch(_ opponent: Opponent) -> [Effect] {
    // The score is kept across returns to the lobby: the same opponent and rules carry on where they were.
    if let old = state.match {
      state.records[MatchRecord.key(old.opponent, old.rules)] = MatchRecord(
        score: old.score, gamesStarted: old.gamesStarted)
    }
    var match = Match(opponent: opponent, rules: state.settings.rules, humanMark: .x)
    if let record = state.records[MatchRecord.key(opponent, match.rules)] {
      match.score = record.score
      match.gamesStarted = record.gamesStarted
    }
    state.match = match
    state.page = .game
    return newGame()
  }

  private mutating func newGame() -> [Effect] {
    guard var match = state.match else { return [] }
    // After an engine's forfeit the player plays on against the built-in computer.
    if match.forfeit != nil { return startMatch(.computer(state.settings.aiLevel)) }
    let humanFirst: Bool
    switch state.settings.first {
    case .me: humanFirst = true
    case .them: humanFirst = false
    case .random: humanFirst = Bool.random(using: &state.random)
    }
    match.game = Game(rules: match.rules)
    // The clock setting (or `play --clock`) times games against the computer and at one keyboard; an engine
    // keeps its own time (the brain protocol's timeout_turn).
    match.clock = match.isEngineGame ? nil : LocalClock(state.settings.clock, now: state.now)
    if match.isMachineGame {
      match.humanMark = humanFirst ? .x : .o
    } else {
      // Hot seat: P1 is X in odd games, O in even ones.
      match.humanMark = match.gamesStarted.isMultiple(of: 2) ? .x : .o
    }
    match.openingNote = nil
    startOpening(&match)
    match.gamesStarted += 1
    match.aiThinking = false
    match.notice = nil
    match.token += 1
    state.gamesStarted += 1
    match.number = state.gamesStarted
    state.match = match
    return askComputerIfItsTurn()
  }

  mutating func askComputerIfItsTurn() -> [Effect] {
    if let effects = askComputerForSwap2() { return effects }
    if var match = state.match, match.engineToMove, !match.aiThinking {
      match.aiThinking = true
      state.match = match
      return [.askEngine(game: match.game, token: match.token)]
    }
    guard var match = state.match, match.computerToMove, !match.aiThinking,
      case .computer(let level) = match.opponent
    else { return [] }
    match.aiThinking = true
    state.match = match
    // On a running clock the search is bounded by the computer's time left; untimed, it takes its usual budget.
    let budget = match.clock.map {
      $0.searchBudget(now: state.now, emptyCells: match.game.legalMoves.count, usual: AIPlayer.usualMilliseconds)
    }
    return [.think(game: match.game, level: level, token: match.token, budget: budget)]
  }

  mutating func game(_ action: Action?) -> [Effect] {
    guard var match = state.match else { return [] }
    if GameView.layout(for: state) == nil, action?.isOnTheBoard == true { return [] }  // nothing played unseen
    match.notice = nil
    state.match = match
    switch action {
    case .moveCursor(let rows, let columns):
      match.cursor.row = min(max(match.cursor.row + rows, 0), match.rules.rows - 1)
      match.cursor.column = min(max(match.cursor.column + columns, 0), match.rules.columns - 1)
      state.match = match
    case .place:
      return place(match.cursor)
    case .placeNumber(let number):
      guard let position = Position(cellNumber: number, rules: match.rules) else { return [] }
      match.cursor = position
      state.match = match
      return place(position)
    case .click(let row, let column):
      let layout = GameView.layout(for: state)
      guard let position = layout?.position(atRow: row, column: column) else { return [] }
      match.cursor = position
      state.match = match
      return place(position)
    case .undo:
      return undo()
    case .choose(let choice):
      return chooseInOpening(choice)
    case .newGame:
      if asksFirst(.newGame) { return [] }
      return newGame()
    case .help:
      state.helpVisible = true
    case .goTo:
      match.goTo = GoToField()
      state.match = match
    case .back:
      if asksFirst(.leave) { return [] }
      return leaveGame()
    case .redraw, .select, .adjust, nil:
      break
    }
    return []
  }

  /// Back to the lobby from a local game (or quit, for a game started from the command line).
  private mutating func leaveGame() -> [Effect] {
    guard var match = state.match else { return [] }
    match.confirming = nil
    if state.direct {
      state.match = match
      return quit()
    }
    match.token += 1
    match.aiThinking = false
    match.clock?.stop()
    state.match = match
    state.page = .lobby
    return []
  }

  /// Whether `question` is put to the player instead of dropping the game at once: a game in progress is not
  /// dropped by one stray key (a terminal too small to show the board shows no question: q leaves at once).
  private mutating func asksFirst(_ question: LocalConfirmation) -> Bool {
    guard var match = state.match, match.isInProgress, GameView.layout(for: state) != nil else { return false }
    match.confirming = question
    state.match = match
    return true
  }

  /// A key while the go-to field is open: Enter on a cell moves the cursor there (nothing is placed).
  mutating func localGoTo(_ key: Key) -> [Effect] {
    guard var match = state.match, var goTo = match.goTo else { return [] }
    let (cursor, open) = goTo.handle(key, rules: match.rules)
    match.goTo = open ? goTo : nil
    if let cursor { match.cursor = cursor }
    state.match = match
    return []
  }

  /// A key while a local game's question is up: `y` does it, `n`, Esc or `q` goes back to the game, anything else
  /// is ignored.
  mutating func localConfirmation(_ key: Key, _ question: LocalConfirmation) -> [Effect] {
    switch key {
    case .character("y"), .character("Y"):
      state.match?.confirming = nil
      return question == .leave ? leaveGame() : newGame()
    case .character("n"), .character("N"), .character("q"), .escape:
      state.match?.confirming = nil
    default: break
    }
    return []
  }

  private mutating func place(_ position: Position) -> [Effect] {
    _ = clockTick(now: state.now)  // a move made after the player's flag fell is not played
    guard var match = state.match else { return [] }
    if match.isOver {
      match.notice = "The game is over: press n for a new game."
    } else if match.machineToMove {
      match.notice = "Wait for the \(match.isEngineGame ? "engine" : "computer")'s move."
    } else {
      do {
        try match.play(position, now: state.now)
        if let outcome = match.game.outcome { match.count(outcome) }
      } catch {
        match.notice = notice(for: error)
      }
    }
    state.match = match
    return askComputerIfItsTurn()
  }

  private func notice(for error: Swap2Error) -> String {
    switch error {
    case .move(let error): return notice(for: error)
    case .choiceDue(let step): return "Choose first: \(LocalSwap2.keys(for: step))."
    default: return "\(error)"
    }
  }

  private func notice(for error: MoveError) -> String {
    switch error {
    case .occupied(_, let mark): return "That cell is taken by \(mark). Choose an empty one."
    case .outOfRange: return "That cell is not on the board."
    case .gameOver: return "The game is over: press n for a new game."
    case .notYourTurn: return "It is not your turn."
    case .forbidden(_, let foul): return "Forbidden to X under renju (\(foul)): \(foul.explanation)."
    }
  }

  /// Takes back the player's last move (and the computer's reply to it); one move in hot-seat games.
  private mutating func undo() -> [Effect] {
    guard var match = state.match else { return [] }
    guard !match.isEngineGame else {
      // The engine was told every move as it came; the brain protocol's TAKEBACK is not used.
      match.notice = "A game against an engine cannot be taken back: n starts a new one."
      state.match = match
      return []
    }
    guard match.clock == nil else {
      // The clocks could not be put back honestly; lichess keeps them as they are, which a timed game at one
      // keyboard would turn into free thinking time.
      match.notice = "A timed game cannot be taken back: n starts a new one."
      state.match = match
      return []
    }
    let humanMoves = match.game.history.indices.filter { match.isComputerGame ? moverIsHuman($0, match) : true }
    guard match.swap2?.hasActionToUndo(computerGame: match.isComputerGame) ?? !humanMoves.isEmpty else {
      match.notice = "Nothing to undo."
      state.match = match
      return []
    }
    if let outcome = match.game.outcome { match.count(outcome, sign: -1) }
    match.token += 1
    match.aiThinking = false
    if var swap2 = match.swap2 {
      swap2.undo(computerGame: match.isComputerGame)
      match.swap2 = swap2
      match.followOpening(now: state.now)
      state.match = match
      return askComputerIfItsTurn()
    }
    while let last = match.game.history.indices.last {
      match.game.undo()
      if !match.isComputerGame || moverIsHuman(last, match) { break }
    }
    state.match = match
    return askComputerIfItsTurn()
  }

  private func moverIsHuman(_ ply: Int, _ match: Match) -> Bool {
    (ply.isMultiple(of: 2) ? Mark.x : Mark.o) == match.humanMark
  }
}

extension UIController {
  /// The driver's monotonic clock reads `now` (seconds): a timed local game's flag falls if its time is out, and
  /// the game ends as a loss on time (a computer's move still being chosen is dropped).
  public mutating func clockTick(now: Double) -> [Effect] {
    state.now = now
    guard var match = state.match, var clock = match.clock, let loser = clock.flagIfDue(now: now) else { return [] }
    match.clock = clock
    match.count(winner: LocalClock.colour(ofSide: loser, in: match.swap2?.opening).opponent)
    match.aiThinking = false
    match.token += 1
    match.notice = nil
    state.match = match
    return []
  }

  /// When the screen must next be brought up to date for a local game's clock: the running clock's face
  /// changes, or its flag falls; nil when no clock runs (an untimed game wakes nobody).
  public var nextLocalClockChange: Double? {
    guard state.page == .game, let clock = state.match?.clock else { return nil }
    return clock.nextFaceChange(now: state.now)
  }
}
