import GameCore
import Gomocup
import PlayerSettings
import UntrustedText

/// Something the controller asks its driver to do outside the pure model.
public enum Effect: Sendable, Equatable {
  /// Choose a move for the side to move in `game`, searching at most `budget` milliseconds (nil: the usual
  /// budget); answer with `computerMoved(_:token:)`.
  case think(game: Game, level: AILevel, token: Int, budget: Int? = nil)
  /// The computer is to place its stones or choose in the Swap2 opening where `opening` stands (`Swap2Computer`,
  /// one move's time, at most `budget` milliseconds on a running clock); answer with `computerAnsweredSwap2(_:token:)`.
  case answerSwap2(opening: Swap2, token: Int, budget: Int? = nil)
  /// The outside engine is to move in `game`: tell it the player's last move (BEGIN on an empty board), and
  /// answer with `computerMoved(_:token:)`, or `engineForfeited(_:token:)` when it fails.
  case askEngine(game: Game, token: Int)
  /// The outside engine is to place its stones or choose in the Swap2 opening where `opening` stands
  /// (SWAP2BOARD); answer with `computerAnsweredSwap2(_:token:)`, `engineRefusedSwap2(_:token:)` when it does
  /// not play Swap2, or `engineForfeited(_:token:)` when it fails.
  case askEngineSwap2(opening: Swap2, token: Int)
  case saveSettings(Settings)
  case quit
  /// Start hosting a network game with the current settings.
  case host
  /// Join the game at this address.
  case join(String)
  /// Join the game announced on the LAN under this name.
  case joinLAN(String)
  /// Watch the game announced on the LAN under this name (the lobby's Watch, `w`, on a game that may be watched).
  case watchLAN(String)
  case netPlay(Position)
  /// A choice of the Swap2 opening in a network game.
  case netChoose(Swap2.Choice)
  case netChat(String)
  case netResign
  /// Offer a draw, or accept the opponent's offer.
  case netDraw
  /// Ask to take back this player's last move, or accept the opponent's request.
  case netTakeback
  /// Decline what the opponent offers or asks.
  case netDecline
  /// Abort the game before both sides have moved.
  case netAbort
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
  /// Host: the player confirmed a new invite (a new token at the relay; invites sent before stop coming in
  /// through it).
  case netNewInvite
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
    case .lobby:
      if key == .character("w"), let index = state.lanSelection, state.lanGames.indices.contains(index),
        state.lanGames[index].watchable
      {
        return [.watchLAN(state.lanGames[index].id)]
      }
      return lobby(KeyMap.action(for: key, in: .menu))
    case .options:
      if state.nameField != nil { return editName(key) }
      return options(KeyMap.action(for: key, in: .menu))
    case .game:
      if let confirming = state.match?.confirming { return localConfirmation(key, confirming) }
      if state.match?.goTo != nil { return localGoTo(key) }
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
    case .network: return state.net?.question != nil || state.net?.chatDraft != nil || state.net?.goTo != nil
    case .game: return state.match?.goTo != nil
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

  /// Ends the program: the player quit, or left a screen that was started from the command line.
  mutating func quit() -> [Effect] {
    state.quitRequested = true
    return [.quit]
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
