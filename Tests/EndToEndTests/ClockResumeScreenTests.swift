import Foundation
import TestSupport
import Testing

/// Clocks through a dropped connection on the full screen (issue 24, PROTOCOL.md rule 14): two real programs in
/// tmux, the fault proxy between them. While the connection is down and after the resume, both screens show both
/// clocks, the side to move's running on through the drop, and the two screens agree.
@Suite(.serialized) struct ClockResumeScreenTests {
  /// The two clock faces of the panel's clock line ("▸You 0:27 · bob 0:30 (30s+0)"), in seconds, this player's
  /// first, and whether this player's is the one marked running; nil when the screen shows no such line.
  static func clocks(_ screen: String) -> (mine: Int, theirs: Int, mineRunning: Bool)? {
    guard let line = screen.split(separator: "\n").first(where: { $0.contains("(30s+0)") && $0.contains("·") })
    else { return nil }
    let faces = line.split(whereSeparator: { $0 == " " || $0 == "│" }).compactMap { word -> Int? in
      let parts = word.split(separator: ":")
      guard parts.count == 2, parts[1].count == 2, let minutes = Int(parts[0]), let seconds = Int(parts[1]) else {
        return nil
      }
      return minutes * 60 + seconds
    }
    guard faces.count >= 2 else { return nil }
    let mineRunning = line.contains("▸You")
    return (faces[faces.count - 2], faces[faces.count - 1], mineRunning)
  }

  /// X's screen and O's read one after the other: both show both clocks, X's running on both, O's untouched (its
  /// first move was free), and X's the same on both within a second (the two reads are not at one instant).
  static func expectAgree(x: TmuxSession, o: TmuxSession, _ when: String) throws -> Int {
    let xScreen = try x.screen()
    let oScreen = try o.screen()
    let onX = try #require(clocks(xScreen), "X's screen \(when) shows no clocks:\n\(xScreen)")
    let onO = try #require(clocks(oScreen), "O's screen \(when) shows no clocks:\n\(oScreen)")
    #expect(onX.mineRunning && !onO.mineRunning, "\(when): the running clock is X's\n\(xScreen)\n\(oScreen)")
    #expect(onX.theirs == 30 && onO.mine == 30, "\(when): O's clock\n\(xScreen)\n\(oScreen)")
    #expect(abs(onX.mine - onO.theirs) <= 1, "\(when): X's clock differs\n\(xScreen)\n\(oScreen)")
    return onX.mine
  }

  @Test func bothScreensShowBothClocksAgreeingThroughADropAndAfterTheResume() throws {
    var alice = try Binary.sandbox().environment
    alice["USER"] = "alice"
    let host = try TmuxSession(
      command: "sh -c '\(Binary.path) host --port 0 --bind 127.0.0.1 --clock 30s+0 --grace 60; echo EXIT=$?; sleep 30'",
      environment: alice)
    try host.waitFor(text: "Waiting for an opponent")
    let proxy = try FaultProxy.start(target: UInt16(try TmuxSession.hostedPort(alice)))
    defer { proxy.stop() }
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let joiner = try TmuxSession(
      command: "sh -c '\(Binary.path) join 127.0.0.1:\(proxy.port) --grace 60; echo EXIT=$?; sleep 30'",
      environment: bob)
    try joiner.waitFor(text: "The host alice is new to you. Trust it?")
    try joiner.send("y")
    try joiner.waitFor(text: "Play on these terms?")
    try joiner.send("y")
    try host.waitFor(text: "bob wants to join — accept?")
    try host.send("y")
    let first = try host.waitFor(text: "Game 1: you play")
    let (x, o) = first.contains("you play X") ? (host, joiner) : (joiner, host)
    // Each side's first move is free; then X's clock runs.
    try x.send("5")
    try o.waitFor(text: "Your turn (O)")
    try o.send("1")
    try x.waitFor("X's clock to run") { Self.clocks($0)?.mineRunning == true }
    _ = try x.waitFor("X's clock under 0:29") { (Self.clocks($0)?.mine ?? 30) <= 28 }

    // The connection goes down and stays down: both screens say so, and X's clock runs on on both.
    proxy.stall()
    proxy.dropNow()
    for side in [x, o] { try side.waitFor(text: "The connection dropped") }
    let during = try Self.expectAgree(x: x, o: o, "during the drop")
    _ = try x.waitFor("X's clock to run during the drop") { (Self.clocks($0)?.mine ?? 30) <= during - 2 }
    let later = try Self.expectAgree(x: x, o: o, "later in the drop")
    #expect(later <= during - 2)

    // Back: both screens go on with X's clock where it ran to, not where the drop began.
    proxy.resume()
    for side in [x, o] { try side.waitFor(text: "Reconnected: game 1 goes on at move 3.") }
    let after = try Self.expectAgree(x: x, o: o, "after the resume")
    #expect(after <= later && after >= later - 3, "X's clock after the resume: \(after), in the drop \(later)")
    try x.send("9")
    try o.waitFor("O's clock to run") { Self.clocks($0)?.mineRunning == true }
    for side in [joiner, host] { try side.send("q") }
  }
}
