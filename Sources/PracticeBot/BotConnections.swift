import MatchCoordination
import NetworkShell
import Transport
import WireProtocol

/// One joiner's connection at the bot: its TLS connection (on the loop: `watched`), and its seat once the
/// handshake is done.
package final class BotLink {
  let connection: PeerConnection
  /// The connection's registration with the loop, which hands what is ready straight to the bot for this link.
  let watched: WatchedConnection
  let acceptedAt: Double
  /// When TLS was done, and when the joiner last said that its player is deciding about the bot's key
  /// (PROTOCOL.md rule 13): what `PendingHandshakes` sets the time to say hello by.
  var securedAt: Double?
  var decidingAt: Double?
  var seat: BotSeat?
  var admission: BotAdmission?
  /// The joiner's key (its certificate's fingerprint), once TLS is done: what a game kept for it is found by.
  var key: String?
  /// A player's game's number, as spectators ask for it (nil: not let in yet); whether the link is a spectator's.
  var watchNumber: UInt16?
  var watching = false
  /// The last game's record signed by the bot, when spectators watched it end: completed with the joiner's
  /// signature and sent to them (rule 28).
  var countersign: BotCountersign?
  /// What the bot sends next, held until the records of the games it ends are signed in the round's batch
  /// (`BotHost.sendHeld`); nil when nothing waits.
  var held: [BotWirePart]?
  /// Who plays here as its games' records and log lines name it, once it said hello (`BotGameReports.who`).
  var reportedAs: Reported?
  struct Reported {
    let peer: BotGameRecord.Peer
    let key: String?
    /// Its hello said it checks record signatures in the batch form (PROTOCOL.md rule 12).
    let takesBatches: Bool
  }
  /// Whether the source limits count the connection under `connection.peerAddress` (one from a proxy is
  /// counted once its header named the client, `BotHost.introduced`; a health check never is).
  var counted: Bool
  /// It left `BotConnections.pending` for having said hello (`BotConnections.saidHello`).
  fileprivate(set) var helloCounted = false
  /// Where the link is in `BotConnections.order`.
  fileprivate(set) var slot = 0
  init(connection: PeerConnection, acceptedAt: Double, counted: Bool = true) {
    self.connection = connection
    watched = WatchedConnection(connection)
    self.acceptedAt = acceptedAt
    self.counted = counted
  }

  /// The TLS handshake is done and the joiner said hello. Worked out until it is so, then kept: every move asks,
  /// and the optional seat's session was copied (about 2 kB) to find its peer's name.
  var saidHello: Bool {
    if !helloSaid { helloSaid = connection.isSecured && (watching || seat?.session.peerName != nil) }
    return helloSaid
  }
  private var helloSaid = false
}

/// A part of what a link is sent once its held games are signed: messages, or the signature of the record
/// waiting at this place of the batch (`BotGameReports.signWaiting`).
enum BotWirePart {
  case messages([Message])
  case signature(Int)
}

/// The bot's connections: by descriptor, in an array swept a slice at a time, and those still setting up
/// TLS or not yet past hello ("pending", oldest first), whose number the bot caps.
package struct BotConnections {
  private(set) var links: [Int32: BotLink] = [:]
  /// The same links in an array, for sweeping a slice at a time.
  private var order: [BotLink] = []
  private var sweepCursor = 0
  /// Connections still setting up TLS or not past hello, oldest first.
  private(set) var pending: [Int32] = []

  var count: Int { links.count }
  var all: Dictionary<Int32, BotLink>.Values { links.values }
  subscript(fd: Int32) -> BotLink? { links[fd] }

  /// The pending connection that makes room first: the oldest whose joiner does not say its player is deciding,
  /// else the oldest.
  var droppable: Int32? { pending.first { links[$0]?.decidingAt == nil } ?? pending.first }

  /// When the pending connection that makes room first was accepted.
  var oldestPending: Double? { droppable.flatMap { links[$0]?.acceptedAt } }

  /// How many connections are pending from each address (`SourceAddress.counted`).
  var pendingByAddress: [String: Int] {
    var counts: [String: Int] = [:]
    for fd in pending {
      if let link = links[fd] { counts[SourceAddress.counted(link.connection.peerAddress), default: 0] += 1 }
    }
    return counts
  }

  mutating func add(_ link: BotLink) {
    link.slot = order.count
    order.append(link)
    links[link.connection.fd] = link
    pending.append(link.connection.fd)
  }

  /// The link said hello: no longer pending.
  mutating func saidHello(_ link: BotLink) {
    // Once: a player's every move tells it again, and the pending list is not searched each time.
    guard !link.helloCounted else { return }
    link.helloCounted = true
    if let index = pending.firstIndex(of: link.connection.fd) { pending.remove(at: index) }
  }

  /// Forgets `link` (before its descriptor is closed); false when it was not there.
  @discardableResult
  mutating func remove(_ link: BotLink) -> Bool {
    let fd = link.connection.fd
    if let index = pending.firstIndex(of: fd) { pending.remove(at: index) }
    guard links[fd] === link else { return false }
    links.removeValue(forKey: fd)
    let last = order.removeLast()
    if link.slot < order.count {
      order[link.slot] = last
      last.slot = link.slot
    }
    return true
  }

  /// The next `1/slices` of the links, going round: each is looked at once every `slices` calls.
  mutating func nextSlice(of slices: Int) -> [BotLink] {
    let size = (order.count + slices - 1) / slices
    var slice: [BotLink] = []
    for _ in 0..<size where !order.isEmpty {
      if sweepCursor >= order.count { sweepCursor = 0 }
      slice.append(order[sweepCursor])
      sweepCursor += 1
    }
    return slice
  }
}
