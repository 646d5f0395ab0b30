import EventLoop
import GameCore
import PeerTrust
import Security
import Session
import Transport
import WireProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// One abuse of the bot host, run in a child process (`--abuse-probe KIND PORT`) until killed: every connection
/// the bot drops is opened again at once, from 127.0.0.2 to .5 (one per kind: the bot's limits exempt only
/// 127.0.0.1 and ::1), with one key for the whole process. Prints "connections N dropped M" every second.
///
/// - `rematch`: a real joiner session that resigns every game at once and offers a rematch (20,000 empty games
///   in 2 s before games were rate-limited).
/// - `never-read`: says hello, then sends resign, rematch and coin shares without pause and never reads.
/// - `heartbeats`, `unknown`: says hello, then floods heartbeats, or frames of an unknown type.
/// - `pending`: 500 connections that finish TLS and never say hello (a heartbeat every 2 s), from 127.0.0.10 to
///   127.0.0.249, as many machines would.
enum AbuseClient {
  static let probeArgument = "--abuse-probe"

  enum Kind: String, CaseIterable {
    case rematch
    case neverRead = "never-read"
    case heartbeats
    case unknown
    case pending

    /// The address it connects from (the pending kind: this and the next 239): each kind its own, so that
    /// one's limits (games per address, new keys per address) do not turn the next away at hello.
    var firstSource: UInt32 {
      switch self {
      case .rematch: 0x7F00_0002
      case .neverRead: 0x7F00_0003
      case .heartbeats: 0x7F00_0004
      case .unknown: 0x7F00_0005
      case .pending: 0x7F00_000A
      }
    }

    /// How the table names it.
    var label: String {
      switch self {
      case .rematch: "a client looping resign + rematch"
      case .neverRead: "a client that never reads"
      case .heartbeats: "a heartbeat flood"
      case .unknown: "an unknown-frame flood"
      case .pending: "500 connections in TLS without a hello"
      }
    }
  }

  private final class Slot {
    let source: UInt32
    var connection: PeerConnection?
    var session: NetSession?
    var greeted = false
    var lastBeat = 0.0
    init(source: UInt32) { self.source = source }
  }

  static func run(kind: Kind, port: UInt16, count requested: Int?) -> Never {
    do {
      let identity = try Identity.generate(commonName: "abuser-\(kind.rawValue)")
      let context = try TLSContext(role: .client, identity: identity, options: TrustOptions(policy: .insecure))
      let count = requested ?? (kind == .pending ? 500 : 1)
      let slots = (0..<count).map { Slot(source: kind.firstSource + UInt32($0 % 240)) }
      var dropped = 0
      var nextReport = Clock.seconds() + 1
      let pollSet = PollSet()
      var bySocket: [Int32: Slot] = [:]
      while true {
        let now = Clock.seconds()
        for slot in slots where slot.connection == nil {
          guard let fd = connect(from: slot.source, port: port, smallReceiveBuffer: kind == .neverRead),
            let connection = try? PeerConnection(fd: fd, context: context, peerAddress: "bot")
          else { continue }
          slot.connection = connection
          slot.session = nil
          slot.greeted = false
          bySocket[fd] = slot
          pollSet.insert(fd, events: Int16(POLLIN))
          try? connection.start()
        }
        if now >= nextReport {
          nextReport = now + 1
          say("connections \(slots.filter { $0.connection != nil }.count) dropped \(dropped)")
        }
        for slot in slots {
          abuse(kind, slot, now: now)
          guard let connection = slot.connection else { continue }
          // A client that never reads is woken only to write, or when the bot drops it.
          let reads = !(kind == .neverRead && slot.greeted)
          pollSet.setEvents(connection.fd, Int16((reads ? POLLIN : 0) | (connection.wantsWrite ? POLLOUT : 0)))
        }
        for (fd, revents) in pollSet.wait(timeout: kind == .pending || kind == .rematch ? 50 : 0) {
          guard let slot = bySocket[fd], let connection = slot.connection else { continue }
          if kind == .neverRead && slot.greeted && revents & Int16(POLLHUP | POLLERR) == 0 { continue }
          let ended = read(kind, slot, connection, revents: revents, now: now)
          if ended {
            dropped += 1
            pollSet.remove(fd)
            bySocket[fd] = nil
            connection.close(gracefully: false)
            slot.connection = nil
          }
        }
      }
    } catch {
      printError("tictactoe-bench: abuse \(kind.rawValue): \(error)")
      exit(1)
    }
  }

  /// What the kind sends on its own (floods, blind messages, heartbeats of the pending ones).
  private static func abuse(_ kind: Kind, _ slot: Slot, now: Double) {
    guard let connection = slot.connection, connection.isSecured, !connection.isClosed else { return }
    switch kind {
    case .rematch:
      break
    case .pending:
      if now - slot.lastBeat >= 2 {
        slot.lastBeat = now
        try? connection.send(.heartbeat)
      }
    case .neverRead:
      guard slot.greeted, connection.queuedBytes < 1 << 20 else { return }
      let share = Message.coinShare(bytes: [UInt8](repeating: 7, count: Message.coinBytes))
      for _ in 0..<20 {
        for message in [Message.resign, .rematchOffer, share] { try? connection.tls.writePlaintext(message.bytes) }
      }
      try? connection.send(.heartbeat)
    case .heartbeats:
      guard slot.greeted, connection.queuedBytes < 64 << 10 else { return }
      for _ in 0..<200 { try? connection.tls.writePlaintext(Message.heartbeat.bytes) }
      try? connection.send(.heartbeat)
    case .unknown:
      guard slot.greeted, connection.queuedBytes < 64 << 10 else { return }
      for _ in 0..<200 { try? connection.tls.writePlaintext(Frame(type: 0xEE, payload: [1, 2, 3]).bytes) }
      try? connection.send(.heartbeat)
    }
  }

  /// Reads what arrived and answers as the kind does; true when the connection is over.
  private static func read(_ kind: Kind, _ slot: Slot, _ connection: PeerConnection, revents: Int16, now: Double)
    -> Bool
  {
    if revents & Int16(POLLOUT) != 0 { connection.flush() }
    guard let arrivals = try? connection.readable() else { return true }
    for arrival in arrivals {
      switch arrival {
      case .introduced:
        continue
      case .secured:
        guard kind != .pending else { continue }
        var session = NetSession(
          configuration: .init(role: .joiner, name: "abuser", software: "bench"),
          coinBytes: [UInt8](repeating: 9, count: Message.coinBytes), sha256: Digest.sha256, now: now)
        apply(session.start(now: now), connection)
        slot.session = session
        slot.greeted = kind != .rematch
      case .message(let message):
        guard var session = slot.session else { continue }
        let outputs = session.receive(message, now: now)
        apply(outputs, connection)
        if kind == .rematch, outputs.contains(where: { if case .gameStarted = $0 { true } else { false } }) {
          apply((try? session.resign(now: now)) ?? [], connection)
          apply((try? session.offerRematch(now: now)) ?? [], connection)
        }
        slot.session = session
        if session.isClosed { return true }
      case .malformed, .ended:
        return true
      }
    }
    return connection.isClosed
  }

  private static func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
  }

  private static func apply(_ outputs: [SessionOutput], _ connection: PeerConnection) {
    for case .send(let message) in outputs { try? connection.send(message) }
  }

  /// A non-blocking connection from `source` (an IPv4 address, host order) to 127.0.0.1:`port`.
  private static func connect(from source: UInt32, port: UInt16, smallReceiveBuffer: Bool) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { return nil }
    if smallReceiveBuffer {
      var size: Int32 = 4096
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = source.bigEndian
    var remote = Loopback.address(port: port)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    let result = withUnsafePointer(to: &remote) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, result == 0 || errno == EINPROGRESS else {
      close(fd)
      return nil
    }
    return fd
  }
}
