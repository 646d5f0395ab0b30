import GameCore
import WireProtocol

extension NetSession {
  /// What a session needs to know about its own side.
  public struct Configuration: Sendable {
    public var role: Role
    public var name: String
    public var software: String
    /// The rules the host offers (ignored on the joiner: the host's welcome decides).
    public var rules: Rules
    public var versions: [UInt16]
    /// Seconds of our own silence after which a heartbeat is sent.
    public var heartbeatInterval: Double
    /// Seconds of the peer's silence after which it is declared gone.
    public var silenceLimit: Double
    /// At most this many chat messages from the peer within `chatWindow` seconds.
    public var chatBurst: Int
    public var chatWindow: Double
    /// Seconds a game is kept after the connection drops, for the joiner to reconnect and resume it. After
    /// that the remaining player may claim the game.
    public var gracePeriod: Double
    /// How many of its last counted messages a side keeps to send again after a drop.
    public var resendLimit: Int
    /// The host's time control, offered in its terms (ignored on the joiner: the host's hello decides; and
    /// with a version-2 peer: its games are untimed).
    public var timeControl: TimeControl
    /// Host (version 4): whether its terms say the game may be watched (field 8; nil: they do not say).
    public var watchable: Bool?
    /// Spectator (version 4): the game its hello asks to watch (field 17; 0 the host's); nil for a player.
    public var watch: UInt16?
    /// Host (version 4): the opening its terms offer (field 7); ignored on the joiner: the host's hello decides.
    public var opening: Opening

    public init(
      role: Role, name: String, software: String, rules: Rules = .standard,
      versions: [UInt16] = ProtocolVersion.supported, heartbeatInterval: Double = 3, silenceLimit: Double = 10,
      chatBurst: Int = 10, chatWindow: Double = 5, gracePeriod: Double = 120, resendLimit: Int = 256,
      timeControl: TimeControl = .none, opening: Opening = .standard
    ) {
      self.role = role
      self.name = name
      self.software = software
      self.rules = rules
      self.versions = versions
      self.heartbeatInterval = heartbeatInterval
      self.silenceLimit = silenceLimit
      self.chatBurst = chatBurst
      self.chatWindow = chatWindow
      self.gracePeriod = gracePeriod
      self.resendLimit = resendLimit
      self.timeControl = timeControl
      self.opening = opening
    }
  }
}
