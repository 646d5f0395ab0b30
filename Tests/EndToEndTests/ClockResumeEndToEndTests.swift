import Foundation
import GameRecords
import TestSupport
import Testing

/// Clocks kept through a dropped connection between two real programs in plain mode (issue 24, PROTOCOL.md rules
/// 14 and 15). The fault proxy between them holds every byte and resets the connection while a clock runs, so the
/// joiner's reconnection hangs until the test lets the bytes through again: the drop lasts as long as the test
/// says. The clock of the side to move runs on through the drop on both screens; after the resume both records
/// charge each move what the test's own watch saw, within 250 ms; a player whose time runs out while away loses
/// on time once the connection is back.
@Suite(.serialized) struct ClockResumeEndToEndTests {
  /// How far a program's clock may be from the test's watch.
  static let tolerance = 0.25

  /// Something the test saw happen between two readings of its monotonic clock (seconds).
  struct Window: CustomStringConvertible {
    var from: Double
    var to: Double
    var description: String { "[\(from), \(to)]" }
  }

  /// A timed match: alice hosts with `clock`, bob joins through the proxy and accepts the terms. X is the player
  /// asked for the first move.
  private struct Match {
    let host: Player
    let joiner: Player
    let proxy: FaultProxy
    let x: Player
    let o: Player

    init(clock: String) throws {
      host = try Player(
        ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new", "--clock", clock],
        environment: try NetworkTests.Home("alice").environment)
      let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
      proxy = try FaultProxy.start(target: UInt16(port))
      joiner = try Player(
        ["join", "127.0.0.1:\(proxy.port)", "--ui", "plain", "--accept-new"],
        environment: try NetworkTests.Home("bob").environment)
      #expect(joiner.waitFor("Play on these terms? [y/n]: "), "\(joiner.output)\(joiner.errors)")
      joiner.send("y")
      #expect(host.waitFor("game 1:") && joiner.waitFor("game 1:"), "\(host.output)\(joiner.output)")
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline && host.count("your move (X): ") + joiner.count("your move (X): ") == 0 {
        usleep(5_000)
      }
      (x, o) = host.count("your move (X): ") > 0 ? (host, joiner) : (joiner, host)
    }

    func end() {
      joiner.send("quit")
      host.send("quit")
      _ = joiner.exitStatus()
      _ = host.exitStatus()
      proxy.stop()
    }

    /// The connection is cut and stays down: every byte is held (the joiner's next connection too) and the current
    /// connection reset. Both players are told.
    func cut(_ times: Int, sourceLocation: SourceLocation = #_sourceLocation) {
      proxy.stall()
      proxy.dropNow()
      for player in [host, joiner] {
        #expect(
          ClockResumeEndToEndTests.seen("The connection dropped", times, in: player) != nil, "\(player.output)",
          sourceLocation: sourceLocation)
      }
    }
  }

  /// Waits (bounded, looking every 5 ms) until `player`'s output holds `text` `times` times; the moment it did.
  private static func seen(_ text: String, _ times: Int = 1, in player: Player, timeout: Double = 30) -> Double? {
    let deadline = monotonicNow() + timeout
    while monotonicNow() < deadline {
      if player.count(text) >= times { return monotonicNow() }
      usleep(5_000)
    }
    return nil
  }

  /// Waits until the test's watch says `moment` (a drop that lasts that long, not an event waited for).
  private static func wait(until moment: Double) {
    let left = moment - monotonicNow()
    if left > 0 { usleep(UInt32(left * 1_000_000)) }
  }

  /// Asks `player` for its clock line; the line, and when it was asked and seen.
  private static func askClock(_ player: Player) -> (line: String, window: Window)? {
    let before = player.count("clock: ")
    let asked = monotonicNow()
    player.send("clock")
    guard let answered = seen("clock: ", before + 1, in: player) else { return nil }
    // The answer may follow a prompt on its line ("your move (X): clock: you 0:26, ...").
    let output = player.output
    let start = output.range(of: "clock: ", options: .backwards)?.lowerBound ?? output.endIndex
    let line = String(output[start...].prefix { $0 != "\n" })
    return (line, Window(from: asked, to: answered))
  }

  /// The two faces of a clock line in seconds, this player's first: "clock: you 0:27, bob 0:30 (yours is running)".
  static func faces(_ line: String) -> [Int] {
    line.split(separator: " ").compactMap { word in
      let parts = word.trimmingCharacters(in: CharacterSet(charactersIn: ",")).split(separator: ":")
      guard parts.count == 2, let minutes = Int(parts[0]), let seconds = Int(parts[1]) else { return nil }
      return minutes * 60 + seconds
    }
  }

  /// Checks `face` (whole seconds, rounded down, as a screen shows it) of a clock that had `base` seconds when it
  /// started, at a moment within `started`, read at a moment within `read`: within `tolerance` of the test's watch.
  private static func expectFace(
    _ face: Int?, base: Double, started: Window, read: Window, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let low = Int((base - (read.to - started.from) - tolerance).rounded(.down))
    let high = Int((base - (read.from - started.to) + tolerance).rounded(.down))
    #expect(
      face.map { (low...high).contains($0) } == true,
      "\(what): \(face.map { "\($0)" } ?? "none"), not \(low)...\(high)",
      sourceLocation: sourceLocation)
  }

  /// Checks that `milliseconds` is within `tolerance` of a time the test saw to lie within `window`.
  private static func expectWithin(
    _ milliseconds: Int?, _ window: Window, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let seconds = milliseconds.map { Double($0) / 1_000 } ?? -1
    #expect(
      seconds >= window.from - tolerance && seconds <= window.to + tolerance,
      "\(what): \(seconds) s, the test's watch saw \(window)", sourceLocation: sourceLocation)
  }

  /// A moment, at least 50 ms from now, when a clock that started within `started` with `base` seconds shows half a
  /// second past a whole one: its face is then the same with `tolerance` either way.
  private static func halfSecond(base: Double, started: Window) -> Double {
    let middle = (started.from + started.to) / 2
    let shown = base - (monotonicNow() + 0.05 - middle)
    return middle + base - ((shown - 0.5).rounded(.down) + 0.5)
  }

  /// Both programs show X's clock (started within `started`, `base` seconds) as the test's watch says: X's own
  /// line first, then O's, where X is the opponent.
  private static func expectXClock(
    _ match: Match, base: Double, started: Window, _ when: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    wait(until: halfSecond(base: base, started: started))
    for (player, index) in [(match.x, 0), (match.o, 1)] {
      let answer = askClock(player)
      let faces = answer.map { Self.faces($0.line) } ?? []
      let face = faces.count == 2 ? faces[index] : nil
      let read = answer?.window ?? Window(from: 0, to: 0)
      expectFace(
        face, base: base, started: started, read: read,
        "X's clock \(when) on \(index == 0 ? "X" : "O")'s screen (\(answer?.line ?? "no answer"))",
        sourceLocation: sourceLocation)
      #expect(
        faces.count == 2 && faces[1 - index] == 30, "O's clock \(when): \(answer?.line ?? "none")",
        sourceLocation: sourceLocation)
    }
  }

  /// Both sides' records once both signatures have crossed (each side rewrites its record then).
  private static func signedRecords(_ match: Match) -> [String] {
    var texts: [String] = []
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      texts = [match.host, match.joiner].map {
        (try? RecordsEndToEndTests.records($0.environment).first?.text) ?? ""
      }
      if texts.allSatisfy({ $0.contains("TTSB[") && $0.contains("TTSW[") }) { break }
      usleep(20_000)
    }
    return texts
  }
}

extension ClockResumeEndToEndTests {
  /// A 30-second game: X thinks through a 2.5-second drop, then moves; O types its move during a second drop, and
  /// the move goes out on the resume. Both screens show X's clock run through the drop; both records charge X's
  /// move its whole thinking time, the drop in it, and O's move the time X waited for it less A (1 s).
  @Test func bothClocksComeBackFromADropAsTheyRanThroughIt() throws {
    let match = try Match(clock: "30s+0")
    defer { match.end() }
    let (x, o) = (match.x, match.o)
    let (o1Sent, xStarted) = try Self.freeFirstMoves(match)

    // X's clock runs on while the connection is down, on both screens, and after the resume.
    match.cut(1)
    Self.expectXClock(match, base: 30, started: xStarted, "during the drop")
    Self.wait(until: o1Sent + 2.5)
    match.proxy.resume()
    for player in [x, o] {
      #expect(Self.seen("Reconnected: game 1 goes on at move 3.", in: player) != nil, "\(player.output)")
    }
    Self.expectXClock(match, base: 30, started: xStarted, "after the resume")

    // X moves: charged from O's move's arrival to its own, the drop included.
    let x9Sent = monotonicNow()
    x.send("9")
    let x9Seen = try #require(Self.seen(" plays 9 (", in: o), "\(o.output)")
    let xCharge = Window(from: x9Sent - xStarted.to, to: x9Seen - xStarted.from)

    // O types its move while the connection is down again; it goes out on the resume, and X, which waited from
    // its own move to the resume, charges O that wait less A (O's own thinking time is shorter).
    match.cut(2)
    let waiting = o.count("waiting for ")
    o.send("3")
    #expect(Self.seen("waiting for ", waiting + 1, in: o) != nil, "\(o.output)")
    Self.wait(until: x9Seen + 2.5)
    let resumed = monotonicNow()
    match.proxy.resume()
    let o3Seen = try #require(Self.seen(" plays 3 (", in: x), "\(x.output)")
    let oCharge = Window(from: resumed - x9Seen - 1, to: o3Seen - x9Sent - 1)

    // X's next move carries the echo of O's charge; then O resigns: the game's records are written and signed.
    for player in [x, o] {
      #expect(Self.seen("Reconnected: game 1 goes on at move ", 2, in: player) != nil, "\(player.output)")
    }
    x.send("2")
    #expect(Self.seen(" plays 2 (", in: o) != nil, "\(o.output)")
    o.send("resign")
    for player in [x, o] { #expect(player.waitFor("result: X wins"), "\(player.output)") }
    try Self.expectTimes(Self.signedRecords(match), xCharge: xCharge, oCharge: oCharge)
  }

  /// Each side's first move is free: X plays 5, then O plays 1. When O's move went out, and the window in which
  /// it reached X and X's clock started.
  private static func freeFirstMoves(_ match: Match) throws -> (oSent: Double, xStarted: Window) {
    let (x, o) = (match.x, match.o)
    x.send("5")
    #expect(seen(" plays 5 (", in: o) != nil, "\(o.output)")
    let oSent = monotonicNow()
    o.send("1")
    return (oSent, Window(from: oSent, to: try #require(seen(" plays 1 (", in: x), "\(x.output)")))
  }

  /// Both records are the same bytes and charge X's third move and O's second as the test's watch saw them.
  private static func expectTimes(_ texts: [String], xCharge: Window, oCharge: Window) throws {
    #expect(texts.count == 2 && texts[0] == texts[1], "the two records differ:\n\(texts)")
    let record = try GameRecord.parse(try #require(texts.first))
    try #require(record.times.count == 5, "\(texts[0])")
    #expect(record.times[0...1].allSatisfy { $0 == MoveTime(charged: 0, left: 30_000) }, "\(texts[0])")
    Self.expectWithin(record.times[2].charged, xCharge, "X's move through the drop")
    Self.expectWithin(record.times[3].charged, oCharge, "O's move typed during the drop")
    #expect(record.times[2].charged >= 2_500, "X's clock ran through the 2.5 s drop: \(texts[0])")
    #expect(record.times[2].left == 30_000 - record.times[2].charged)
    #expect(record.times[3].left == 30_000 - record.times[3].charged)
    #expect(record.times[4].left == record.times[2].left - record.times[4].charged)
    let (x, o) = (record.times[2].charged, record.times[3].charged)
    print("clock through a drop: X charged \(x) ms, watch \(xCharge) s; O \(o) ms, watch \(oCharge) s")
  }

  /// A 5-second game: X's time runs out while the connection is down. O claims the win on time when it is due,
  /// during the drop, and the claim goes out on the resume: X's program agrees, and both records say W+T or B+T.
  @Test func aPlayerWhoseTimeRunsOutWhileAwayLosesOnTime() throws {
    let match = try Match(clock: "5s+0")
    defer { match.end() }
    let (x, o) = (match.x, match.o)
    let (o1Sent, xStarted) = try Self.freeFirstMoves(match)
    match.cut(1)
    // X's flag falls on O's clock at 5 s + A (1 s) after O's move went out, while X is away.
    let claimed = try #require(Self.seen("'s time ran out: you claimed the win on time.", in: o), "\(o.output)")
    Self.expectWithin(
      Int(((claimed - xStarted.from) * 1_000).rounded()), Window(from: 6, to: 6 + xStarted.to - xStarted.from),
      "O's claim, after O's move")
    #expect(!x.output.contains("result: ") && !o.output.contains("result: "), "\(x.output)\(o.output)")
    Self.wait(until: o1Sent + 7.5)
    let resumed = monotonicNow()
    match.proxy.resume()
    var ended = resumed
    for player in [x, o] {
      let end = Self.seen("result: O wins (X lost on time)", in: player)
      #expect(end.map { $0 - resumed < 2 } == true, "\(player.output)")
      ended = max(ended, end ?? ended)
    }
    let texts = Self.signedRecords(match)
    #expect(texts.count == 2 && texts[0] == texts[1], "the two records differ:\n\(texts)")
    let text = texts[0]
    for property in ["RE[W+T]", "TTE[time]", "TM[5]OT[0 fischer]", "TTF[W 5 "] {
      #expect(text.contains(property), "\(property) in \(text)")
    }
    let record = try GameRecord.parse(text)
    let flag = try #require(record.flag, "\(text)")
    // The claim saw 6 s pass; X's own clock, asked on the resume, says it thought through the whole drop.
    Self.expectWithin(flag.observed, Window(from: 6, to: 6 + xStarted.to - xStarted.from), "the time O's claim saw")
    print(
      "flag while away: claim saw \(flag.observed) ms, X answered \(flag.thinking) ms, resumed at +\(resumed - o1Sent) s"
    )
    Self.expectWithin(flag.thinking, Window(from: resumed - xStarted.to, to: ended - xStarted.from), "X's answer")
  }
}
