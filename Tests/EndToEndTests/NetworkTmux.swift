import Foundation
import TestSupport
import Testing

/// Two full-screen players in tmux: alice hosting, bob joining over loopback.
extension TmuxSession {
  /// alice hosting full-screen in tmux on a random port (or `port`), waiting for an opponent; `home` keeps her
  /// identity across hosts.
  static func aliceHosts(
    _ options: String = "", width: Int = 80, height: Int = 24, home: [String: String]? = nil, port: Int? = nil
  ) throws -> (host: TmuxSession, port: Int) {
    var alice = try home ?? Binary.sandbox().environment
    alice["USER"] = "alice"
    let port = port ?? 20000 + Int.random(in: 0..<20000)
    let host = try TmuxSession(
      command: "sh -c '\(Binary.path) host --port \(port)\(options); echo EXIT=$?; sleep 30'", environment: alice,
      width: width, height: height)
    try host.waitFor(text: "Waiting for an opponent")
    return (host, port)
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
