import Foundation
import GameCore
import GameRecords
import TestSupport
import Testing

/// Every kind of finished game leaves a record in the player's data directory, written by the real binary.
@Suite(.serialized) struct RecordsEndToEndTests {
  static func records(_ environment: [String: String]) throws -> [(name: String, text: String)] {
    let directory = try #require(environment["XDG_DATA_HOME"]) + "/tictactoe/games"
    guard FileManager.default.fileExists(atPath: directory) else { return [] }
    // The records, not the tally index (.tally-index) beside them.
    return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sgf") }.sorted().map {
      ($0, try String(contentsOfFile: directory + "/" + $0, encoding: .utf8))
    }
  }

  static let hotSeatWin = "1\n2\n4\n5\n7\n"

  @Test func aHotSeatGameInPlainModeLeavesOneRecord() throws {
    let home = try Binary.sandbox()
    let result = try Binary.run(
      ["play", "--ui", "plain", "--hotseat"], input: Self.hotSeatWin, environment: home.environment)
    #expect(result.status == 0, "\(result.stderr)")
    let files = try Self.records(home.environment)
    #expect(files.count == 1)
    let record = try GameRecord.parse(try #require(files.first).text)
    #expect(record.black.name == "X" && record.white.name == "O")
    #expect(record.result == .won(.x, .line))
    #expect(record.moves.map { $0.cellNumber(in: .standard) } == [1, 2, 4, 5, 7])
  }

  @Test func aGameAgainstTheComputerNamesThePlayerAndTheLevel() throws {
    var home = try Binary.sandbox()
    home.environment["USER"] = "carol"
    let input = (1...9).map(String.init).joined(separator: "\n") + "\n"
    let result = try Binary.run(
      ["play", "--ui", "plain", "--ai", "perfect", "--first", "them"], input: input, environment: home.environment)
    #expect(result.status == 0, "\(result.stderr)")
    let record = try GameRecord.parse(try #require(try Self.records(home.environment).first).text)
    #expect(record.black == .init(name: "Computer", level: "perfect"))
    #expect(record.white == .init(name: "carol"))
    #expect(record.resultProblem == nil)
    #expect(record.result != .won(.o, .line), "the perfect computer lost")
  }

  @Test func recordsOffInTheSettingsWritesNone() throws {
    let home = try Binary.sandbox()
    let config = try #require(home.environment["XDG_CONFIG_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "records = off\n".write(toFile: config + "/settings.conf", atomically: true, encoding: .utf8)
    let result = try Binary.run(
      ["play", "--ui", "plain", "--hotseat"], input: Self.hotSeatWin, environment: home.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Self.records(home.environment).isEmpty)
  }

  @Test func anUnwritableRecordsDirectoryIsReportedOnceAndTheGameEndsNormally() throws {
    let home = try Binary.sandbox()
    let data = try #require(home.environment["XDG_DATA_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: data + "/games", contents: Data()))
    let result = try Binary.run(
      ["play", "--ui", "plain", "--hotseat"], input: Self.hotSeatWin, environment: home.environment)
    #expect(result.status == 0)
    #expect(result.stdout.hasSuffix("result: X wins\n"))
    let lines = result.stderr.split(separator: "\n")
    #expect(
      lines.count == 1 && lines[0].hasPrefix("tictactoe: The game record could not be saved ("), "\(result.stderr)")
  }

  @Test func bothSidesOfANetworkGameKeepTheSameRecordWithBothKeys() throws {
    var alice = try Binary.sandbox()
    alice.environment["USER"] = "alice"
    var bob = try Binary.sandbox()
    bob.environment["USER"] = "bob"
    let host = try Player(["host", "--port", "0", "--ui", "plain", "--accept-new"], environment: alice.environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob.environment)
    #expect(host.waitFor("game 1:") && joiner.waitFor("game 1:"), "\(host.output)\(joiner.errors)")
    Player.playOut(host, joiner)
    // The signatures cross after the last move: quitting before they arrive leaves a record the other side never
    // signed, so wait (bounded) for both on both sides.
    let deadline = Date().addingTimeInterval(20)
    func signedTwice(_ environment: [String: String]) -> Bool {
      let texts = (try? Self.records(environment).map(\.text)) ?? []
      return texts.count == 1 && texts[0].contains("TTSB[") && texts[0].contains("TTSW[")
    }
    while !(signedTwice(alice.environment) && signedTwice(bob.environment)) && Date() < deadline { usleep(20_000) }
    host.send("quit")
    #expect(host.exitStatus() == 0)
    #expect(joiner.exitStatus() == 30)
    let hostFiles = try Self.records(alice.environment)
    let joinerFiles = try Self.records(bob.environment)
    #expect(hostFiles.count == 1 && joinerFiles.count == 1)
    let text = try #require(hostFiles.first).text
    #expect(text == joinerFiles.first?.text, "the two records differ")
    let record = try GameRecord.parse(text)
    #expect(Set([record.black.name, record.white.name]) == ["alice", "bob"])
    #expect(
      record.black.publicKey != nil && record.white.publicKey != nil && record.black.publicKey != record.white.publicKey
    )
    #expect(record.resultProblem == nil)
    #expect(record.result.winner != nil || record.result == .drawn(.full))
    // Each key is the player's own: its SHA-256, by the openssl command line, is the fingerprint it shows.
    for (player, home) in [
      (record.player(.x), record.black.name == "alice" ? alice : bob),
      (record.player(.o), record.white.name == "alice" ? alice : bob),
    ] {
      let key = try #require(player.publicKey)
      let der = try #require(Data(base64Encoded: key))
      let file = TestDirectory.path("key")
      try der.write(to: URL(fileURLWithPath: file))
      let digest = try Tool.run("sh", ["-c", "openssl dgst -sha256 -binary '\(file)' | openssl base64 -A"])
      let shown = try Binary.run(["identity"], environment: home.environment).stdout
      #expect(shown.hasPrefix("SHA256:" + digest.replacingOccurrences(of: "=", with: "")), "\(shown) \(digest)")
    }
  }
}
