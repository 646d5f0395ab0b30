import GameCore
import WireProtocol

/// libFuzzer target `hello-negotiation`: the pure session (`NetSession`) fed the frames of one read from the peer.
///
/// Input: a byte stream of frames, as the connection would deliver it. It is decoded the way the connection does:
/// each frame becomes a message for `receive`, a frame that does not decode goes to `receiveMalformed` and ends the
/// read, and the end of the stream is `connectionLost`. A host and a joiner session each get the same stream.
/// Frames of the unused types 0xF0...0xFF stand for this player's own actions instead (see `LocalAction`), so the
/// fuzzer can reach the coin toss and the game; other unknown types are ignored, as the connection ignores them.
///
/// Invariants: no crash; a closed session emits nothing more; `.closed` is the last output of a step when present;
/// `isClosed` agrees with the outputs; every message the session sends would be accepted by a peer's decoder (a
/// frame within `Frame.maximumLength` that decodes to the same message); for every hello decoded,
/// `ProtocolVersion.choose` picks the newest version common to both lists, whichever side asks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHelloNegotiation(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  for role in [Role.host, .joiner] {
    var run = SessionRun(role: role)
    run.play(input)
  }
  return 0
}

/// This player's actions, coded as frame types no message uses; the payload carries the arguments.
private enum LocalAction: UInt8 {
  case accept = 0xF0
  /// Payload: the refusal reason code.
  case decline = 0xF1
  /// Payload: row, column.
  case play = 0xF2
  /// Payload: the chat text (any bytes; invalid UTF-8 is repaired the way a `String` is built from bytes).
  case chat = 0xF3
  case resign = 0xF4
  case offerRematch = 0xF5
  case quit = 0xF6
  /// Payload: seconds to let pass before the tick (one byte, tenths of a second).
  case tick = 0xF7
  case connectionLost = 0xF8
  /// The joiner reconnected and asks to resume.
  case requestResume = 0xF9
  /// The host saw the peer come back on a new connection.
  case peerReconnected = 0xFA
  case claim = 0xFB
  /// Version 3. Payload 1: decline the peer's draw offer; else offer (or accept) one.
  case draw = 0xFC
  case requestTakeback = 0xFD
  /// Payload: an odd first byte accepts.
  case answerTakeback = 0xFE
  /// Payload 1: a joiner declines the host's terms; else abort the game.
  case abort = 0xFF
}

/// One session driven through a stream, checking each step's outputs.
private struct SessionRun {
  var session: NetSession
  var now = 0.0
  var closed = false

  init(role: Role) {
    // Neither the host's secret nor the hash matters to the state machine; an identity "hash" lets the fuzzer
    // build a reveal that matches its commitment.
    let secret = (0..<UInt8(Message.coinBytes)).map { $0 &* 37 }
    // The host offers a 10-second game, so the clocks and the flag are reached too.
    session = NetSession(
      configuration: .init(
        role: role, name: "Fuzz", software: "fuzz 1", timeControl: .fischer(base: 10_000, increment: 0)),
      coinBytes: secret,
      sha256: { Array($0.prefix(Message.coinBytes)) }, now: now)
  }

  mutating func play(_ input: [UInt8]) {
    check(session.start(now: now), after: "start")
    var decoder = FrameDecoder()
    decoder.feed(input)
    while true {
      now += 0.25
      do throws(WireError) {
        guard let frame = try decoder.next() else { break }
        if let action = LocalAction(rawValue: frame.type) {
          perform(action, frame.payload)
        } else if let message = try Message.decode(frame) {
          if case .hello(let versions, _, _, _) = message { checkChoice(theirs: versions) }
          check(session.receive(message, now: now), after: "receive \(message)")
        }
      } catch {
        check(session.receiveMalformed(error, now: now), after: "receiveMalformed \(error)")
        break
      }
    }
    check(session.connectionLost(now: now), after: "connectionLost")
  }

  private mutating func perform(_ action: LocalAction, _ payload: [UInt8]) {
    let first = payload.first ?? 0
    switch action {
    case .accept: check(session.accept(now: now), after: "accept")
    case .decline:
      check(session.decline(RefusalReason(rawValue: first) ?? .declined, text: "no", now: now), after: "decline")
    case .play:
      let position = Position(row: Int(first), column: Int(payload.dropFirst().first ?? 0))
      do throws(PlayError) {
        check(try session.play(position, now: now), after: "play \(position)")
      } catch {
        observe(error)
        check([], after: "a refused play")
      }
    case .chat:
      refusable("chat") { (session, now) throws(ActionRefusal) in
        try session.chat(String(decoding: payload, as: UTF8.self), now: now)
      }
    case .resign: refusable("resign") { (session, now) throws(ActionRefusal) in try session.resign(now: now) }
    case .offerRematch:
      refusable("offerRematch") { (session, now) throws(ActionRefusal) in try session.offerRematch(now: now) }
    case .quit: check(session.quit(text: "bye", now: now), after: "quit")
    case .tick:
      now += Double(first) / 10
      check(session.tick(now: now), after: "tick")
    case .connectionLost: check(session.connectionLost(now: now), after: "connectionLost")
    case .requestResume: check(session.requestResume(now: now), after: "requestResume")
    case .peerReconnected: check(session.peerReconnected(now: now), after: "peerReconnected")
    case .claim: refusable("claim") { (session, now) throws(ActionRefusal) in try session.claim(now: now) }
    case .draw where first == 1:
      refusable("declineDraw") { (session, now) throws(ActionRefusal) in try session.declineDraw(now: now) }
    case .draw: refusable("offerDraw") { (session, now) throws(ActionRefusal) in try session.offerDraw(now: now) }
    case .requestTakeback:
      refusable("requestTakeback") { (session, now) throws(ActionRefusal) in try session.requestTakeback(now: now) }
    case .answerTakeback:
      refusable("answerTakeback") { (session, now) throws(ActionRefusal) in
        try session.answerTakeback(accept: first % 2 == 1, now: now)
      }
    case .abort where first == 1: check(session.declineTerms(now: now), after: "declineTerms")
    case .abort: refusable("abort") { (session, now) throws(ActionRefusal) in try session.abort(now: now) }
    }
  }

  /// An action the session may refuse (a refusal emits nothing).
  private mutating func refusable(
    _ step: String, _ action: (inout NetSession, Double) throws(ActionRefusal) -> [SessionOutput]
  ) {
    do {
      check(try action(&session, now), after: step)
    } catch {
      check([], after: "a refused \(step)")
    }
  }

  /// The invariants of one step's outputs.
  private mutating func check(_ outputs: [SessionOutput], after step: String) {
    if closed { invariant(outputs.isEmpty, "the closed session emitted \(outputs) after \(step)") }
    if let index = outputs.firstIndex(where: { if case .closed = $0 { true } else { false } }) {
      invariant(index == outputs.count - 1, ".closed is not the last output of \(step): \(outputs)")
      closed = true
    }
    invariant(session.isClosed == closed, "isClosed is \(session.isClosed) after \(step) with outputs \(outputs)")
    for case .send(let message) in outputs {
      let frame = message.frame
      invariant(
        frame.payload.count + 1 <= Frame.maximumLength,
        "after \(step) the session sends a \(frame.payload.count + 1)-byte frame: \(message)")
      let decoded = try? Message.decode(frame)
      invariant(decoded == message, "after \(step) the session sends \(message), which a peer cannot decode")
    }
  }

  private func checkChoice(theirs: [UInt16]) {
    let ours = session.configuration.versions
    let chosen = ProtocolVersion.choose(ours: ours, theirs: theirs)
    invariant(
      chosen == ProtocolVersion.choose(ours: theirs, theirs: ours), "choose is not symmetric for \(ours), \(theirs)")
    let common = ours.filter(theirs.contains)
    invariant(chosen == common.max(), "choose picked \(String(describing: chosen)) from \(ours) and \(theirs)")
    observe(ProtocolVersion.describe(theirs))
  }
}
