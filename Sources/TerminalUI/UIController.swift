import GameCore
import Gomocup
import UntrustedText

/// Something the controller asks its driver to do outside the pure model.
public enum Effect: Sendable, Equatable {
  /// Choose a move for the side to move in `game`; answer with `computerMoved(_:token:)`.
  case think(game: Game, level: AILevel, token: Int)
  /// The outside engine is to move in `game`: tell it the player's last move (BEGIN on an empty board), and
  /// answer with `computerMoved(_:token:)`, or `engineForfeited(_:token:)` when it fails.
  case askEngine(game: Game, token: Int)
  case saveSettings(Settings)
  case quit
  /// Start hosting a network game with the current settings.
  case host
  /// Join the game at this address.
  case join(String)
  /// Join the game announced on the LAN under this name.
  case joinLAN(String)
  case netPlay(Position)
  case netChat(String)
  case netResign
  /// Claim the game: the opponent did not come back within the grace period.
  case netClaim
  case netRematch
  case netAnswer(Bool)
  /// Leave the networked match (saying goodbye) and return to the lobby.
  case netLeave
  /// The match is over for the joiner (its host restarted, say): join the same host again.
  case netRejoin
  /// Host: the player answered the offer to open the port on the router (true: open it and keep asking the
  /// router while hosting, saved; false: never ask, saved).
  case netMapPort(Bool)
  /// Clear the terminal and draw the whole screen again (Ctrl-L): another program wrote over it.
  case repaint
}

/// The terminal UI's state machine: keys and computer moves in, new state and effects out. No I/O.
public struct UIController: Sendable {
  public internal(set) var state: UIState

  public init(state: UIState) {
    self.state = state
  }

  /// Starts a match at once (for `tictactoe play`).
  public mutating func startDirect(opponent: Opponent) -> [Effect] {
    state.direct = true
    return startMatch(opponent)
  }

  public mutating func resize(width: Int, height: Int) {
    state.width = width
    state.height = height
  }

  public mutating func handle(_ key: Key) -> [Effect] {
    // Ctrl-L repaints on every screen, as in every full-screen terminal program; nothing else changes.
    if key == .control("l") { return [.repaint] }
    if case .paste(let text) = key, !takesText {
      // Where nothing is being typed, pasted text means what its characters would mean one by one.
      return text.flatMap { handle($0.isNewline ? .enter : .character($0)) }
    }
    if state.helpVisible {
      if key != .resize { state.helpVisible = false }
      return []
    }
    switch state.page {
    case .lobby: return lobby(KeyMap.action(for: key, in: .menu))
    case .options:
      if state.nameField != nil { return editName(key) }
      return options(KeyMap.action(for: key, in: .menu))
    case .game:
      let digits = state.match?.rules == .standard
      return game(KeyMap.action(for: key, in: .game(digitsPlace: digits)))
    case .joinAddress:
      return joinAddress(key)
    case .network:
      return network(key)
    }
  }

  /// Whether the screen has a text field that takes a paste whole: the address, a chat line, a fingerprint.
  private var takesText: Bool {
    if state.helpVisible { return false }
    switch state.page {
    case .joinAddress: return true
    case .options: return state.nameField != nil
    case .network: return state.net?.question != nil || state.net?.chatDraft != nil
    default: return false
    }
  }

  /// Leaving the current screen quits the program (for games started from the command line).
  public mutating func quitWhenLeaving() {
    state.direct = true
  }

  /// Shows a networked match (the driver calls this when hosting or joining begins).
  public mutating func showNetwork(_ net: NetGameState) {
    state.net = net
    state.page = .network
  }

  /// A line for the lobby (such as why the options could not be saved).
  public mutating func showNotice(_ text: String) {
    state.notice = text
  }

  /// Shows `text` where the player is looking: the network game's or the local game's notice line, or the lobby's.
  public mutating func tell(_ text: String) {
    if state.net != nil {
      state.net?.notice = text
    } else if state.page == .game, state.match != nil {
      state.match?.notice = text
    } else {
      state.notice = text
    }
  }

  /// Lets the network driver change what the screen shows of the match.
  public mutating func updateNetwork(_ change: (inout NetGameState) -> Void) {
    guard var net = state.net else { return }
    change(&net)
    state.net = net
  }

  /// The host being joined answered: its address goes to the top of the recent ones. Returns the new list
  /// to save (nil when no join by address was waiting for its answer).
  public mutating func joinAnswered() -> [String]? {
    guard let address = state.joiningAddress else { return nil }
    state.joiningAddress = nil
    state.recentAddresses = [address] + state.recentAddresses.filter { $0 != address }.prefix(4)
    return state.recentAddresses
  }

  /// Back to the lobby after a networked match (or quit when it was started from the command line).
  public mutating func leaveNetwork() -> [Effect] {
    state.net = nil
    state.joiningAddress = nil
    if state.direct { return quit() }
    state.page = .lobby
    return []
  }

  /// The computer chose `position`; ignored if the game changed since it was asked.
  public mutating func computerMoved(_ position: Position, token: Int) -> [Effect] {
    guard var match = state.match, match.token == token, match.aiThinking else { return [] }
    match.aiThinking = false
    do {
      try match.game.play(position)
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

  // MARK: - Lobby and options

  /// Replaces the LAN games the lobby lists, keeping the selection on the same game when it is still there.
  public mutating func showLANGames(_ rows: [LANGameRow], status: String?) {
    let selected = state.lanSelection.flatMap { state.lanGames.indices.contains($0) ? state.lanGames[$0].id : nil }
    state.lanGames = rows
    state.lanStatus = status
    if let selected { state.lanSelection = rows.firstIndex { $0.id == selected } ?? (rows.isEmpty ? nil : 0) }
  }

  private mutating func lobby(_ action: Action?) -> [Effect] {
    switch action {
    case .moveCursor(let rows, _):
      moveLobbySelection(by: rows)
    case .click(let row, _):
      if let item = LobbyView.item(atRow: row, state: state) {
        state.lobbySelection = item
        state.lanSelection = nil
        return choose(item)
      }
      if let index = LobbyView.lanGame(atRow: row, state: state) {
        state.lanSelection = index
        return [.joinLAN(state.lanGames[index].id)]
      }
    case .select:
      if let index = state.lanSelection, state.lanGames.indices.contains(index) {
        return [.joinLAN(state.lanGames[index].id)]
      }
      return choose(state.lobbySelection)
    case .back:
      return quit()
    case .help:
      state.helpVisible = true
    default:
      break
    }
    return []
  }

  private mutating func choose(_ item: LobbyItem) -> [Effect] {
    switch item {
    case .playComputer:
      if state.settings.useEngine, let command = state.settings.engine,
        case .success(let words) = EngineCommandLine.words(command)
      {
        let rules = state.settings.rules
        guard rules.k == 5, rules.rows >= 5 else {
          state.notice = "An engine plays five in a row on 5×5 to 15×15: change the board in Options."
          return []
        }
        return startMatch(.engine(EngineCommandLine.shownName(words)))
      }
      return startMatch(.computer(state.settings.aiLevel))
    case .hotseat: return startMatch(.hotseat)
    case .host: return [.host]
    case .join:
      state.page = .joinAddress
      state.addressDraft = state.recentAddresses.first ?? ""
      return []
    case .options:
      state.page = .options
      state.optionSelection = .size
      return []
    case .quit: return quit()
    }
  }

  private mutating func quit() -> [Effect] {
    state.quitRequested = true
    return [.quit]
  }

  // MARK: - Game

  private mutating func startMatch(_ opponent: Opponent) -> [Effect] {
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
    if match.isMachineGame {
      match.humanMark = humanFirst ? .x : .o
    } else {
      // Hot seat: P1 is X in odd games, O in even ones.
      match.humanMark = match.gamesStarted.isMultiple(of: 2) ? .x : .o
    }
    match.gamesStarted += 1
    match.aiThinking = false
    match.notice = nil
    match.token += 1
    state.gamesStarted += 1
    match.number = state.gamesStarted
    state.match = match
    return askComputerIfItsTurn()
  }

  private mutating func askComputerIfItsTurn() -> [Effect] {
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
    return [.think(game: match.game, level: level, token: match.token)]
  }

  private mutating func game(_ action: Action?) -> [Effect] {
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
    case .newGame:
      return newGame()
    case .help:
      state.helpVisible = true
    case .back:
      if state.direct { return quit() }
      match.token += 1
      match.aiThinking = false
      state.match = match
      state.page = .lobby
    case .redraw, .select, .adjust, nil:
      break
    }
    return []
  }

  private mutating func place(_ position: Position) -> [Effect] {
    guard var match = state.match else { return [] }
    if match.isOver {
      match.notice = "The game is over: press n for a new game."
    } else if match.machineToMove {
      match.notice = "Wait for the \(match.isEngineGame ? "engine" : "computer")'s move."
    } else {
      do {
        try match.game.play(position)
        if let outcome = match.game.outcome { match.count(outcome) }
      } catch {
        match.notice = notice(for: error)
      }
    }
    state.match = match
    return askComputerIfItsTurn()
  }

  private func notice(for error: MoveError) -> String {
    switch error {
    case .occupied(_, let mark): return "That cell is taken by \(mark). Choose an empty one."
    case .outOfRange: return "That cell is not on the board."
    case .gameOver: return "The game is over: press n for a new game."
    case .notYourTurn: return "It is not your turn."
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
    let humanMoves = match.game.history.indices.filter { match.isComputerGame ? moverIsHuman($0, match) : true }
    guard !humanMoves.isEmpty else {
      match.notice = "Nothing to undo."
      state.match = match
      return []
    }
    if let outcome = match.game.outcome { match.count(outcome, sign: -1) }
    match.token += 1
    match.aiThinking = false
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

  /// Up and down run through the menu and then the LAN games below it.
  private mutating func moveLobbySelection(by delta: Int) {
    let items = LobbyItem.allCases
    var position = state.lanSelection.map { items.count + $0 } ?? (items.firstIndex(of: state.lobbySelection) ?? 0)
    position = min(max(position + delta, 0), items.count + state.lanGames.count - 1)
    if position < items.count {
      state.lobbySelection = items[position]
      state.lanSelection = nil
    } else {
      state.lanSelection = position - items.count
    }
  }
}
