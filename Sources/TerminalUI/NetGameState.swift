import GameCore
import UntrustedText

/// What the screen shows of a networked match. The app's network driver fills it from the session; the
/// controller turns keys into `Effect`s for the driver.
public struct NetGameState: Sendable, Equatable {
  public var isHost: Bool
  public var myName: String
  public var peerName: PeerText?
  public var peerFingerprint: String?
  /// The four words both players compare aloud (`v` shows them during the match).
  public var verificationCode: String?
  public var connection: String?
  /// Knobs that weaken checking, shown while in force.
  public var warnings: [String] = []
  /// Lines shown before the game starts (where to connect, our key, what is happening).
  public var info: [String] = []
  public var game: Game?
  public var myMark: Mark?
  public var cursor = Position(row: 1, column: 1)
  public var wins = 0
  public var losses = 0
  public var draws = 0
  /// How many spectators watch the game (the panel says so when any do).
  public var spectators = 0
  /// A spectator's screen: what it knows of the players and the score (nil: this side plays).
  public var watching: Watching?
  /// The conversation and the match's notes ("· Game 2: …"), oldest first, at most `chatHistory` of them.
  public private(set) var chat: [ChatLine] = []
  /// How many of the latest messages are below the chat pane because the player scrolled back (PgUp).
  public private(set) var chatBack = 0
  /// How many messages came while scrolled back: marked until the player scrolls down to them.
  public private(set) var chatUnread = 0
  /// The most messages kept.
  public static let chatHistory = 500
  /// The chat line being typed, while the chat field is open.
  public var chatField: TextField?
  public var chatDraft: String? {
    get { chatField?.text }
    set { chatField = newValue.map { TextField($0, limit: Self.chatLimit) } }
  }
  /// The longest chat line in UTF-8 bytes.
  public static let chatLimit = 400
  /// A trust question waiting for the player's answer.
  public var question: TrustPrompt?
  /// Joiner: the host's terms (a timed game) waiting for the player's yes or no.
  public var terms: [String]?
  /// What the player is asked to confirm: leaving during a game (q or Esc), resigning (R), a new invite (i), or
  /// the router's port (m opens it, M never asks; either answer is saved).
  public var confirming: Confirmation?
  public enum Confirmation: Sendable, Equatable {
    case leave, resign, newInvite
    case mapPort(open: Bool)
  }
  public var result: String?
  /// Whether the opponent's program speaks version 3's game flow (draw offers, takebacks, abort, clocks).
  public var hasGameFlow = false
  /// What the opponent offers or asks and waits for this player's answer (`D` or `u` accepts, `x` declines).
  public var peerOffer: Offer?
  /// What this player offered or asked, while it stands.
  public var myOffer: Offer?
  public enum Offer: Sendable, Equatable {
    case draw, takeback
  }
  /// Both clocks of a timed game (nil: untimed), as of the last time the screen was brought up to date.
  public var clocks: Clocks?
  public var rematchOfferedByPeer = false
  public var rematchOfferedByMe = false
  /// While the connection is down in the middle of a match.
  public var dropped: Dropped?
  /// Why the match ended; any key then leaves (but `r` when `canRejoin`).
  public var ended: String?
  /// Joiner: the same host can be joined again with `r` once the match has ended.
  public var canRejoin = false
  public var notice: String?
  /// The go-to field (`g`) while it is open.
  public var goTo: GoToField?
  /// Host: the port the player is offered to have opened on the router (`m` yes, `M` never ask again), while
  /// that is not decided (no `map_port` setting, no --map-port or --no-map-port).
  public var mapOffer: UInt16?
  /// Host: a new invite may be asked for with `i` (it waits at a relay, and no game is on or asked about).
  public var canMakeNewInvite = false
  /// The Swap2 opening of the current game, as it stands or as it settled the colours (nil: the game has none),
  /// and this player's place in it: what the status line says step by step, and who placed each of its stones.
  public var opening: Swap2?
  public var openingMe = Swap2.Player.first

  /// A game begins (the first, or a rematch): its board with the cursor in the middle, and nothing left on the
  /// screen from the game or the moment before (a result, a drop, a rematch offer, a notice such as the
  /// verification code shown or "Not now: the match has not started yet").
  public mutating func beginGame(_ game: Game?, mark: Mark) {
    self.game = game
    myMark = mark
    result = nil
    dropped = nil
    rematchOfferedByPeer = false
    notice = nil
    if let rules = game?.rules { cursor = Position(row: rules.rows / 2, column: rules.columns / 2) }
  }

  /// Whether the last chat line is a note `updateNote` keeps up to date (nothing came after it).
  public private(set) var liveNoteAtEnd = false

  /// A note that replaces the last one it wrote while nothing came after it (a reconnection's attempts: one line
  /// that changes, not two lines a retry); after anything else, a new line.
  public mutating func updateNote(_ text: String) {
    if liveNoteAtEnd, !chat.isEmpty {
      chat[chat.count - 1] = .note(text)
    } else {
      addChat(.note(text))
      liveNoteAtEnd = true
    }
  }

  /// Adds a message at the bottom. While scrolled back the view stays where it is and the message counts as
  /// unread.
  public mutating func addChat(_ line: ChatLine) {
    liveNoteAtEnd = false
    chat.append(line)
    if chatBack > 0 {
      chatBack += 1
      chatUnread += 1
    }
    if chat.count > Self.chatHistory {
      chat.removeFirst(chat.count - Self.chatHistory)
      chatBack = min(chatBack, chat.count - 1)
    }
  }

  /// Scrolls the chat by `messages` (positive: back to older ones), at most `deepest` back (the pane full of the
  /// first messages); at the bottom nothing is unread.
  public mutating func scrollChat(by messages: Int, deepest: Int? = nil) {
    chatBack = min(max(0, chatBack + messages), max(0, min(deepest ?? chat.count - 1, chat.count - 1)))
    chatUnread = min(chatUnread, chatBack)
  }

  /// One entry of the chat pane. A peer's words stay `PeerText` until drawn, so they reach the screen only
  /// through the sanitiser.
  public enum ChatLine: Sendable, Equatable {
    /// What the opponent said (`name` nil before its hello).
    case peer(name: PeerText?, text: PeerText)
    /// What this player sent.
    case mine(String)
    /// A note of the match: a game begun, the connection dropped ("· …").
    case note(String)

    /// The line as shown: "bob: hi", "you: hi", "· Game 2: …" ("* Game 2: …" in ASCII).
    public func shown(in glyphs: Glyphs = .unicode) -> String {
      switch self {
      case .peer(let name, let text): return "\(name.map { "\($0)" } ?? "Your opponent"): \(text)"
      case .mine(let text): return "you: \(text)"
      case .note(let text): return (glyphs == .ascii ? "* " : "· ") + text
      }
    }
  }

  public init(isHost: Bool, myName: String) {
    self.isHost = isHost
    self.myName = myName
  }

  /// The two clocks on the screen: the time left on each side (milliseconds), whose clock runs, the control.
  public struct Clocks: Sendable, Equatable {
    public var mine: Int
    public var theirs: Int
    /// nil: neither runs (before the first moves, between games, a claim on its way).
    public var running: Running?
    public enum Running: Sendable, Equatable { case mine, theirs }
    public var control: String
    /// Whether this player's time is low: under 10 s, or a tenth of a longer game's start.
    public var lowMine: Bool

    public init(mine: Int, theirs: Int, running: Running?, control: String, lowMine: Bool = false) {
      self.mine = mine
      self.theirs = theirs
      self.running = running
      self.control = control
      self.lowMine = lowMine
    }

    /// Whether `left` of a game that starts with `base` is low: under 10 s, or under a tenth of `base`.
    public static func isLow(_ left: Int, base: Int) -> Bool { left < max(10_000, base / 10) }

    /// Plain mode's clock line, the same for a network game and a local one: "clock: you 4:32, bob 5:00 (bob's
    /// running)"; "you" owns "yours".
    public func plainLine(names: (mine: String, theirs: String)) -> String {
      let owner = { (name: String) in name == "you" ? "yours" : "\(name)'s" }
      let runner = running.map { " (\(owner($0 == .mine ? names.mine : names.theirs)) is running)" } ?? ""
      return "clock: \(names.mine) \(TimeControl.face(mine)), \(names.theirs) \(TimeControl.face(theirs))\(runner)"
    }
  }

  /// Whether the game may still be aborted: version 3, begun, and not both sides have moved (a takeback since
  /// does not undo that: the session's `mayAbort`).
  public var canAbort: Bool { hasGameFlow && gameInProgress && abortable }
  public var abortable = false

  /// A dropped connection: the time left for the joiner to come back, then whether the game may be claimed.
  public struct Dropped: Sendable, Equatable {
    public var secondsLeft: Int
    public var claimable: Bool

    public init(secondsLeft: Int, claimable: Bool = false) {
      self.secondsLeft = secondsLeft
      self.claimable = claimable
    }

    /// "1:05".
    public var clock: String {
      let seconds = max(0, secondsLeft)
      let tens = seconds % 60 < 10 ? "0" : ""
      return "\(seconds / 60):\(tens)\(seconds % 60)"
    }
  }

  /// A question about the other side's key. `y` and `n` answer it only as single key presses; any other
  /// printable key, or a paste, opens a field for the fingerprint, which must then match whole.
  public struct TrustPrompt: Sendable, Equatable {
    public var lines: [String]
    /// The key in question, as printed (`SHA256:…`).
    public var fingerprint: String
    /// The fingerprint being typed or pasted, once the field is open.
    public var entryField: TextField?
    public var entry: String? {
      get { entryField?.text }
      set { entryField = newValue.map { TextField($0, limit: 200) } }
    }
    /// Why the last fingerprint entered was refused.
    public var problem: String?

    public init(lines: [String], fingerprint: String) {
      self.lines = lines
      self.fingerprint = fingerprint
    }

    /// Whether `text` is this fingerprint: the `SHA256:` prefix may be left out, spaces and `=` padding are
    /// ignored; base64 is case-sensitive, so nothing else is forgiven.
    public func matches(_ text: String) -> Bool {
      func canonical(_ value: String) -> String {
        var value = value.filter { !$0.isWhitespace }
        if value.hasPrefix("SHA256:") { value.removeFirst("SHA256:".count) }
        while value.hasSuffix("=") { value.removeLast() }
        return value
      }
      let typed = canonical(text)
      return !typed.isEmpty && typed == canonical(fingerprint)
    }
  }

  /// Whether a game is being played: begun, with no result yet (a resignation leaves the board unfinished).
  public var gameInProgress: Bool {
    guard let game, ended == nil else { return false }
    return result == nil && !game.isOver
  }

  public var myTurn: Bool {
    if let opening, !opening.isSettled { return ended == nil && opening.actor == openingMe }
    guard let game, let myMark, ended == nil else { return false }
    return !game.isOver && game.turn == myMark
  }

  /// The choices of the Swap2 opening this player may make now (none while a stone is due or the peer acts).
  public var openingChoices: [Swap2.Choice] {
    guard let opening, !opening.isSettled, myTurn, dropped == nil else { return [] }
    return opening.choices
  }
}
