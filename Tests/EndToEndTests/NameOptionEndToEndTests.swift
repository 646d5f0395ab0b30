import Foundation
import TestSupport
import Testing

/// The name set in Options is saved, and is the name a host then plays under.
@Suite(.serialized) struct NameOptionEndToEndTests {
  @Test func theNameFromOptionsIsSavedAndUsedToHost() throws {
    let home = try Binary.sandbox()
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path); echo EXIT=$?; sleep 30'", environment: home.environment)
    try tmux.waitFor(text: "Play the computer")
    try tmux.send("Down", "Down", "Down", "Down", "Enter")
    try tmux.waitFor(text: "Your name")
    try tmux.send("Down", "Down", "Down", "Down", "Enter")
    try tmux.waitFor(text: "type your name")
    try tmux.send("-l", "Zoë Q")
    try tmux.send("Enter")
    try tmux.waitFor(text: "Your name       Zoë Q")
    try tmux.send("Escape")
    try tmux.waitFor(text: "Play the computer")
    let settings = try String(
      contentsOfFile: home.environment["XDG_CONFIG_HOME", default: ""] + "/tictactoe/settings.conf", encoding: .utf8)
    #expect(settings.contains("name = Zoë Q\n"), "\(settings)")
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=0")
    // A host started afterwards plays under that name (port 0: a free one).
    let host = try Player(["host", "--ui", "plain", "--port", "0"], environment: home.environment)
    #expect(host.waitFor(" as Zoë Q on port "), "\(host.output)\(host.errors)")
    host.send("quit")
    #expect(host.exitStatus() == 0)
  }
}
