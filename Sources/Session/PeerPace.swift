/// How fast the peer may send what a person makes: chat, rematch offers, resignations and record signatures (and,
/// in version 3, draw offers and takeback requests beyond one per own move).
/// A program of ours sends at most `NetSession.Configuration.chatBurst` (10) chats within 5 seconds
/// (`ChatOutbox`), plus the at most 10 it held at a goodbye. So the receiver shows up to twice that pace (a
/// network that delivers late lines together stays within it) and drops the rest with one note per burst; it
/// closes only a peer that sends ten times the pace, which no program of ours can. A program of ours sends one
/// rematch offer, resignation and record signature a game at most: repeats change nothing, and a flood of them
/// is closed (a fast automated joiner playing many games is the host's game limits' business, not this).
/// What is sent again after a drop is not counted (the session says so). Pure.
struct PeerPace: Sendable {
  /// What to do with a chat that arrived.
  enum ChatVerdict: Sendable, Equatable {
    /// Show it.
    case show
    /// Over the pace: drop it; `firstOfBurst` when the player has not been told yet.
    case drop(firstOfBurst: Bool)
    /// Far over any program of ours: the peer is flooding.
    case flood
  }

  let seconds: Double
  /// Chats shown within `seconds`.
  let shown: Int
  /// Chats within `seconds` past which the peer is flooding.
  let chatFlood: Int
  /// Rematch offers, resignations and record signatures that changed nothing (an offer repeated while it
  /// stands, a resignation between games that crosses nothing, a second signature of a game) within `seconds`
  /// past which the peer is flooding.
  let changedNothingFlood: Int
  private var chats: RateWindow
  private var chatsAtAll: RateWindow
  private var changedNothingWindow: RateWindow
  /// Chats are being dropped (the player was told once).
  private var dropping = false

  /// `chatBurst` within `seconds` is the pace of a program of ours.
  init(chatBurst: Int, seconds: Double) {
    self.seconds = seconds
    shown = 2 * chatBurst
    chatFlood = 10 * chatBurst
    changedNothingFlood = 50
    chats = RateWindow(limit: shown, seconds: seconds)
    chatsAtAll = RateWindow(limit: chatFlood, seconds: seconds)
    changedNothingWindow = RateWindow(limit: changedNothingFlood, seconds: seconds)
  }

  /// A chat arrived at `now`.
  mutating func chat(_ now: Double) -> ChatVerdict {
    guard chatsAtAll.allows(now) else { return .flood }
    if chats.admits(now) {
      dropping = false
      return .show
    }
    defer { dropping = true }
    return .drop(firstOfBurst: !dropping)
  }

  /// A rematch offer, a resignation or a record signature that changed nothing arrived at `now`: whether it is
  /// within the flood limit.
  mutating func changedNothing(_ now: Double) -> Bool { changedNothingWindow.allows(now) }
}
