import Foundation
import TestSupport
import Testing

/// Two full-screen players in tmux: alice hosting, bob joining over loopback.
extension TmuxSession {
  /// alice hosting full-screen in tmux on a port the system picks (or `port`), waiting for an opponent; `home`
  /// keeps her identity across hosts. The port is read back from her log, so no test depends on a port being
  /// free.
  static func aliceHosts(
    _ options: String = "", width: Int = 80, height: Int = 24, home: [String: String]? = nil, port: Int? = nil
  ) throws -> (host: TmuxSession, port: Int) {
    var alice = try home ?? Binary.sandbox().environment
    alice["USER"] = "alice"
    let host = try TmuxSession(
      command: "sh -c '\(Binary.path) host --port \(port ?? 0)\(options); echo EXIT=$?; sleep 30'", environment: alice,
      width: width, height: height)
    try host.waitFor(text: "Waiting for an opponent")
    return (host, try port ?? hostedPort(alice))
  }

  /// `user` in the lobby, full-screen at 80×24 with `settings` in a fresh home, choosing "Host a network game";
  /// returns once that choice is made, with the home (`hostedPort` reads the port back from its log).
  static func hostFromTheLobby(user: String, settings: String) throws -> (
    tmux: TmuxSession, environment: [String: String]
  ) {
    var environment = try Binary.sandbox().environment
    environment["USER"] = user
    try Binary.writeSettings(settings, environment: environment)
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path); echo EXIT=$?; sleep 30'", environment: environment, width: 80, height: 24)
    try tmux.waitFor(text: "Play the computer")
    try tmux.send("Down", "Down", "Enter")
    return (tmux, environment)
  }

  /// The port the latest host in `home` listens on, as its log says (`hosting on *:PORT`, written before the
  /// host says it is waiting).
  static func hostedPort(_ home: [String: String]) throws -> Int {
    let log = try String(
      contentsOfFile: try #require(home["XDG_STATE_HOME"]) + "/tictactoe/tictactoe.log", encoding: .utf8)
    let line = try #require(log.split(separator: "\n").last { $0.contains("hosting on ") }, "no host in \(log)")
    let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
    try #require(port > 0, "\(line)")
    return port
  }

  /// bob joining alice's game on `port`, both trusting each other's new key; returns once the game is on, with
  /// the player who moves first.
  static func bobJoins(_ host: TmuxSession, port: Int, width: Int = 80, height: Int = 24) throws -> (
    joiner: TmuxSession, first: TmuxSession, second: TmuxSession
  ) {
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let joiner = try TmuxSession(
      command: "sh -c '\(Binary.path) join 127.0.0.1:\(port); echo EXIT=$?; sleep 30'", environment: bob,
      width: width, height: height)
    try joiner.waitFor(text: "The host alice is new to you. Trust it?")
    try joiner.send("y")
    try host.waitFor(text: "bob wants to join — accept?")
    try host.send("y")
    let hostScreen = try host.waitFor(text: "Game 1: you play")
    return hostScreen.contains("you play X") ? (joiner, host, joiner) : (joiner, joiner, host)
  }
}
