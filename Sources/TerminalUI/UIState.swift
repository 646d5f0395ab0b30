import GameCore
import PlayerSettings

/// Which screen is showing.
public enum Page: Sendable, Equatable {
  case lobby
  case options
  case game
  /// Typing an address to join.
  case joinAddress
  /// A networked match.
  case network
}

/// Lobby menu entries; only features that exist.
public enum LobbyItem: Int, Sendable, CaseIterable {
  case playComputer, hotseat, host, join, options, quit

  public var title: String {
    switch self {
    case .playComputer: return "Play the computer"
    case .hotseat: return "Two players on this keyboard"
    case .host: return "Host a network game"
    case .join: return "Join by address"
    case .options: return "Options"
    case .quit: return "Quit"
    }
  }
}

/// Options screen entries.
public enum OptionItem: Int, Sendable, CaseIterable {
  case size, k, level, first, name, records, opponent, clock, rule, opening, back

  public var title: String {
    switch self {
    case .size: return "Board size"
    case .k: return "In a row (k)"
    case .rule: return "Rule"
    case .opening: return "Opening"
    case .level: return "Computer level"
    case .first: return "Who starts"
    case .records: return "Keep records"
    case .opponent: return "Opponent"
    case .clock: return "Clock"
    case .name: return "Your name"
    case .back: return "Back"
    }
  }
}

/// Everything the terminal UI shows, in one value: the views draw it, the controller changes it.
public struct UIState: Sendable, Equatable {
  public var page = Page.lobby
  public var lobbySelection = LobbyItem.playComputer
  public var optionSelection = OptionItem.size
  /// The name being typed in Options (Enter on "Your name" opens it), and why the last one was refused.
  public var nameField: TextField?
  public var nameProblem: String?
  public var settings: Settings
  public var match: Match?
  /// Local games started in this run, to number them.
  public var gamesStarted = 0
  /// The scores of the matches played since the program started, by opponent and rules.
  public var records: [String: MatchRecord] = [:]
  public var net: NetGameState?
  /// The address being typed on the join screen, and the last few used.
  /// The join screen's address field.
  public var addressField = TextField(limit: 200)
  /// The address typed so far.
  public var addressDraft: String {
    get { addressField.text }
    set { addressField.set(newValue) }
  }
  /// Games announced on the LAN, and what the lobby says about LAN discovery (looking, unavailable and why).
  public var lanGames: [LANGameRow] = []
  public var lanStatus: String?
  /// The LAN game row chosen in the lobby (nil: the selection is in the menu).
  public var lanSelection: Int?
  public var recentAddresses: [String] = []
  /// The address being joined: it becomes a recent address once the host answers, never when the join fails.
  public var joiningAddress: String?
  public var helpVisible = false
  /// A message for the lobby (a settings file that could not be read, say).
  public var notice: String?
  public var quitRequested = false
  /// Started by `tictactoe play`: leaving the game quits instead of returning to the lobby.
  public var direct = false
  /// The opening of games against an outside engine: Swap2 only when this run's command line asked for it
  /// (`play --engine CMD --opening swap2`), as in plain mode; the `opening` setting holds for the computer and
  /// for two players at one keyboard.
  public var engineOpening = Opening.standard
  public var width = 80
  public var height = 24
  public var glyphs = Glyphs.unicode
  /// The driver's monotonic clock (seconds) as last told (`UIController.clockTick`): what a local game's clocks
  /// are read and drawn at.
  public var now = 0.0
  public var random: SplitMix

  public init(settings: Settings = Settings(), seed: UInt64) {
    self.settings = settings
    self.random = SplitMix(seed: seed)
  }
}
