import Foundation
import Security
import TestSupport
import Testing
import WireProtocol

/// Three practice bots behind Debian's HAProxy 2.6 in TCP mode (TLS passed through, `send-proxy-v2`, source
/// affinity, health checks), sharing one identity: many joiners from many loopback addresses finish their games,
/// the bots judge and log the joiners' addresses and not the proxy's, a joiner over its address's limit is
/// refused while others are not, the health checks are neither logged nor counted, and when a bot is killed its
/// game in progress ends and new joiners are served by the others. docs/DEPLOY.md has the configuration and
/// the figures. Joiners: `TICTACTOE_HAPROXY_JOINERS` (default 300, as the issue asks).
@Suite(.serialized) struct HAProxyBotsTests {
  static let haproxy = "/usr/sbin/haproxy"
  /// The address HAProxy connects to the bots from, and the only one they trust to send a PROXY header.
  static let proxyAddress = "127.0.0.2"

  /// The joiners' source addresses: 127.1.0.1 and on, none of them limits-exempt.
  static func source(_ index: Int) -> UInt32 { 0x7F01_0000 | UInt32(index / 250) << 8 | UInt32(index % 250 + 1) }

  struct Bots {
    var homes: [(root: String, environment: [String: String])] = []
    var players: [Player] = []
    var ports: [Int] = []

    func log(_ index: Int) -> String {
      (try? String(contentsOfFile: homes[index].root + "/state/tictactoe/tictactoe.log", encoding: .utf8)) ?? ""
    }
    var logs: [String] { homes.indices.map(log) }
  }

  /// Three bots on 127.0.0.1, each importing `identity`, trusting the proxy's address for its header, and
  /// allowing two connections at once per address.
  private func startBots(identity: Identity, files: String) throws -> Bots {
    let certificate = files + "/bot.crt"
    let key = files + "/bot.key"
    try identity.certificatePEM.write(toFile: certificate, atomically: true, encoding: .utf8)
    try identity.privateKeyPEM.write(toFile: key, atomically: true, encoding: .utf8)
    var bots = Bots()
    for _ in 0..<3 {
      var home = try Binary.sandbox()
      home.environment["USER"] = "practice"
      home.environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
      try FileManager.default.createDirectory(
        atPath: home.root + "/config/tictactoe", withIntermediateDirectories: true)
      try "proxy_from = \(Self.proxyAddress)\nconnections_per_address = 2\n".write(
        toFile: home.root + "/config/tictactoe/settings.conf", atomically: true, encoding: .utf8)
      let imported = try Binary.run(["identity", "import", certificate, key, "--yes"], environment: home.environment)
      try #require(imported.status == 0, "identity import: \(imported.stderr)")
      let bot = try Player(
        ["host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "practice", "--accept-new"],
        environment: home.environment)
      let port = try #require(bot.announcedPort(), "a bot did not start: \(bot.errors)")
      bots.homes.append(home)
      bots.players.append(bot)
      bots.ports.append(port)
    }
    return bots
  }

  /// HAProxy's configuration: TCP mode, the header to every bot, source affinity, a check every 500 ms.
  static func configuration(front: Int, bots: [Int]) -> String {
    """
    global
      maxconn 4096
    defaults
      mode tcp
      timeout connect 250ms
      timeout client 60s
      timeout server 60s
      retries 2
      option redispatch
    frontend practice
      bind 127.0.0.1:\(front)
      default_backend bots
    backend bots
      balance source
      hash-type consistent
      source \(proxyAddress)
      default-server send-proxy-v2 check inter 500ms fall 1 rise 2
    \(bots.enumerated().map { "  server bot\($0.offset + 1) 127.0.0.1:\($0.element)" }.joined(separator: "\n"))

    """
  }

  /// A free port on 127.0.0.1 for HAProxy's frontend (HAProxy cannot report one it picked).
  private func freePort() throws -> Int {
    let (fd, port) = Loopback.listen(backlog: 1)
    close(fd)
    return Int(port)
  }

  @Test func threeBotsBehindHAProxyServeManyJoinersByTheirOwnAddressesAndFailOver() throws {
    try Requirement.require(FileManager.default.isExecutableFile(atPath: Self.haproxy), "haproxy (scripts/setup.sh)")
    let files = try Binary.sandbox().root
    let shared = try Identity.generate(commonName: "practice")
    let bots = try startBots(identity: shared, files: files)
    defer { for bot in bots.players { bot.signal(SIGKILL) } }
    let front = try freePort()
    try Self.configuration(front: front, bots: bots.ports).write(
      toFile: files + "/haproxy.cfg", atomically: true, encoding: .utf8)
    let proxy = try ChildProcess(
      Self.haproxy, ["-db", "-f", files + "/haproxy.cfg"], output: .file(files + "/haproxy.out"), errors: .withOutput)
    defer { proxy.stop(grace: 2) }
    let ready = Date().addingTimeInterval(10)
    while (try? HostileClient(port: UInt16(front), name: "probe", timeout: 1, source: Self.source(1000))) == nil {
      try #require(
        Date() < ready,
        "HAProxy did not serve: \((try? String(contentsOfFile: files + "/haproxy.out", encoding: .utf8)) ?? "")")
      usleep(100_000)
    }

    let count = ProcessInfo.processInfo.environment["TICTACTOE_HAPROXY_JOINERS"].flatMap(Int.init) ?? 300
    let started = Date()
    let crowd = try JoinerCrowd(count: count, port: front, key: shared.fingerprint.description)
    let seconds = Date().timeIntervalSince(started)
    #expect(crowd.failures.isEmpty, "\(crowd.failures.count) of \(count) joiners failed: \(crowd.failures.prefix(5))")
    print("HAProxyBotsTests: \(count) joiners through HAProxy to 3 bots in \(String(format: "%.1f", seconds)) s")
    // Every game is in a bot's log under the joiner's own address; the proxy's address is in none (its health
    // checks neither logged nor counted), and more than one bot served.
    let deadline = Date().addingTimeInterval(10)
    var games: [Int] = []
    repeat {
      games = bots.logs.map { $0.components(separatedBy: "bot game: ").count - 1 }
      if games.reduce(0, +) >= count { break }
      usleep(100_000)
    } while Date() < deadline
    #expect(games.reduce(0, +) == count, "games logged per bot: \(games)")
    #expect(games.filter { $0 > 0 }.count >= 2, "games per bot: \(games)")
    for index in [0, count / 2, count - 1] {
      let address = "address=\(Self.dotted(Self.source(index))):"
      #expect(bots.logs.contains { $0.contains(address) }, "no game logged from \(address)")
    }
    #expect(!bots.logs.joined().contains(Self.proxyAddress), "the proxy's address was logged")

    try limitsSeeTheJoinersAddresses(port: front, bots: bots)
    try aKilledBotsGameEndsAndTheOthersServe(port: front, bots: bots)
  }

  /// Two connections at once from 127.0.0.9 are allowed, a third is refused; 127.0.0.8 is served meanwhile.
  private func limitsSeeTheJoinersAddresses(port: Int, bots: Bots) throws {
    let nine: UInt32 = 0x7F00_0009
    let first = try HostileClient(port: UInt16(port), name: "nine-a", source: nine)
    let second = try HostileClient(port: UInt16(port), name: "nine-b", source: nine)
    #expect(throws: (any Error).self) {
      try HostileClient(port: UInt16(port), name: "nine-c", timeout: 3, source: nine)
    }
    _ = try HostileClient(port: UInt16(port), name: "eight", source: 0x7F00_0008)
    _ = (first, second)
    let refused = { bots.logs.contains { $0.contains("refused a connection from 127.0.0.9:") } }
    let deadline = Date().addingTimeInterval(5)
    while !refused() && Date() < deadline { usleep(50_000) }
    #expect(refused(), "\(bots.logs)")
  }

  /// A joiner in a game on one bot; that bot is killed: the joiner's connection ends, and new joiners from the
  /// same address (which the affinity sent to the dead bot) are served by the others within the checks' time.
  private func aKilledBotsGameEndsAndTheOthersServe(port: Int, bots: Bots) throws {
    let seven: UInt32 = 0x7F00_0007
    let keeper = try HostileClient(
      port: UInt16(port), identity: try Identity.generate(commonName: "keeper"), source: seven)
    try JoinerCrowd.begin(keeper, name: "keeper")
    let holder = try #require(bots.homes.indices.first { bots.log($0).contains("remembered new peer keeper") })
    bots.players[holder].signal(SIGKILL)
    let killed = Date()
    #expect(keeper.waitForEnd(timeout: 10) != .stillOpen, "the game on the killed bot did not end")
    var served: Date?
    while served == nil && Date().timeIntervalSince(killed) < 10 {
      if let client = try? HostileClient(port: UInt16(port), name: "after", timeout: 2, source: seven),
        (try? JoinerCrowd.begin(client, name: "after")) != nil
      {
        served = Date()
      } else {
        usleep(100_000)
      }
    }
    let after = try #require(served, "no joiner was served after a bot was killed")
    let wait = after.timeIntervalSince(killed)
    print("HAProxyBotsTests: a joiner was served \(String(format: "%.2f", wait)) s after its bot was killed")
    // Until the check marks the bot down, HAProxy tries it first and redispatches after its turn-around
    // (min(timeout connect, 1 s) = 0.25 s); then joiners from that address go straight to another bot.
    #expect(wait < 1.0, "served \(wait) s after the kill")
    var straight: Double?
    while straight == nil && Date().timeIntervalSince(killed) < 5 {
      let start = Date()
      let again = try HostileClient(port: UInt16(port), name: "again", timeout: 2, source: seven)
      try JoinerCrowd.begin(again, name: "again")
      if Date().timeIntervalSince(start) < 0.1 { straight = Date().timeIntervalSince(killed) }
    }
    let down = try #require(straight, "joiners were still sent to the killed bot 5 s later")
    print("HAProxyBotsTests: joiners went straight to the others from \(String(format: "%.2f", down)) s after the kill")
    #expect(down < 1.5, "the check (every 0.5 s, down after one failure) took \(down) s")
    let others = bots.homes.indices.filter { $0 != holder }
    #expect(others.contains { bots.log($0).contains("remembered new peer after") })
  }

  static func dotted(_ address: UInt32) -> String {
    [24, 16, 8, 0].map { String(address >> UInt32($0) & 0xFF) }.joined(separator: ".")
  }
}

/// Many joiners at once, each from its own address through the proxy: TLS (the bot's key checked), hello, the
/// coin toss, a resignation, and goodbye. 20 keys among them, so the bots' limits on new keys are not what is
/// tested here.
final class JoinerCrowd: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var failures: [String] = []

  init(count: Int, port: Int, key: String, workers: Int = 8) throws {
    let identities = try (0..<20).map { try Identity.generate(commonName: "joiner\($0)") }
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in stride(from: worker, to: count, by: workers) {
        do {
          let client = try HostileClient(
            port: UInt16(port), identity: identities[index % identities.count],
            source: HAProxyBotsTests.source(index))
          guard client.hostFingerprint == key else { throw HostileClient.Failure(description: "another key") }
          try JoinerCrowd.begin(client, name: "joiner\(index)")
          try client.send(.resign)
          try client.closeWrite()
          _ = client.waitForEnd(timeout: 10)
        } catch {
          lock.withLock { failures.append("joiner \(index): \(error)") }
        }
      }
    }
  }

  /// Hello and the coin toss: the game is on.
  static func begin(_ client: HostileClient, name: String) throws {
    try client.send(.hello(versions: ProtocolVersion.supported.sorted(), name: name, software: "test"))
    guard client.next(where: { if case .coinCommit = $0 { true } else { false } }) != nil else {
      throw HostileClient.Failure(description: "no coin toss: \(client.received.map(\.name))")
    }
    try client.send(.coinShare(bytes: [UInt8](repeating: 5, count: Message.coinBytes)))
    guard client.next(where: { if case .coinReveal = $0 { true } else { false } }) != nil else {
      throw HostileClient.Failure(description: "no coin reveal: \(client.received.map(\.name))")
    }
  }
}
