import EventLoop
import GameCore
import NetworkFacts
import Security
import Session
import Transport
import WireProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// Many concurrent games against one server on loopback, all on one poll() loop: TLS connections through the
/// project's `PeerConnection`, one client identity for all. Against the bot host each connection is a joiner
/// `NetSession` that answers every bot move with a random legal move and offers a rematch after every game;
/// against the echo baseline it sends a move frame and waits for it to come back. A latency is the time from
/// our move leaving (just before `send`) to the answer being read.
final class LoadGenerator {
  enum Server: Equatable {
    case bot
    case echo
  }

  /// What one measured run produced.
  struct Run {
    var latencies = Samples()
    /// Answers received (bot moves, or echoes) during the run.
    var answers = 0
    /// Games that ended (bot only): each costs the bot a record, a signature and a rematch besides its moves.
    var games = 0
    var seconds = 0.0
    var answersPerSecond: Double { Double(answers) / seconds }
  }

  private final class Client {
    let connection: PeerConnection
    var session: NetSession?
    var isUp = false
    /// When our move went out, while its answer is awaited (nanoseconds).
    var awaitingSince: UInt64?
    var ply: UInt16 = 0
    init(connection: PeerConnection) { self.connection = connection }
  }

  let server: Server
  private let port: UInt16
  private let context: TLSContext
  private var clients: [Int32: Client] = [:]
  private let pollSet = PollSet()
  private var random = SplitMix(seed: 2026)
  private var due = DueQueue()
  private var measuring = false
  private var stopping = false
  /// Seconds each client waits between an answer and its next move (nil: none, as fast as possible).
  private var think: ClosedRange<Double>?
  private var run = Run()
  private(set) var upCount = 0
  private(set) var failures: [String] = []
  private var nextTick: UInt64 = 0

  init(server: Server, port: UInt16, context: TLSContext) {
    self.server = server
    self.port = port
    self.context = context
  }

  var connectionCount: Int { clients.count }

  // MARK: - Phases

  /// Opens `count` connections, at most `window` at a time still starting, and returns the seconds from the
  /// first connect until every one is up (bot: its first game started; echo: its first echo came back).
  func ramp(to count: Int, window: Int, timeout: Double) throws -> Double {
    let start = Clock.now()
    let deadline = start + UInt64(timeout * 1e9)
    var opened = 0
    while upCount < count {
      while opened < count && opened - upCount < window {
        try connect()
        opened += 1
      }
      pump(maxWait: 10)
      guard failures.isEmpty else { throw BenchError("ramp-up to \(count) failed: \(failures[0])") }
      guard Clock.now() < deadline else {
        throw BenchError("only \(upCount) of \(count) connections were up after \(timeout) s")
      }
    }
    return Double(Clock.now() - start) / 1e9
  }

  /// Plays for `seconds`, each client moving again `think` seconds after each answer (nil: at once), and
  /// returns what was measured. Moves still unanswered at the end are waited for (unmeasured) so the next run
  /// starts clean.
  func play(for seconds: Double, think: ClosedRange<Double>?) throws -> Run {
    self.think = think
    run = Run()
    measuring = true
    let start = Clock.now()
    for client in clients.values { scheduleIfReady(client, now: start) }
    let end = start + UInt64(seconds * 1e9)
    while Clock.now() < end {
      pump(maxWait: Int32(max(1, (end - min(end, Clock.now())) / 1_000_000)))
      guard failures.isEmpty else { throw BenchError("a game failed during the run: \(failures[0])") }
    }
    measuring = false
    run.seconds = Double(Clock.now() - start) / 1e9
    due = DueQueue()
    let settle = Clock.now() + 10_000_000_000
    while clients.values.contains(where: { $0.awaitingSince != nil }) && Clock.now() < settle { pump(maxWait: 10) }
    return run
  }

  /// From now on a connection the server closes is expected (it is being stopped).
  func expectServerToStop() { stopping = true }

  /// Keeps the loop turning for `seconds` (heartbeats and the server's goodbyes are handled).
  func idle(for seconds: Double) {
    let end = Clock.now() + UInt64(seconds * 1e9)
    while Clock.now() < end { pump(maxWait: 20) }
  }

  func closeAll() {
    for client in clients.values {
      pollSet.remove(client.connection.fd)
      client.connection.close(gracefully: false)
    }
    clients.removeAll()
  }

  // MARK: - The loop

  private func connect() throws {
    let fd = try Sockets.connect(Endpoint(host: "127.0.0.1", port: port))
    // Each move goes out at once, as a player's would after thinking (no waiting for the previous one's ACK).
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    let connection = try PeerConnection(fd: fd, context: context, peerAddress: "127.0.0.1:\(port)")
    clients[fd] = Client(connection: connection)
    pollSet.insert(fd, events: Int16(POLLIN))
    try connection.start()
    watch(clients[fd])
  }

  /// One round: fires the moves that are due, polls every connection (at most `maxWait` ms, less when a move
  /// is due sooner), and handles what arrived.
  private func pump(maxWait: Int32) {
    var now = Clock.now()
    while let next = due.peek, next.time <= now {
      due.pop()
      if let client = clients[next.fd] {
        move(client, now: now)
        watch(client)
      }
      now = Clock.now()
    }
    // Sleep until the next move is due, to the nanosecond: rounding to milliseconds would either spin (and
    // take CPU from the server) or send moves in bursts (and queue them at the server).
    var wait = Int64(maxWait) * 1_000_000
    if let next = due.peek { wait = min(wait, Int64(next.time - now)) }
    for (fd, revents) in pollSet.wait(nanoseconds: max(0, wait)) {
      guard let client = clients[fd], !client.connection.isClosed else { continue }
      if revents & Int16(POLLOUT) != 0 { client.connection.flush() }
      if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read(client) }
      watch(clients[fd])
    }
    now = Clock.now()
    if now >= nextTick {
      nextTick = now + 1_000_000_000
      for client in clients.values {
        guard let outputs = client.session?.tick(now: seconds(now)) else { continue }
        apply(outputs, to: client, now: now)
        watch(client)
      }
    }
  }

  /// Watches for output room only while something waits to be written.
  private func watch(_ client: Client?) {
    guard let client, !client.connection.isClosed else { return }
    pollSet.setEvents(client.connection.fd, Int16(POLLIN | (client.connection.wantsWrite ? POLLOUT : 0)))
  }

  private func read(_ client: Client) {
    let arrivals: [PeerConnection.Arrival]
    do {
      arrivals = try client.connection.readable()
    } catch {
      fail(client, "\(error)")
      return
    }
    for arrival in arrivals {
      let now = Clock.now()
      switch arrival {
      case .introduced:
        continue
      case .secured:
        guard server == .bot else {
          move(client, now: now)  // the first echo proves the connection is up
          continue
        }
        var session = NetSession(
          configuration: .init(role: .joiner, name: "bench-load", software: "tictactoe-bench"),
          coinBytes: (0..<Message.coinBytes).map { _ in UInt8.random(in: 0...255, using: &random) },
          sha256: Digest.sha256, now: seconds(now))
        let outputs = session.start(now: seconds(now))
        client.session = session
        apply(outputs, to: client, now: now)
      case .message(.watchers):
        continue  // how many watch: a joiner's coordinator takes it off before the session, as here
      case .message(let message):
        if server == .echo {
          answered(client, now: now)
          scheduleIfReady(client, now: now)
        } else if let outputs = client.session?.receive(message, now: seconds(now)) {
          apply(outputs, to: client, now: now)
        }
      case .malformed(let error):
        fail(client, "a malformed frame: \(error)")
      case .ended:
        fail(client, "the server closed the connection")
      }
    }
  }

  private func apply(_ outputs: [SessionOutput], to client: Client, now: UInt64) {
    for output in outputs {
      switch output {
      case .send(let message):
        do {
          try client.connection.send(message)
        } catch {
          fail(client, "\(error)")
        }
      case .gameStarted:
        markUp(client)
        scheduleIfReady(client, now: now)
      case .peerMoved:
        answered(client, now: now)
        scheduleIfReady(client, now: now)
      case .gameEnded:
        client.awaitingSince = nil
        if measuring { run.games += 1 }
        if let more = try? client.session?.offerRematch(now: seconds(now)) { apply(more, to: client, now: now) }
      case .rematchOffered:
        if let more = try? client.session?.offerRematch(now: seconds(now)) { apply(more, to: client, now: now) }
      case .closed(let end):
        fail(client, "the session ended: \(end)")
      case .connectionLost:
        fail(client, "the connection dropped")
      case .graceExpired, .resumed:
        break
      case .peerHello, .chat, .chatsDropped, .gameFlow, .peerChose, .coloursSettled:
        break  // the load's host offers no opening
      }
    }
  }

  private func markUp(_ client: Client) {
    guard !client.isUp else { return }
    client.isUp = true
    upCount += 1
  }

  private func answered(_ client: Client, now: UInt64) {
    if server == .echo { markUp(client) }
    guard let since = client.awaitingSince else { return }
    client.awaitingSince = nil
    guard measuring else { return }
    run.latencies.append(Double(now - since))
    run.answers += 1
  }

  /// Plans the client's next move when it is its turn and a run is on: at once, or after a think time.
  private func scheduleIfReady(_ client: Client, now: UInt64) {
    guard measuring, client.isUp, client.awaitingSince == nil else { return }
    if server == .bot { guard client.session?.myTurn == true else { return } }
    guard let think else {
      move(client, now: now)
      return
    }
    let delay = Double.random(in: think, using: &random)
    due.push(time: now + UInt64(delay * 1e9), fd: client.connection.fd)
  }

  private func move(_ client: Client, now: UInt64) {
    guard !client.connection.isClosed, client.awaitingSince == nil else { return }
    if server == .echo {
      client.awaitingSince = Clock.now()
      client.ply &+= 1
      do {
        try client.connection.send(.move(ply: client.ply, position: Position(row: 14, column: 14)))
      } catch {
        fail(client, "\(error)")
      }
      return
    }
    guard client.session?.myTurn == true,
      let position = client.session?.game?.legalMoves.randomElement(using: &random)
    else { return }
    client.awaitingSince = Clock.now()
    do {
      let outputs = try client.session?.play(position, now: seconds(now)) ?? []
      apply(outputs, to: client, now: now)
    } catch {
      fail(client, "our own move was refused: \(error)")
    }
  }

  private func fail(_ client: Client, _ reason: String) {
    pollSet.remove(client.connection.fd)
    client.connection.close(gracefully: false)
    clients.removeValue(forKey: client.connection.fd)
    if !stopping { failures.append(reason) }
  }

  private func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
}

/// Moves planned for later, soonest first (a binary heap of times and connections).
struct DueQueue {
  private var heap: [(time: UInt64, fd: Int32)] = []

  var peek: (time: UInt64, fd: Int32)? { heap.first }

  mutating func push(time: UInt64, fd: Int32) {
    heap.append((time, fd))
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].time < heap[parent].time else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() {
    guard !heap.isEmpty else { return }
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count && heap[left].time < heap[smallest].time { smallest = left }
      if right < heap.count && heap[right].time < heap[smallest].time { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
