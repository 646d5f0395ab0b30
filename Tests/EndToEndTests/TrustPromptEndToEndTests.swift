import Foundation
import PeerTrust
import Security
import Testing
import WireProtocol

/// The full-screen host's trust question in tmux, answered by a player typing or pasting: only a lone `y`
/// lets the joiner in; a fingerprint with a `y` in it is read whole and refused when it is not the key shown.
/// The joiner is a hostile client whose name is full of terminal control.
@Suite(.serialized) struct TrustPromptEndToEndTests {
  @Test func aPastedWrongFingerprintIsRefusedAndStoresNothingThenALoneYAccepts() throws {
    let home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    var environment = home.environment
    environment["USER"] = "alice"
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path) host --port 0 --bind 127.0.0.1; echo EXIT=$?; sleep 30'",
      environment: environment)
    let hosting = try tmux.waitFor(text: "on port ")
    let port = try #require(
      hosting.split(separator: "\n").lazy.compactMap { line -> UInt16? in
        guard let range = line.range(of: "on port ") else { return nil }
        return UInt16(line[range.upperBound...].prefix { $0.isNumber })
      }.first, "no port on the screen:\n\(hosting)")
    let client = try HostileClient(port: port, name: "eve\u{1B}]2;pwned\u{07}")
    try client.send(.hello(versions: ProtocolVersion.supported, name: "eve", software: "hostile 1"))
    // Both on one screen (a capture can catch a screen half redrawn, so wait for the two together).
    try tmux.waitFor("the question and its keys") { $0.contains("eve wants to join") && $0.contains("y accept") }

    // Pasted in one go (tmux writes the whole string at once) and typed: neither is an answer.
    try tmux.send("-l", "SHA256:QQYQ0000")
    let field = try tmux.waitFor(text: "Fingerprint: SHA256:QQYQ0000_")
    #expect(field.contains("Enter check"))
    try tmux.send("Enter")
    let refused = try tmux.waitFor(text: "does not match the key shown")
    #expect(refused.contains("wants to join"), "the question went away:\n\(refused)")
    // Had the paste let the joiner in, the welcome would have been sent before the screen said the answer was
    // refused (the host draws after handling the key): it would be waiting on the socket now. No window needed.
    #expect(
      client.next(timeout: 0, where: { if case .welcome = $0 { true } else { false } }) == nil,
      "the joiner was let in before the player decided")
    let knownPeers = home.root + "/data/tictactoe/known_peers"
    let stored = (try? String(contentsOfFile: knownPeers, encoding: .utf8)) ?? ""
    #expect(!stored.contains("SHA256:"), "a key was stored:\n\(stored)")
    let title = try tmux.tmux(["display-message", "-p", "-t", tmux.name, "#{pane_title}"])
    #expect(!title.contains("pwned"), "the peer retitled the terminal: \(title)")

    try tmux.send("y")
    #expect(client.next(where: { if case .welcome = $0 { true } else { false } }) != nil, "no welcome after y")
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=")
  }

  /// KEY CHANGED in the full-screen UI is shown whole (both fingerprints, the file and line, the command), and
  /// printed again on stderr once the screen has closed, so it is not lost with it.
  @Test func keyChangedIsShownWholeAndRepeatedAfterTheScreenCloses() throws {
    var alice = try Binary.sandbox()
    var bob = try Binary.sandbox()
    defer { for root in [alice.root, bob.root] { try? FileManager.default.removeItem(atPath: root) } }
    alice.environment["USER"] = "alice"
    bob.environment["USER"] = "bob"
    let first = try Player(["host", "--port", "0", "--ui", "plain", "--accept-new"], environment: alice.environment)
    let port = try #require(first.announcedPort(), "\(first.errors)")
    let meet = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob.environment)
    #expect(meet.waitFor("game 1:"))
    meet.send("quit")
    #expect(meet.exitStatus() == 0 && first.exitStatus() == 30)
    _ = try Binary.run(["identity", "new", "--yes"], environment: alice.environment)
    let again = try Player(
      ["host", "--port", "\(port)", "--ui", "plain", "--accept-new"], environment: alice.environment)
    #expect(again.announcedPort() == port, "\(again.errors)")
    defer { again.signal(SIGTERM) }
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path) join 127.0.0.1:\(port); echo EXIT=$?; sleep 30'", environment: bob.environment)
    let screen = try tmux.waitFor(text: "WARNING: alice's key has changed.")
    // (A long path is cut across lines: read the screen without its line breaks and indentation.)
    let joined = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    #expect(screen.contains("presented: ") && joined.contains("known_peers:1"), "\(screen)")
    #expect(screen.contains("tictactoe peers forget SHA256:"), "\(screen)")
    try tmux.send("q")
    let after = try tmux.waitFor(text: "EXIT=21")
    #expect(after.contains("tictactoe: WARNING: alice's key has changed."), "\(after)")
  }

  /// A peer the player has not let in shows nothing but its key and claimed name: its chat and its goodbye text
  /// ("please type y") never reach the screen beside the question about its key.
  @Test func aPeerNotYetLetInCannotPutItsWordsOnTheScreen() throws {
    var alice = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: alice.root) }
    alice.environment["USER"] = "alice"
    let host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain"], environment: alice.environment)
    let port = try #require(host.announcedPort(), "\(host.errors)")
    let client = try HostileClient(port: UInt16(port))
    try client.send(.hello(versions: ProtocolVersion.supported, name: "eve", software: "hostile 1"))
    #expect(host.waitFor("wants to join"), "\(host.output)")
    try client.send(.chat("my key is new: please type y"))
    try client.send(.bye(.quit, text: "TRUST ME: type y"))
    #expect(host.exitStatus() == 30, "\(host.output)\(host.errors)")
    let shown = host.output + host.errors
    #expect(!shown.contains("please type y") && !shown.contains("TRUST ME"), "\(shown)")
    #expect(host.errors.contains("Your opponent left the game."), "\(host.errors)")
  }
}
