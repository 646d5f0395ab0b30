import Glibc
import NetworkFacts
import PeerTrust
import Security
import WireProtocol

/// One TLS connection to a peer on a non-blocking socket: bytes from the socket go through TLS into frames and
/// messages; messages go out through TLS to the socket. Driven by the event loop: call `readable()` when poll
/// says so, and `flush()` when `wantsWrite` (poll for POLLOUT). The TLS role is the context's, whichever side
/// opened the socket (a host waiting at a relay connected out, and is the server). A `ConnectionPrelude` may
/// come first (`start(after:)`): TLS starts when it is done.
public final class PeerConnection {
  /// What came out of the connection after a read.
  public enum Arrival: Sendable, Equatable {
    /// The TLS handshake finished: what it established about the peer (its certificate, the trust decision,
    /// the verification words, the TLS version and cipher).
    case secured(PeerFacts)
    case message(Message)
    /// A frame that could not be decoded (the session answers with an error and closes).
    case malformed(WireError)
    /// The peer closed the connection (cleanly, with close_notify, or not).
    case ended(clean: Bool)
    /// A proxy's header came (`ProxyPrelude`): `peerAddress` is now the client's it names, and TLS waits for
    /// the next `readable()` (the owner may close the connection first, by the client's address).
    case introduced(ProxyHeader)

    /// The facts of a `secured` arrival; nil for any other.
    public var securedFacts: PeerFacts? {
      if case .secured(let facts) = self { facts } else { nil }
    }
  }

  public let fd: Int32
  public let tls: TLSConnection
  /// Where the peer is (for the log and the screen): behind a proxy, the client the proxy's header named.
  public private(set) var peerAddress: String
  /// A proxy's header that came and was not yet reported by `readable()`.
  private var introduction: ProxyHeader?
  private var decoder = FrameDecoder()
  private var unknownFrames = UnknownFrameLimit()
  /// Seconds on a clock that never jumps, for the limit on unknown frames (a test gives its own).
  public var clock: () -> Double = PeerConnection.monotonic
  private var outbox: [UInt8] = []
  /// When set, `send` queues what it sends and `batch.flush()` writes it (with the batch's other connections).
  public var batch: WriteBatch?
  /// Sends queued for the batch and not yet tried on the socket, and how many bytes they are.
  private var waitsForBatch = false
  private var batchBytes = 0
  public private(set) var isSecured = false
  public private(set) var isClosed = false
  /// The stage before TLS while it lasts (`start(after:)`).
  private var prelude: (any ConnectionPrelude)?

  public init(fd: Int32, context: TLSContext, peerAddress: String, serverName: String? = nil) throws(NetworkError) {
    self.fd = fd
    self.peerAddress = peerAddress
    do {
      tls = try TLSConnection(context: context, serverName: serverName)
    } catch {
      throw .tls(error)
    }
  }

  deinit { if !isClosed { Glibc.close(fd) } }

  /// Starts the handshake (the client speaks first).
  public func start() throws(NetworkError) {
    do {
      if try tls.handshake() { isSecured = true }
    } catch {
      throw .tls(error)
    }
    queueCiphertext()
    _ = flush()
  }

  /// Starts with `prelude` before TLS: its opening goes out now (and keepalive is set if it asks); TLS starts,
  /// in this connection's role, when the prelude is done, with what followed it in the same read.
  public func start(after prelude: some ConnectionPrelude) {
    if let keepAlive = prelude.keepAlive { Sockets.setKeepAlive(fd, keepAlive) }
    self.prelude = prelude
    outbox += prelude.opening
    _ = flush()
  }

  /// Whether the prelude is still going on (TLS has not started).
  public var isInPrelude: Bool { prelude != nil }

  /// When the prelude fails if it is not done (nil without one): call `checkPrelude(now:)` then.
  public var preludeDeadline: Double? { prelude?.deadline }

  /// Throws the prelude's failure when `now` is at or past its deadline (nobody came to the relay).
  public func checkPrelude(now: Double) throws(NetworkError) {
    guard var stage = prelude else { return }
    defer { prelude = stage }
    if let failure = stage.expired(now: now) { throw failure }
  }

  /// Bytes wait for the socket to take them (not those only waiting for the batch's flush).
  public var wantsWrite: Bool { !outbox.isEmpty && !waitsForBatch }

  /// Bytes queued that the peer has not taken yet.
  public var queuedBytes: Int { outbox.count }

  /// Bytes the socket was offered and did not take (not those still waiting for the batch's flush): how far
  /// behind a peer that does not read is.
  public var backlogBytes: Int { outbox.count - batchBytes }

  /// At most this many bytes are read from one connection per wakeup: the rest waits for the next turn of the
  /// loop (the descriptor stays readable), so one peer that sends without pause cannot starve the others.
  public static let readCapPerWakeup = 65_536

  /// Reads what the socket has (at most `readCapPerWakeup` bytes) and returns what it meant; throws when the
  /// connection failed.
  public func readable() throws(NetworkError) -> [Arrival] {
    var arrivals: [Arrival] = []
    let endOfStream = try readSocket()
    if var stage = prelude {
      if endOfStream { throw stage.ended() }
      return []
    }
    if let header = introduction {
      // TLS begins at the next call (an end of the stream read now is read again then).
      introduction = nil
      return [.introduced(header)]
    }
    do {
      if !isSecured {
        if try tls.handshake() {
          isSecured = true
          arrivals.append(.secured(PeerFacts(tls)))
        } else if endOfStream {
          queueCiphertext()
          throw NetworkError.closedDuringHandshake
        }
      }
      if isSecured {
        try tls.readPlaintext { decoder.feed($0) }
        let frames = decodeFrames()
        if arrivals.isEmpty { arrivals = frames } else { arrivals += frames }
      }
    } catch let error as NetworkError {
      throw error
    } catch let error as TLSError {
      queueCiphertext()
      _ = flush()
      if error == .closedByPeer { return arrivals + ending(clean: true) }
      if error == .unexpectedEOF && isSecured { return arrivals + ending(clean: false) }
      throw .tls(error)
    } catch {
      throw .socket("\(error)")
    }
    queueCiphertext()
    _ = flush()
    if endOfStream && isSecured && !arrivals.contains(where: { if case .ended = $0 { true } else { false } }) {
      arrivals += ending(clean: false)
    }
    return arrivals
  }

  /// Reads what the socket has, at most `readCapPerWakeup` bytes, into the prelude or TLS; whether the stream
  /// ended (a reset counts as an end).
  private func readSocket() throws(NetworkError) -> Bool {
    var endOfStream = false
    var taken = 0
    // The thread's scratch space, not cleared: read() says how much it filled.
    try ThreadScratch.withSpace { (buffer) throws(NetworkError) in
      while taken < PeerConnection.readCapPerWakeup {
        let count = read(fd, buffer.baseAddress, buffer.count)
        if count > 0 {
          let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
          // After the prelude (if any), TLS reads them from the buffer: no array a read.
          if prelude == nil { tls.feed(ciphertext: bytes) } else { try take(Array(bytes)) }
          taken += count
          if count < buffer.count { break }
        } else if count == 0 || errno == ECONNRESET {
          endOfStream = true
          tls.feedEndOfStream()
          break
        } else if errno == EAGAIN || errno == EWOULDBLOCK {
          break
        } else if errno != EINTR {
          throw .socket(Sockets.errorText())
        }
      }
    }
    return endOfStream
  }

  /// Hands bytes read to the prelude while it lasts, and to TLS after it (what followed it first).
  private func take(_ bytes: [UInt8]) throws(NetworkError) {
    guard var stage = prelude else { return tls.feed(ciphertext: bytes) }
    switch stage.feed(bytes) {
    case .more:
      prelude = stage
    case .finished(let leftover):
      prelude = nil
      tls.feed(ciphertext: leftover)
    case .introduced(let header, let leftover):
      prelude = nil
      introduction = header
      if let source = header.source { peerAddress = source }
      tls.feed(ciphertext: leftover)
    case .failed(let failure):
      prelude = stage
      throw failure
    }
  }

  /// The end of the stream; after part of a frame, first the complaint that the frame was cut short (a peer
  /// that sends half a frame and closes broke the protocol, it did not just leave).
  private func ending(clean: Bool) -> [Arrival] {
    let pending = decoder.pendingCount
    return (pending > 0 ? [.malformed(.endedMidFrame(pending: pending))] : []) + [.ended(clean: clean)]
  }

  private func decodeFrames() -> [Arrival] {
    var arrivals: [Arrival] = []
    while true {
      do {
        guard let frame = try decoder.next() else { break }
        if let message = try Message.decode(frame) {
          arrivals.append(.message(message))
        } else if !unknownFrames.admit(now: clock()) {
          // Skipped by design, but a flood of them ends the connection like a malformed frame.
          arrivals.append(.malformed(.unknownFlood(count: UnknownFrameLimit.burst, seconds: UnknownFrameLimit.window)))
          break
        }
      } catch {
        arrivals.append(.malformed(error))
        break
      }
    }
    return arrivals
  }

  /// Queues `message` and tries to send it at once.
  public func send(_ message: Message) throws(NetworkError) {
    try send([message])
  }

  /// Queues `messages` in one TLS record (more only past a record's 16 KiB) and tries to send them at once, in
  /// one write: a bot's answer and a game's record signature cost the kernel one send, not one each. In a
  /// `batch`, they wait for the batch's flush instead.
  public func send(_ messages: [Message]) throws(NetworkError) {
    guard !messages.isEmpty else { return }
    var bytes = messages[0].bytes
    for message in messages.dropFirst() { bytes += message.bytes }
    do {
      try tls.writePlaintext(bytes)
    } catch {
      throw .tls(error)
    }
    let before = outbox.count
    queueCiphertext()
    if let batch {
      if !waitsForBatch {
        waitsForBatch = true
        batch.add(self)
      }
      batchBytes += outbox.count - before
    } else {
      _ = flush()
    }
  }

  /// Writes what the socket takes; true when everything queued went out.
  @discardableResult
  public func flush() -> Bool {
    waitsForBatch = false
    batchBytes = 0
    while !outbox.isEmpty {
      let written = outbox.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written > 0 {
        outbox.removeFirst(written)
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return false
      }
    }
    // The emptied outbox keeps its room for the next send; only room past `keptOutboxRoom` (after a burst) is
    // given back, so a thousand idle games hold little.
    if outbox.capacity > PeerConnection.keptOutboxRoom { outbox = [] }
    return true
  }

  /// The most room an empty outbox keeps between sends (bytes).
  static let keptOutboxRoom = 4_096

  /// Where a graceful close leaves what the peer has not taken yet (nil: it is dropped).
  public var closer: ClosingSockets?

  /// Closes the connection. Gracefully, close_notify follows what is queued (a goodbye); what the socket does
  /// not take at once goes to `closer`, which sends it as the peer reads and closes the socket then, or at its
  /// deadline. Never waits.
  public func close(gracefully: Bool = true) {
    guard !isClosed else { return }
    isClosed = true
    if gracefully && isSecured {
      tls.shutdown()
      queueCiphertext()
      if !flush(), let closer {
        closer.adopt(fd, sending: outbox)
        outbox = []
        return
      }
      if outbox.isEmpty { shutdown(fd, Int32(SHUT_WR)) }
    }
    Glibc.close(fd)
  }

  @Sendable public static func monotonic() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  private func queueCiphertext() {
    // Into the outbox's room, kept from the last send (see `flush`).
    tls.takeCiphertext(appendingTo: &outbox)
  }
}

extension PeerFacts {
  /// What `tls` established, once its handshake is complete.
  public init(_ tls: TLSConnection) {
    self.init(
      certificate: tls.peerCertificate, trust: tls.trustDecision, verification: tls.verificationCode,
      protocolVersion: tls.protocolVersion, cipher: tls.cipher)
  }
}
