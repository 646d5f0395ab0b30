import GameCore
import Session
import Testing
import WireProtocol

/// A stand-in hash for the coin toss (the real one is SHA-256 from the Security module): any function works for
/// the state machine as long as both sides use the same.
public let testHash: @Sendable ([UInt8]) -> [UInt8] = { bytes in
  var state: UInt64 = 0xCBF2_9CE4_8422_2325
  for byte in bytes { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }
  return (0..<32).map { UInt8(truncatingIfNeeded: state >> (($0 % 8) * 8)) ^ UInt8($0) }
}

/// The tests' one in-memory connection between two session state machines: a host and a joiner `NetSession`,
/// every message crossing as bytes through the wire codec (encoded, fed to a `FrameDecoder`, decoded), as the
/// connection driver does with a socket. What a side sends waits in its direction's queue until it is
/// delivered (`settle`, or one message at a time), so a test can hold, reorder or lose messages; `drop` loses
/// whatever is still in flight, as a broken TCP connection does.
public struct SessionPair {
  public var host: NetSession
  public var joiner: NetSession
  /// The clock both sides are given.
  public var now = 0.0
  /// Messages sent and not yet delivered, oldest first.
  public var toJoiner: [Message] = []
  public var toHost: [Message] = []
  /// False between `drop` and `reconnect`: what is sent meanwhile is lost.
  public private(set) var connected = true
  /// Everything each side reported (its sends included).
  public private(set) var hostEvents: [SessionOutput] = []
  public private(set) var joinerEvents: [SessionOutput] = []
  /// Moves each side played, and moves each side saw arrive from the other.
  public private(set) var hostPlayed: [Position] = []
  public private(set) var joinerPlayed: [Position] = []
  public private(set) var hostSaw: [Position] = []
  public private(set) var joinerSaw: [Position] = []

  /// Alice hosting `rules`, Bob joining; `hostCoin` and `joinerCoin` fill each side's 32 coin-toss bytes (they
  /// decide who moves first).
  /// `timeControl` and `opening` are the host's terms; `joinerVersions` what the joiner speaks (`[2]`: an older
  /// peer).
  public init(
    hostCoin: UInt8 = 0, joinerCoin: UInt8 = 0, rules: Rules = .standard, resendLimit: Int = 256,
    timeControl: TimeControl = .none, joinerVersions: [UInt16] = ProtocolVersion.supported,
    opening: Opening = .standard
  ) {
    host = NetSession(
      configuration: .init(
        role: .host, name: "Alice", software: "test", rules: rules, resendLimit: resendLimit, timeControl: timeControl,
        opening: opening),
      coinBytes: Array(repeating: hostCoin, count: 32), sha256: testHash, now: 0)
    joiner = NetSession(
      configuration: .init(
        role: .joiner, name: "Bob", software: "test", versions: joinerVersions, resendLimit: resendLimit),
      coinBytes: Array(repeating: joinerCoin, count: 32), sha256: testHash, now: 0)
  }

  // MARK: sending and delivering

  /// Records what the host reported and queues what it sends (lost while disconnected).
  public mutating func send(fromHost outputs: [SessionOutput]) {
    Self.take(outputs, connected: connected, events: &hostEvents, saw: &hostSaw, queue: &toJoiner)
  }

  /// Records what the joiner reported and queues what it sends (lost while disconnected).
  public mutating func send(fromJoiner outputs: [SessionOutput]) {
    Self.take(outputs, connected: connected, events: &joinerEvents, saw: &joinerSaw, queue: &toHost)
  }

  private static func take(
    _ outputs: [SessionOutput], connected: Bool, events: inout [SessionOutput], saw: inout [Position],
    queue: inout [Message]
  ) {
    events += outputs
    for output in outputs {
      switch output {
      case .send(let message) where connected: queue.append(message)
      case .peerMoved(let position): saw.append(position)
      default: break
      }
    }
  }

  /// Sends what the host reported and delivers everything in flight.
  public mutating func deliver(fromHost outputs: [SessionOutput]) {
    send(fromHost: outputs)
    settle()
  }

  /// Sends what the joiner reported and delivers everything in flight.
  public mutating func deliver(fromJoiner outputs: [SessionOutput]) {
    send(fromJoiner: outputs)
    settle()
  }

  /// Delivers the oldest message in flight to the joiner; false if there was none.
  @discardableResult public mutating func deliverToJoiner() -> Bool {
    guard !toJoiner.isEmpty, let message = Self.acrossTheWire(toJoiner.removeFirst()) else { return false }
    send(fromJoiner: joiner.receive(message, now: now))
    return true
  }

  /// Delivers the oldest message in flight to the host; false if there was none.
  @discardableResult public mutating func deliverToHost() -> Bool {
    guard !toHost.isEmpty, let message = Self.acrossTheWire(toHost.removeFirst()) else { return false }
    send(fromHost: host.receive(message, now: now))
    return true
  }

  /// Delivers everything in flight, alternating directions, until nothing moves.
  public mutating func settle() {
    while deliverToJoiner() || deliverToHost() {}
  }

  /// `message` as the receiving side's codec reads it from the sender's bytes (nil, and an issue recorded, if
  /// it does not come through as exactly one frame that decodes).
  private static func acrossTheWire(_ message: Message) -> Message? {
    var decoder = FrameDecoder()
    decoder.feed(message.bytes)
    do {
      guard let frame = try decoder.next() else {
        Issue.record("\(message) was not a whole frame")
        return nil
      }
      let decoded = try Message.decode(frame)
      if let extra = try decoder.next() { Issue.record("\(message) left a second frame: \(extra)") }
      return decoded
    } catch {
      Issue.record("\(message) did not survive the codec: \(error)")
      return nil
    }
  }

  // MARK: the match

  /// Greets, accepts and tosses the coin: ends with game 1 started on both sides.
  public mutating func startMatch() {
    let joinerHello = joiner.start(now: now)
    send(fromHost: host.start(now: now))
    send(fromJoiner: joinerHello)
    settle()
    deliver(fromHost: host.accept(now: now))
  }

  public mutating func hostPlays(_ position: Position) throws {
    send(fromHost: try host.play(position, now: now))
    hostPlayed.append(position)
  }

  public mutating func joinerPlays(_ position: Position) throws {
    send(fromJoiner: try joiner.play(position, now: now))
    joinerPlayed.append(position)
  }

  /// The side whose turn it is (on the host's board) plays `position`; nothing is delivered yet.
  public mutating func moverPlays(_ position: Position) throws {
    if host.myTurn { try hostPlays(position) } else { try joinerPlays(position) }
  }

  /// The side whose turn it is plays `position`, and everything in flight is delivered.
  public mutating func play(_ position: Position) throws {
    try moverPlays(position)
    settle()
  }

  // MARK: the connection

  /// The connection breaks: what is in flight is lost and both sides notice.
  public mutating func drop() {
    connected = false
    toJoiner.removeAll()
    toHost.removeAll()
    send(fromHost: host.connectionLost(now: now))
    send(fromJoiner: joiner.connectionLost(now: now))
  }

  /// The joiner is back on a new connection and asks to resume.
  public mutating func reconnect() {
    connected = true
    send(fromHost: host.peerReconnected(now: now))
    send(fromJoiner: joiner.requestResume(now: now))
  }

  /// How each side's session closed, in the order reported (host first).
  public var closings: [SessionEnd] {
    (hostEvents + joinerEvents).compactMap { if case .closed(let end) = $0 { end } else { nil } }
  }

  /// Whether `outputs` close the session as a protocol violation whose text contains `phrase`.
  public static func violation(_ outputs: [SessionOutput], containing phrase: String) -> Bool {
    outputs.contains { if case .closed(.protocolViolation(let text)) = $0 { text.contains(phrase) } else { false } }
  }
}
