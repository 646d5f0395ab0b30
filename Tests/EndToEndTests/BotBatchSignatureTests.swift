import Foundation
import Glibc
import PlayerFiles
import TestSupport
import Testing

/// The bot signs the records of the games that end in one turn of its loop with one signature (a batch,
/// docs/RECORDS.md "Batch signatures"): the joiners resign while the bot is stopped, so their resignations come
/// in one turn. Each joiner's record carries the bot's batch signature, a different place in one tree, and each
/// verifies, as the joiner checked it when it came and as `tictactoe verify` checks it in the file. Four make a
/// quiet turn, signed as it ends; nine a busy one (`BotHolding.busyTurn`), whose batch waits for the turns that
/// follow, at most `BotHolding.window`, and is signed then though nothing more comes.
@Suite(.serialized) struct BotBatchSignatureTests {
  @Test(arguments: [4, 9])
  func gamesThatEndInOneTurnShareOneSignatureAndEveryRecordVerifies(joiners: Int) throws {
    var botHome = try Binary.sandbox().environment
    botHome["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let bot = try Player(
      ["host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new"],
      environment: botHome)
    defer {
      bot.signal(SIGCONT)
      bot.signal(SIGTERM)
      _ = bot.exitStatus()
    }
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")
    let homes = try (0..<joiners).map { _ in try Binary.sandbox().environment }
    let players = try homes.map {
      try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: $0)
    }
    for player in players { #expect(player.waitFor("game 1:"), "\(player.output)\(player.errors)") }
    bot.signal(SIGSTOP)
    // What each connection held unread before the resignations: a heartbeat may be waiting there already.
    let before = Self.unreadBytes(port: port)
    for player in players { player.send("resign") }
    // A joiner's game ends as it sends its resignation, and plain mode says so: then it waits in the stopped
    // bot's socket (a moment more for the last write).
    for player in players { #expect(player.waitFor("resigned)"), "\(player.output)\(player.errors)") }
    // Every resignation in the stopped bot's sockets before it goes on (a joiner slow to write, on a loaded
    // machine, would make a turn of its own: seen in CI, two batches of two). Each connection's unread bytes
    // must grow: bytes there already (a heartbeat) said nothing of the resignation (seen here once, on a
    // machine running two test suites).
    let resigned = { Self.unreadBytes(port: port).filter { $0.value > before[$0.key, default: 0] }.count }
    let deadline = Date().addingTimeInterval(20)
    while resigned() < joiners && Date() < deadline { usleep(20_000) }
    #expect(resigned() >= joiners, "the resignations did not all reach the bot: \(Self.unreadBytes(port: port))")
    usleep(100_000)
    bot.signal(SIGCONT)
    var texts: [String] = []
    for home in homes {
      let deadline = Date().addingTimeInterval(20)
      var text = ""
      while !(text.contains("TTSB[") && text.contains("TTSW[")) && Date() < deadline {
        text = (try? RecordsEndToEndTests.records(home).first?.text) ?? ""
        usleep(20_000)
      }
      texts.append(text)
    }
    for player in players {
      player.send("quit")
      _ = player.exitStatus()
      #expect(!player.output.contains("does not verify"), "\(player.output)")
    }
    var places: Set<Int> = []
    for (index, text) in texts.enumerated() {
      let folder = try TestDirectory.make("bot-batch")
      try text.write(toFile: folder + "/game.sgf", atomically: true, encoding: .utf8)
      let verified = try Binary.run(["verify", folder + "/game.sgf"], environment: homes[index])
      #expect(verified.status == 0 && verified.stdout.hasSuffix("verified\n"), "\(verified.stdout)\(text)")
      // The bot's signature is the batch form: 0x01, the tree's depth, its place. Under a loaded machine a
      // resignation may still come a turn late and be signed in a batch of its own (seen once in CI): every
      // record must verify, and most must share one batch.
      let signatures = ["TTSB", "TTSW"].compactMap { SignedRecordTests.property($0, text) }
        .compactMap { Data(base64Encoded: $0).map(Array.init) }
      let batch = signatures.filter { $0.first == 1 }
      #expect(batch.count <= 1, "record \(index): \(signatures.map { $0.prefix(4) })")
      if let form = batch.first { places.insert(Int(form[2]) << 8 | Int(form[3])) }
    }
    #expect(places.count * 2 > joiners, "the games' places in batches: \(places)")
  }

  /// The bytes not read yet on each established TCP connection whose local port is `port` (the bot's side), by
  /// its remote address, from /proc/net/tcp: a line's addresses are `ADDRESS:PORT` in hex, its state `01` when
  /// established, and its queues `TX:RX` in hex.
  static func unreadBytes(port: Int) -> [Substring: Int] {
    // Read to its end (`FileSystem.contents`): `String(contentsOfFile:)` stops after the first 4 KiB of a /proc
    // table (seen in CI, where the bot's connections were further down among other tests' sockets).
    guard let bytes = FileSystem.contents("/proc/net/tcp") else { return [:] }
    var unread: [Substring: Int] = [:]
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
      let fields = line.split(separator: " ")
      guard fields.count > 4, fields[3] == "01", let local = fields[1].split(separator: ":").last,
        Int(local, radix: 16) == port, let queue = fields[4].split(separator: ":").last
      else { continue }
      unread[fields[2]] = Int(queue, radix: 16) ?? 0
    }
    return unread
  }
}
