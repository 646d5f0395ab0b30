import Foundation
import GameRecords
import Security
import Testing
import WireProtocol

/// `tictactoe host --bot`: the real binary serving several real joiners at once over loopback, its trust rules,
/// its log, its DNS-SD advertisement and its clean stop on SIGTERM.
@Suite(.serialized) struct BotHostTests {
  /// A private home; `discovery: false` points D-Bus nowhere, as on a machine without avahi-daemon.
  private func home(_ name: String, discovery: Bool = true) throws -> (root: String, environment: [String: String]) {
    var (root, environment) = try Binary.sandbox()
    environment["USER"] = name
    if !discovery { environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus" }
    return (root, environment)
  }

  private func bot(_ environment: [String: String], _ extra: [String] = []) throws -> (Player, Int) {
    let bot = try Player(
      ["host", "--bot", "perfect", "--port", "0", "--bind", "127.0.0.1", "--name", "robo"] + extra,
      environment: environment)
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")
    return (bot, port)
  }

  private func join(_ name: String, port: Int) throws -> Player {
    try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--name", name],
      environment: try home(name, discovery: false).environment)
  }

  private func logLines(_ root: String) -> [String] {
    let text = (try? String(contentsOfFile: root + "/state/tictactoe/tictactoe.log", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  /// Plays `games` games on every joiner at the same time: each "your move" prompt is answered with the next
  /// cell (1, 2, … 9, wrapping; taken cells are refused and asked again), and a rematch is offered after each
  /// game but the last. Returns when every joiner has seen `games` results, or after 60 s.
  private func playAtOnce(_ joiners: [Player], games: Int) {
    var answered = Array(repeating: 0, count: joiners.count)
    var next = Array(repeating: 1, count: joiners.count)
    var rematches = Array(repeating: 0, count: joiners.count)
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline && joiners.contains(where: { $0.count("result: ") < games }) {
      for (index, joiner) in joiners.enumerated() {
        let prompts = joiner.count("your move (")
        if prompts > answered[index] {
          answered[index] = prompts
          joiner.send("\(next[index])")
          next[index] = next[index] % 9 + 1
        }
        let results = joiner.count("result: ")
        if results < games && results > rematches[index] {
          rematches[index] += 1
          joiner.send("rematch")
        }
      }
      usleep(10_000)
    }
  }

  @Test func severalJoinersPlayAtOnceThePerfectBotNeverLosesEachGameIsLoggedAndSIGTERMSaysGoodbye() throws {
    let (root, environment) = try home("botrunner", discovery: false)
    let (bot, port) = try bot(environment, ["--accept-new"])
    #expect(bot.output.contains("Practice bot (perfect) serving 3×3, 3 in a row as robo on port \(port)"))
    #expect(bot.waitFor("Players can still join by address."), "\(bot.output)")
    #expect(bot.output.contains("Key: SHA256:"))
    let names = (1...5).map { "joiner\($0)" }
    let joiners = try names.map { try join($0, port: port) }
    for joiner in joiners { #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)") }
    playAtOnce(joiners, games: 2)
    for joiner in joiners {
      #expect(joiner.count("result: ") == 2, "\(joiner.output)\(joiner.errors)")
      // The joiner's tally after each game: it never won.
      #expect(joiner.count("match: you 0, robo ") == 2, "\(joiner.output)")
      joiner.send("quit")
    }
    for joiner in joiners { #expect(joiner.exitStatus() == 0, "\(joiner.errors)") }
    // A joiner still in a game when the bot is stopped is told so.
    let late = try join("latecomer", port: port)
    #expect(late.waitFor("game 1:"), "\(late.output)\(late.errors)")
    bot.signal(SIGTERM)
    #expect(bot.exitStatus() == 0, "\(bot.errors)")
    #expect(
      bot.output.contains("Stopped: said goodbye to 1 player; 10 games played to the end, 6 players let in."),
      "\(bot.output)")
    #expect(late.exitStatus() == 30)
    #expect(late.errors.contains("Your opponent left: robo is shutting down"), "\(late.errors)")

    let games = logLines(root).filter { $0.contains("bot game: ") }
    #expect(games.count == 11, "\(games)")
    for name in names {
      let mine = games.filter { $0.contains("peer=\"\(name)\" key=SHA256:") }
      #expect(mine.count == 2, "\(name): \(games)")
      #expect(mine.contains { $0.contains(" game=1 ") } && mine.contains { $0.contains(" game=2 ") })
      for line in mine {
        #expect(line.contains("result=bot-won") || line.contains("result=draw"), "\(line)")
        let moves = line.split(separator: " ").first { $0.hasPrefix("moves=") }.flatMap { Int($0.dropFirst(6)) }
        #expect((5...9).contains(moves ?? 0), "\(line)")
        #expect(line.contains("address=127.0.0.1:") && line.contains("duration="))
      }
    }
    #expect(games.contains { $0.contains("peer=\"latecomer\"") && $0.contains("result=unfinished") })
    // Every joiner was remembered (--accept-new), so a changed key would now be caught.
    let known = try String(contentsOfFile: root + "/data/tictactoe/known_peers", encoding: .utf8)
    for name in names { #expect(known.contains(name)) }
    // Every finished game is also in the day's SGF collection (the latecomer's, cut short by the stop, is not).
    let folder = root + "/data/tictactoe/games"
    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(files.count == 1 && files.allSatisfy { $0.hasPrefix("bot-") && $0.hasSuffix(".sgf") }, "\(files)")
    let records = try GameRecord.parseCollection(
      String(contentsOfFile: folder + "/" + (files.first ?? ""), encoding: .utf8))
    #expect(records.count == 10)
    for record in records {
      let (bot, peer) = record.black.name == "robo" ? (record.black, record.white) : (record.white, record.black)
      #expect(bot.name == "robo" && bot.level == "perfect" && bot.publicKey != nil)
      #expect(names.contains(peer.name) && peer.publicKey != nil && peer.level == nil)
      #expect(record.resultProblem == nil && record.result != .unknown)
      #expect(record.date == files.first?.dropFirst(4).prefix(10).description)
      // The bot signed its record (and sent the signature to its joiner); the joiner's answer is not waited for.
      let signature = try #require(bot.signature.flatMap { Data(base64Encoded: $0) })
      #expect(RecordSignature.verify(Array(signature), of: record.signedBytes, publicKeyBase64: bot.publicKey ?? ""))
      #expect(peer.signature == nil)
    }
    #expect(Set(records.map(\.white.name) + records.map(\.black.name)) == Set(names + ["robo"]))
  }

  /// Plays empty games as a hostile client does: once the first game began (after the coin toss), it resigns
  /// and offers a rematch at once, again and again (a rematch starts without a toss). Returns how many games
  /// began before the bot stopped starting them at once, and what it said then (a chat).
  private func loopResignAndRematch(_ client: HostileClient) throws -> (games: Int, told: String?) {
    guard client.next(where: { if case .coinCommit = $0 { true } else { false } }) != nil else { return (0, nil) }
    try client.send(.coinShare(bytes: [UInt8](repeating: 5, count: Message.coinBytes)))
    guard client.next(where: { if case .coinReveal = $0 { true } else { false } }) != nil else { return (0, nil) }
    var games = 1
    while games < 200 {
      try client.send(.resign)
      try client.send(.rematchOffer)
      // The bot offers the next game as one ends, when the limits allow it (the client's offer crosses it),
      // else it waits for the client's offer and answers it with the wait.
      let answer = client.next(where: {
        switch $0 {
        case .rematchOffer, .rematchAccept, .chat: true
        default: false
        }
      })
      guard let answer else { return (games, nil) }
      if case .chat(let text) = answer { return (games, text) }
      games += 1
    }
    return (games, nil)
  }

  /// In plain mode through a pipe, a line that comes while the move question waits on its line (the bot's answer
  /// to a chat) starts a line of its own: a script reading lines sees it whole, and the question follows it.
  @Test func aLineThatComesWhileTheMoveQuestionWaitsStartsALineOfItsOwn() throws {
    let (_, environment) = try home("botrunner", discovery: false)
    let (bot, port) = try bot(environment, ["--accept-new"])
    defer { bot.signal(SIGTERM) }
    let joiner = try join("pal", port: port)
    #expect(joiner.waitFor("your move ("), "\(joiner.output)\(joiner.errors)")
    joiner.send("say hi")
    #expect(joiner.waitFor("\nrobo says: robo is a practice bot"), "\(joiner.output)")
    #expect(joiner.waitFor("Good game!\nyour move ("), "\(joiner.output)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0, "\(joiner.errors)")
  }

  /// A player who plays one game a connection and goes without taking the bot's offer of the next counts one game
  /// under the limits, not two: the game the offer took is given back as the bot closes the connection (without
  /// that, the 16th of these connections was refused as busy).
  @Test func oneGameAConnectionCountsOneGameNotTheOfferToo() throws {
    let (root, environment) = try home("botrunner", discovery: false)
    let (bot, port) = try bot(environment, ["--accept-new"])
    defer { bot.signal(SIGTERM) }
    let identity = try Identity.generate(commonName: "una")
    let burst = 30  // SourceLimits.Numbers.gameBurst
    for number in 1...burst {
      // From 127.0.0.3: the limits exempt only 127.0.0.1 and ::1.
      let client = try HostileClient(port: UInt16(port), identity: identity, source: 0x7F00_0003)
      try client.send(.hello(versions: ProtocolVersion.supported.sorted(), name: "una", software: "test"))
      let first = client.next(where: {
        if case .coinCommit = $0 { true } else if case .refuse = $0 { true } else { false }
      })
      guard case .coinCommit = first else {
        Issue.record("connection \(number) got no game: \(String(describing: first))")
        return
      }
      try client.send(.coinShare(bytes: [UInt8](repeating: 7, count: Message.coinBytes)))
      #expect(client.next(where: { if case .coinReveal = $0 { true } else { false } }) != nil)
      try client.send(.resign)
      // The game's end: its record's signature (the bot's offer follows it while the limits allow one more game).
      let signed = client.next(where: { if case .recordSignature = $0 { true } else { false } })
      #expect(signed != nil, "connection \(number): \(client.received.map(\.name))")
      if number < burst / 2 { #expect(client.next(where: { $0 == .rematchOffer }) != nil) }
      try client.send(.bye(.quit, text: "one is enough"))
      // The bot gives the game back as it closes the connection, just after it logs the end.
      let ended = waitUntil {
        self.logLines(root).filter { $0.contains("127.0.0.3:") && $0.contains("session ended") }.count >= number
      }
      #expect(ended, "\(logLines(root).suffix(5))")
    }
  }

  @Test func aClientLoopingResignAndRematchGetsItsBurstAndReconnectingDoesNotResetIt() throws {
    let (root, environment) = try home("botrunner", discovery: false)
    let (bot, port) = try bot(environment, ["--accept-new"])
    defer { bot.signal(SIGTERM) }
    let identity = try Identity.generate(commonName: "mallory")
    // From 127.0.0.2: the limits exempt only 127.0.0.1 and ::1.
    let first = try HostileClient(port: UInt16(port), identity: identity, source: 0x7F00_0002)
    try first.send(.hello(versions: ProtocolVersion.supported.sorted(), name: "mallory", software: "test"))
    let (games, told) = try loopResignAndRematch(first)
    let burst = 30  // SourceLimits.Numbers.gameBurst
    #expect(games >= burst && games <= burst + 1, "\(games) games; \(first.received.map(\.name))")
    #expect(told?.contains("too many games in a short time") == true, "\(told ?? "no chat")")
    // Again at once, from another port: no game, told why (busy).
    let again = try HostileClient(port: UInt16(port), identity: identity, source: 0x7F00_0002)
    try again.send(.hello(versions: ProtocolVersion.supported.sorted(), name: "mallory", software: "test"))
    let refusal = again.next(where: { if case .refuse = $0 { true } else if case .welcome = $0 { true } else { false } }
    )
    guard case .refuse(.busy, let text) = refusal else {
      Issue.record("not refused: \(String(describing: refusal))")
      return
    }
    #expect(text.contains("too many games"))
    // The bot writes the refusal to its log as it sends it: read once the line is there (bounded).
    let logged = {
      self.logLines(root).contains { $0.contains("refused mallory at 127.0.0.2:") && $0.contains("too many games") }
    }
    let deadline = Date().addingTimeInterval(10)
    while !logged() && Date() < deadline { usleep(50_000) }
    #expect(logged(), "\(logLines(root))")
  }

  @Test func theDenyListInTheSettingsClosesThoseAddressesBeforeTLSAndOnlyThose() throws {
    let (root, environment) = try home("botrunner", discovery: false)
    try FileManager.default.createDirectory(atPath: root + "/config/tictactoe", withIntermediateDirectories: true)
    let settings = root + "/config/tictactoe/settings.conf"
    try "deny = 192.0.2.0/24, 127.0.0.0/8\n".write(toFile: settings, atomically: true, encoding: .utf8)
    let (denying, port) = try bot(environment, ["--accept-new"])
    let refused = try join("pal", port: port)
    #expect(refused.exitStatus() != 0)
    #expect(!refused.output.contains("game 1:"))
    denying.signal(SIGTERM)
    #expect(denying.exitStatus() == 0)
    #expect(
      logLines(root).contains { $0.contains("refused a connection from 127.0.0.1:") && $0.contains("deny list") },
      "\(logLines(root))")
    // Another list: loopback is served again.
    try "deny = 192.0.2.0/24, 2001:db8::/32\n".write(toFile: settings, atomically: true, encoding: .utf8)
    let (serving, again) = try bot(environment, ["--accept-new"])
    let pal = try join("pal", port: again)
    #expect(pal.waitFor("game 1:"), "\(pal.output)\(pal.errors)")
    pal.send("quit")
    #expect(pal.exitStatus() == 0)
    serving.signal(SIGTERM)
    #expect(serving.exitStatus() == 0)
  }

  @Test func withoutAcceptNewOnlyKnownJoinersPlayAndANewOneIsToldHowToGetIn() throws {
    let (root, environment) = try home("botrunner", discovery: false)
    // The bot meets "pal" once with --accept-new, which remembers it.
    let (first, firstPort) = try bot(environment, ["--accept-new"])
    let pal = try home("pal", discovery: false).environment
    let meeting = try Player(
      ["join", "127.0.0.1:\(firstPort)", "--ui", "plain", "--accept-new", "--name", "pal"], environment: pal)
    #expect(meeting.waitFor("game 1:"), "\(meeting.output)\(meeting.errors)")
    meeting.send("quit")
    #expect(meeting.exitStatus() == 0)
    first.signal(SIGTERM)
    #expect(first.exitStatus() == 0)

    let (bot, port) = try bot(environment)
    #expect(bot.output.contains("Only players already known are let in"), "\(bot.output)")
    let again = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--name", "pal"], environment: pal)
    #expect(again.waitFor("game 1:"), "\(again.output)\(again.errors)")
    let stranger = try join("stranger", port: port)
    #expect(stranger.exitStatus() == 27)
    #expect(
      stranger.errors.contains("The host does not trust your key: robo is a practice bot"), "\(stranger.errors)")
    #expect(stranger.errors.contains("--accept-new"))
    again.send("quit")
    #expect(again.exitStatus() == 0)
    // Still serving after the refusal: pal gets a new game.
    let third = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--name", "pal"], environment: pal)
    #expect(third.waitFor("game 1:"), "the bot stopped serving: \(third.output)\(third.errors)\(bot.errors)")
    third.send("quit")
    #expect(third.exitStatus() == 0)
    bot.signal(SIGINT)
    #expect(bot.exitStatus() == 0)
    #expect(logLines(root).contains { $0.contains("refused stranger at 127.0.0.1:") })
  }

  @Test func theBotIsListedOnTheLANAsAPracticeBotThatIsAlwaysWaiting() throws {
    let name = "robo-\(UUID().uuidString.prefix(6).lowercased())"
    let (_, environment) = try home("botrunner")
    let bot = try Player(
      ["host", "--bot", "perfect", "--port", "0", "--bind", "127.0.0.1", "--name", name, "--accept-new"],
      environment: environment)
    defer { bot.signal(SIGTERM) }
    let port = try #require(bot.announcedPort(), "\(bot.errors)")
    #expect(bot.waitFor("Announced on the local network as \(name)."), "\(bot.output)")
    let viewer = try home("viewer").environment
    let listed = try Binary.list(["--json"], environment: viewer) { Binary.shows(name, on: Int(port), in: $0) }
    let games = Binary.games(listed)
    let game = try #require(games.first { $0["name"] as? String == name }, "\(listed.stdout)")
    #expect(game["bot"] as? String == "perfect")
    #expect(game["state"] as? String == "waiting")
    #expect(game["port"] as? Int == port)
    // Anyone may watch its games (PROTOCOL.md rule 27): the advert says so, with how many watch.
    #expect(game["watchable"] as? Bool == true && game["watchers"] as? Int == 0, "\(listed.stdout)")
    let text = try Binary.list([], environment: viewer) { result in
      result.stdout.split(separator: "\n").contains { $0.hasPrefix(name + "\t") && $0.contains("practice bot") }
    }
    let line = text.stdout.split(separator: "\n").first { $0.hasPrefix(name + "\t") }
    #expect(line?.contains("waiting, practice bot (perfect), watchable (0 watching)") == true, "\(text.stdout)")
  }

  @Test func aFloodOfSilentConnectionsDoesNotKeepARealJoinerOut() throws {
    let (root, environment) = try home("botrunner", discovery: false)
    let (bot, port) = try bot(environment, ["--accept-new"])
    defer { bot.signal(SIGTERM) }
    // More connections that never start TLS than the bot lets set up at once (256).
    var silent: [Int32] = []
    defer { for fd in silent { close(fd) } }
    for _ in 0..<300 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = Loopback.address(port: UInt16(port))
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else {
        close(fd)
        break
      }
      silent.append(fd)
    }
    #expect(silent.count == 300)
    let joiner = try join("patient", port: port)
    #expect(joiner.waitFor("game 1:", timeout: 30), "\(joiner.output)\(joiner.errors)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    #expect(
      logLines(root).contains {
        $0.contains("connections are setting up TLS or have not said hello: dropping the oldest")
      })
  }

  /// A first-time joiner whose player takes longer than the bot's 10 s for a hello at the question about the
  /// bot's key (reading it aloud) is not dropped: its program says the player is deciding (PROTOCOL.md rule 13),
  /// neither side declares the other vanished, and it plays once the player says yes (issue 25, item 2).
  @Test func aJoinerWhosePlayerTakesLongerThanTenSecondsAtTheTrustQuestionStillPlays() throws {
    let (root, environment) = try home("botrunner", discovery: false)
    let (bot, port) = try bot(environment, ["--accept-new"])
    defer { bot.signal(SIGTERM) }
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--name", "slow"],
      environment: try home("slow", discovery: false).environment)
    #expect(joiner.waitFor("[y/n or paste the fingerprint]: "), "\(joiner.output)\(joiner.errors)")
    // The player reads the key aloud for longer than the bot's 10 s and the silence limit: whatever would
    // end the connection meanwhile shows by then (the wait ends early if the joiner exits).
    let gone = joiner.waitFor("vanished", timeout: 14, in: \.errors)
    #expect(!gone && !joiner.errors.contains("goodbye"), "\(joiner.output)\(joiner.errors)")
    joiner.send("y")
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    joiner.playOutAlone()
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    #expect(logLines(root).contains { $0.contains("its player is deciding") }, "\(logLines(root).suffix(5))")
    #expect(!logLines(root).contains { $0.contains("no hello within") })
  }

  /// A connection that finishes TLS and then only sends heartbeats (so it is never silent) is closed once the
  /// time to say hello is over, as sshd's LoginGraceTime; a real joiner plays meanwhile and afterwards.
  @Test func aConnectionThatNeverSaysHelloIsClosedAndAJoinerStillPlays() throws {
    let (root, environment) = try home("botrunner", discovery: false)
    let (bot, port) = try bot(environment, ["--accept-new"])
    defer { bot.signal(SIGTERM) }
    let lurker = try HostileClient(port: UInt16(port))
    var ended = HostileClient.End.stillOpen
    for _ in 0..<15 where ended == .stillOpen {
      try? lurker.send(.heartbeat)
      ended = lurker.waitForEnd(timeout: 1)
    }
    #expect(ended != .stillOpen, "the bot kept a connection that never said hello")
    // The round's log lines are written before the loop waits again: a moment after the close, at most.
    #expect(
      waitUntil(timeout: 2) { logLines(root).contains { $0.contains("no hello within 10 s") } }, "\(logLines(root))")
    let joiner = try join("honest", port: port)
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
  }
}
