import Foundation
import TestSupport
import Testing

/// A 15×15 network match between two full-screen players at 80×24: the whole board with its coordinates,
/// moves named in notation, and the chat scrolled back with PgUp and marked when more comes.
@Suite(.serialized) struct BigBoardNetworkTests {
  @Test func aFifteenByFifteenMatchAtEightyByTwentyFour() throws {
    let (host, port) = try TmuxSession.aliceHosts(" --size 15 --k 5")
    let (joiner, first, second) = try TmuxSession.bobJoins(host, port: port)
    for player in [host, joiner] {
      let screen = try player.waitFor(text: "a  b  c  d  e  f  g  h  i  j  k  l  m  n  o")
      #expect(!screen.contains("too small"), "\(screen)")
      #expect(screen.contains(" 15  ") && screen.contains("  1  "), "\(screen)")
    }
    // The cursor starts on h8, the centre: Enter plays it.
    try first.waitFor(text: "Your turn (X)")
    try first.send("Enter")
    // The status wraps in the panel beside the board when the names are long: waited for in parts.
    let moved = try second.waitFor("h8 named, O to move") { $0.contains("plays h8.") && $0.contains("Your turn") }
    #expect(moved.contains("1. h8"), "the move list: \(moved)")
    #expect(moved.contains("  8  ·  ·  ·  ·  ·  ·  · [X] ·"), "the cursor on h8 where X is: \(moved)")
    // i9 is up and right of h8.
    try second.send("Up", "Right", "Enter")
    let answered = try first.waitFor("i9 named, X to move") { $0.contains("plays i9.") && $0.contains("Your turn") }
    #expect(answered.contains("1. h8  i9"), "\(answered)")

    // The second player says nine things of two rows each (ten messages in five seconds is the protocol's most);
    // the first scrolls back to the earliest, and is told what comes meanwhile.
    for n in 1...9 {
      try second.send("c")
      try second.send("-l", "line \(n): the quick brown fox jumps")
      try second.send("Enter")
      try first.waitFor(text: "line \(n): the quick")
    }
    #expect(!(try first.screen()).contains(": line 1:"), "the pane shows the latest lines")
    try first.send("PPage", "PPage", "PPage")
    let back = try first.waitFor(text: ": line 1:")
    #expect(back.contains("more · PgDn") && !back.contains(": line 9:"), "\(back)")
    try second.send("c")
    try second.send("-l", "are you there")
    try second.send("Enter")
    try first.waitFor(text: "1 new · PgDn")
    #expect(!(try first.screen()).contains("are you there"), "the view stays where it was scrolled")
    try first.send("NPage", "NPage", "NPage", "NPage")
    let bottom = try first.waitFor(text: ": are you there")
    #expect(!bottom.contains("PgDn"), "\(bottom)")

    try joiner.send("q")
    try joiner.waitFor(text: "Leave the match?")
    try joiner.send("y")
    try joiner.waitFor(text: "EXIT=")
    withExtendedLifetime(host) {}
  }
}
