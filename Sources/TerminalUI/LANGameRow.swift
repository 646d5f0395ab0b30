/// A game found on the LAN, as the lobby lists it.
public struct LANGameRow: Sendable, Equatable {
  /// The service instance name (what joining looks up).
  public var id: String
  public var rules: String
  public var state: String
  /// "known", "new" or "KEY CHANGED".
  public var trust: String
  /// How `trust` begins for a key nobody knows under a name like a known peer's (shown as a warning).
  public static let warningPrefix = "NEW KEY"
  public var isWarning: Bool { trust.hasPrefix(LANGameRow.warningPrefix) }
  /// Every address with its port, separated by spaces (or why there is none).
  public var addresses: String
  /// The board and k when the advertisement gave them, for the lobby to draw as the rest of the UI does.
  public var board: Board?
  /// The advert says the game may be watched now (a game being played, or a practice bot's): the lobby offers
  /// Watch (`w`) beside it.
  public var watchable = false

  public struct Board: Sendable, Equatable {
    public var rows: Int
    public var columns: Int
    public var k: Int
    /// What the advertisement says beside the board, as the lobby shows it (", renju, 5 min + 3 s a move").
    public var terms: String

    public init(rows: Int, columns: Int, k: Int, terms: String = "") {
      self.rows = rows
      self.columns = columns
      self.k = k
      self.terms = terms
    }
  }

  public init(id: String, rules: String, state: String, trust: String, addresses: String, board: Board? = nil) {
    self.id = id
    self.rules = rules
    self.state = state
    self.trust = trust
    self.addresses = addresses
    self.board = board
  }

  /// The row as the lobby lists it: the name, the trust, the first address with its port (and how many more),
  /// the rules, the state; in that order, so that a short line loses the least needed fields last.
  func fields(glyphs g: Glyphs) -> [String] {
    let all = addresses.split(separator: " ")
    let address = all.count > 1 ? "\(all[0]) (+\(all.count - 1))" : addresses
    let rules = board.map { "\($0.rows)\(g.times)\($0.columns), \($0.k) in a row\($0.terms)" } ?? self.rules
    return [id, trust, address, rules, state] + (watchable ? ["w: Watch"] : [])
  }
}
