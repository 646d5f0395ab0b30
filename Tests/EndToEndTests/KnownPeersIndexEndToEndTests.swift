import Foundation
import TestSupport
import Testing

/// A joiner with a big known_peers decides through its index (`known_peers.index`), and the index never outvotes
/// the file: two real processes over loopback.
@Suite(.serialized) struct KnownPeersIndexEndToEndTests {
  static func environment(_ name: String) throws -> [String: String] {
    var environment = try Binary.sandbox().environment
    environment["USER"] = name
    return environment
  }

  static func knownPeers(_ environment: [String: String]) throws -> String {
    try #require(environment["XDG_DATA_HOME"]) + "/tictactoe/known_peers"
  }

  static func host(_ environment: [String: String], port: Int = 0) throws -> (Player, Int) {
    let player = try Player(
      ["host", "--port", "\(port)", "--ui", "plain", "--accept-new"], environment: environment)
    return (player, try #require(player.announcedPort(), "host did not start: \(player.errors)"))
  }

  @Test func aJoinerDecidesThroughTheIndexAndADamagedIndexNeverHidesAChangedKey() throws {
    let alice = try Self.environment("alice")
    let bob = try Self.environment("bob")
    let (first, port) = try Self.host(alice)
    let meet = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob)
    #expect(meet.waitFor("game 1:"))
    meet.send("quit")
    #expect(meet.exitStatus() == 0)
    #expect(first.exitStatus() == 30)
    // 20,000 other players before alice's line (the file is no longer what the index was made from).
    let path = try Self.knownPeers(bob)
    let remembered = try String(contentsOfFile: path, encoding: .utf8)
    var others = ""
    for number in 0..<20_000 {
      let bytes = (0..<32).map { UInt8(truncatingIfNeeded: number >> (8 * ($0 % 3))) ^ UInt8($0 + 1) }
      others += "player\(number) SHA256:\(Data(bytes).base64EncodedString().dropLast()) 2026-11-30\n"
    }
    try (others + remembered).write(toFile: path, atomically: true, encoding: .utf8)
    // Alice is still known at her address: no question, and the index is made for the file as it is.
    let (again, port2) = try Self.host(alice, port: port)
    let joiner = try Player(["join", "127.0.0.1:\(port2)", "--ui", "plain"], environment: bob)
    #expect(joiner.waitFor("game 1:") && again.waitFor("game 1:"), "\(joiner.errors)")
    #expect(!joiner.output.contains("Trust it?"))
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    #expect(again.exitStatus() == 30)
    let index = path + ".index"
    let size = try #require(try FileManager.default.attributesOfItem(atPath: index)[.size] as? Int)
    #expect(size > 40_000 * 24, "the index holds \(size) bytes: a key and a name for each of 20,001 players")
    // Alice makes a new key; bob's index is overwritten with garbage of the same size. The file decides:
    // KEY CHANGED at her address, naming the line she is on.
    _ = try Binary.run(["identity", "new", "--yes"], environment: alice)
    try Data(repeating: 0x41, count: size).write(to: URL(fileURLWithPath: index))
    let (changed, port3) = try Self.host(alice, port: port)
    let refused = try Player(["join", "127.0.0.1:\(port3)", "--ui", "plain", "--accept-new"], environment: bob)
    #expect(refused.exitStatus() == 21, "\(refused.output)\(refused.errors)")
    #expect(refused.errors.contains("known_peers:20001"), "\(refused.errors)")
    changed.send("quit")
    _ = changed.exitStatus()
  }
}
