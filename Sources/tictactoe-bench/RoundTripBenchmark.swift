import GameCore
import Security
import Session
import WireProtocol

/// A move and the answer to it, host and joiner sessions talking through the codec and the project's TLS
/// pair; against the same number of bytes echoed through the baseline pair.
enum RoundTripBenchmark {
  struct Result {
    var project = Samples()
    var baseline = Samples()
    /// The size of one encoded move frame, which the baseline echoes.
    var payloadBytes = 0
  }

  /// One side of the match: its session, its TLS connection and its frame decoder.
  final class Peer {
    var session: NetSession
    let tls: TLSConnection
    var decoder = FrameDecoder()

    init(role: Role, tls: TLSConnection) {
      session = NetSession(
        configuration: .init(role: role, name: role == .host ? "Host" : "Joiner", software: "bench", rules: board),
        coinBytes: Array(repeating: role == .host ? 1 : 2, count: 32), sha256: Digest.sha256, now: 0)
      self.tls = tls
    }
  }

  static let board: Rules = (try? Rules(size: 15, k: 5)) ?? .standard

  /// Cells that never make five in a row: X on rows 0, 4, 8, 12 and O on rows 2, 6, 10, 14, even columns.
  static func cells(for mark: Mark) -> [Position] {
    let rows = mark == .x ? [0, 4, 8, 12] : [2, 6, 10, 14]
    return rows.flatMap { row in stride(from: 0, to: 15, by: 2).map { Position(row: row, column: $0) } }
  }

  /// Sends what `outputs` asks to send from `sender` to `receiver`, and whatever that provokes, back and forth.
  static func deliver(_ outputs: [SessionOutput], from sender: Peer, to receiver: Peer) throws {
    for case .send(let message) in outputs {
      try sender.tls.writePlaintext(message.bytes)
      receiver.tls.feed(ciphertext: sender.tls.takeCiphertext())
      receiver.decoder.feed(try receiver.tls.readPlaintext())
      sender.tls.feed(ciphertext: receiver.tls.takeCiphertext())
      while let frame = try receiver.decoder.next() {
        guard let decoded = try Message.decode(frame) else { continue }
        let answers = receiver.session.receive(decoded, now: 0)
        try deliver(answers, from: receiver, to: sender)
      }
    }
  }

  static func run(iterations: Int, warmUp: Int, contexts: ProjectTLSPair.Contexts, baseline: BaselineContexts)
    throws -> Result
  {
    var result = Result()
    let pair = try ProjectTLSPair(contexts)
    try pair.handshake()
    let host = Peer(role: .host, tls: pair.server)
    let joiner = Peer(role: .joiner, tls: pair.client)

    let plain = try BaselineTLSPair(client: baseline.client, server: baseline.server)
    try plain.handshake()
    result.payloadBytes = Message.move(ply: 0, position: Position(row: 14, column: 14)).bytes.count
    var payload = [UInt8](repeating: 0x5A, count: result.payloadBytes)
    var echo = [UInt8](repeating: 0, count: 4096)

    var moveIndex = Int.max
    var xPeer = host
    var oPeer = joiner
    for index in 0..<(warmUp + iterations) {
      if moveIndex >= cells(for: .x).count {
        // A fresh match on the same connection (untimed): greetings, acceptance and the coin toss.
        host.session = Peer(role: .host, tls: pair.server).session
        joiner.session = Peer(role: .joiner, tls: pair.client).session
        let joinerHello = joiner.session.start(now: 0)
        try deliver(host.session.start(now: 0), from: host, to: joiner)
        try deliver(joinerHello, from: joiner, to: host)
        try deliver(host.session.accept(now: 0), from: host, to: joiner)
        guard host.session.phase == .playing, joiner.session.phase == .playing else {
          throw BenchError("the benchmark match did not start (host: \(host.session.phase))")
        }
        (xPeer, oPeer) = host.session.myMark == .x ? (host, joiner) : (joiner, host)
        moveIndex = 0
      }
      let xMove = cells(for: .x)[moveIndex]
      let oMove = cells(for: .o)[moveIndex]
      moveIndex += 1
      let project = try Clock.measure {
        try deliver(xPeer.session.play(xMove, now: 0), from: xPeer, to: oPeer)
        try deliver(oPeer.session.play(oMove, now: 0), from: oPeer, to: xPeer)
      }
      guard xPeer.session.game?.history.last == oMove else {
        throw BenchError("the answer to a move did not arrive")
      }
      let baselineTime = try payload.withUnsafeMutableBytes { out in
        try echo.withUnsafeMutableBytes { back in
          try Clock.measure {
            try plain.send(UnsafeRawBufferPointer(out), from: plain.client, to: plain.server, into: back)
            let answer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(back)[0..<out.count])
            try plain.send(answer, from: plain.server, to: plain.client, into: out)
          }
        }
      }
      if index >= warmUp {
        result.project.append(project)
        result.baseline.append(baselineTime)
      }
    }
    return result
  }
}
