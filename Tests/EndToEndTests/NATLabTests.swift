import Foundation
import Security
import TestSupport
import Testing

/// Play across a home router: network namespaces with a host at home (10.203.0.2), a router that masquerades and
/// runs Debian's miniupnpd (10.203.0.1 inside, 198.51.101.1 outside), and a joiner on the "internet"
/// (198.51.101.2), made by scripts/nat-lab.sh. The outside range is blocked in this machine's own namespace
/// first, and nothing is sent to it from here. Needs root (scripts/test.sh runs as root; under CI a skip fails).
@Suite(.serialized) struct NATLabTests {
  static var canRun: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/miniupnpd") }

  /// One lab: its namespaces, and the router's log.
  final class Lab {
    let directory: String
    let env: [String: String]
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/nat-lab.sh").path

    init(_ mode: String) throws {
      directory = try TestDirectory.make("nat-lab")
      _ = try Tool.run("bash", [Self.script, "up", directory, mode])
      var values: [String: String] = [:]
      for line in try String(contentsOfFile: directory + "/lab.env", encoding: .utf8).split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { values[parts[0]] = parts[1] }
      }
      env = values
    }

    deinit { _ = try? Tool.run("bash", [Self.script, "down", directory]) }

    var routerLog: String { (try? String(contentsOfFile: directory + "/miniupnpd.log", encoding: .utf8)) ?? "" }
    var ruleset: String { (try? Tool.run("bash", [Self.script, "ruleset", directory])) ?? "" }
    var mappings: Int { ruleset.components(separatedBy: "dnat ip to").count - 1 }

    /// A `tictactoe` in namespace `namespace` (plain mode), with its own home.
    func player(in namespace: String, _ name: String, _ arguments: [String], plain: Bool = true) throws -> Player {
      var environment = try Binary.sandbox().environment
      environment["USER"] = name
      return try Player(
        ["netns", "exec", env[namespace]!, Binary.path] + arguments + (plain ? ["--ui", "plain"] : []),
        environment: environment, executable: "/usr/sbin/ip")
    }

    /// Whether a TCP connection from the internet side reaches the router's outside port.
    func reachableFromOutside(port: Int) -> Bool {
      let probe = "exec 3<>/dev/tcp/\(env["ROUTER_WAN_IP"]!)/\(port)"
      let result = try? ChildProcess.run(
        "/usr/sbin/ip", ["netns", "exec", env["INTERNET_NS"]!, "timeout", "3", "bash", "-c", probe], errors: .null)
      return result?.status == 0
    }
  }

  /// scripts/fake-gateway.py in the lab's router namespace (a lab made with "none": no miniupnpd), or at
  /// `address` in another namespace; its log of requests.
  final class FakeGateway {
    let process: ChildProcess
    let logPath: String
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/fake-gateway.py").path

    init(_ mode: String, lab: Lab, namespace: String = "ROUTER_NS", address: String = "10.203.0.1") throws {
      logPath = lab.directory + "/fake-\(mode)-\(namespace).log"
      process = try ChildProcess(
        "/usr/sbin/ip", ["netns", "exec", lab.env[namespace]!, "python3", Self.script, mode, address, logPath],
        output: .null, errors: .null)
      let deadline = Date().addingTimeInterval(10)
      while !log.contains("ready") && Date() < deadline { usleep(20_000) }
    }

    deinit {
      process.signal(SIGTERM)
      process.stop()
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
  }

  /// A host with --map-port against a fake gateway in `mode`, until it has said how the mapping went.
  private func hostAgainstFake(_ mode: String, lab: Lab, expecting words: String) throws -> (Player, FakeGateway) {
    let fake = try FakeGateway(mode, lab: lab)
    let host = try lab.player(in: "HOME_NS", "alice", ["host", "--port", "7177", "--map-port"])
    #expect(host.waitFor(words, timeout: 10), "\(host.output)\(host.errors)\nfake: \(fake.log)")
    return (host, fake)
  }

  @Test(.enabled(if: canRun)) func aSharedOrPrivateOutsideAddressIsNamedAndLeftOutOfTheInvite() throws {
    let lab = try Lab("none")
    let (shared, _) = try hostAgainstFake(
      "shared", lab: lab,
      expecting: "but the router's own outside address 100.64.1.2 is shared (carrier-grade NAT, 100.64.0.0/10):"
        + " players on the internet cannot reach this host. Play over IPv6, or ask your friend to host.")
    #expect(shared.count("Invite: ") == 1, "no invite with an address nobody outside can use: \(shared.output)")
    shared.signal(SIGTERM)
    #expect(shared.exitStatus() == 128 + SIGTERM)
    let (privately, _) = try hostAgainstFake(
      "private", lab: lab, expecting: "outside address 192.168.0.5 is private: it is behind another router")
    privately.signal(SIGTERM)
    #expect(privately.exitStatus() == 128 + SIGTERM)
  }

  @Test(.enabled(if: canRun)) func aRefusalIsGivenInTheRoutersWords() throws {
    let lab = try Lab("none")
    let (host, _) = try hostAgainstFake(
      "refuse", lab: lab,
      expecting: "Your router 10.203.0.1 did not open port 7177 (UPnP: AddPortMapping: 606 Action not authorized):"
        + " forward TCP port 7177 to 10.203.0.2")
    // Its description has no IPv6 firewall control: the host's IPv6 address may not be reachable, and it says so.
    #expect(
      host.waitFor(
        "Inbound IPv6 to [2001:db8:1::2]:7177 may be blocked: your router offers no IPv6 firewall control to open it."),
      "\(host.output)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
  }

  /// A router's words are untrusted text: its controls never reach the terminal, it cannot forge a line, and
  /// what it says is cut short.
  @Test(.enabled(if: canRun)) func aRoutersHostileWordsReachTheScreenOnlyAsPrintableText() throws {
    let lab = try Lab("none")
    let (host, fake) = try hostAgainstFake(
      "hostile", lab: lab, expecting: "Your router 10.203.0.1 did not open port 7177 (UPnP: AddPortMapping: 606 Action")
    #expect(host.waitFor("forward TCP port 7177 to 10.203.0.2"), "\(host.output)\nfake: \(fake.log)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
    let shown = Array(host.output.utf8) + Array(host.errors.utf8)
    for forbidden: UInt8 in [0x1B, 0x07, 0x0D] {
      #expect(!shown.contains(forbidden), "byte \(forbidden) reached the terminal:\n\(host.output)")
    }
    let text = host.output + host.errors
    #expect(!text.contains("\u{9B}"), "a C1 control reached the terminal")
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix("FAKE") }, "the router forged a line:\n\(text)")
    #expect(!text.contains(String(repeating: "A", count: 121)), "the router's words were not cut short")
  }

  @Test(.enabled(if: canRun)) func aTakenOutsidePortMovesToTheNextAndSaysWhich() throws {
    let lab = try Lab("none")
    let (host, fake) = try hostAgainstFake(
      "taken", lab: lab, expecting: "Port 7177 is mapped to outside port 7178 (7177 was taken) on your router")
    #expect(host.waitFor("Invite: tictactoe:") && host.count("/7178") == 1, "\(host.output)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
    #expect(fake.log.contains("SOAP DeletePortMapping port=7178"), "\(fake.log)")
  }

  /// A router that takes only permanent leases: mapped permanently and recorded; removed on the way out, and a
  /// crashed run's mapping is removed at the next start.
  @Test(.enabled(if: canRun)) func permanentLeasesAreRecordedAndRemovedEvenAfterACrash() throws {
    let lab = try Lab("none")
    let fake = try FakeGateway("permanent", lab: lab)
    var environment = try Binary.sandbox().environment
    environment["USER"] = "alice"
    let state = environment["XDG_STATE_HOME"]! + "/tictactoe/permanent-mapping"
    func host() throws -> Player {
      try Player(
        ["netns", "exec", lab.env["HOME_NS"]!, Binary.path, "host", "--port", "7177", "--map-port", "--ui", "plain"],
        environment: environment, executable: "/usr/sbin/ip")
    }
    let first = try host()
    #expect(first.waitFor("(UPnP, permanently, until you stop hosting)", timeout: 10), "\(first.output)\(fake.log)")
    #expect(fake.log.contains("SOAP AddPortMapping port=7177 lease=0"), "\(fake.log)")
    #expect(FileManager.default.fileExists(atPath: state))
    first.signal(SIGKILL)
    _ = first.exitStatus()
    #expect(!fake.log.contains("DeletePortMapping"))
    let second = try host()
    #expect(
      second.waitFor("Removed the permanent mapping of port 7177 a crashed run left.", timeout: 10), "\(second.output)")
    #expect(second.waitFor("(UPnP, permanently, until you stop hosting)", timeout: 10))
    second.signal(SIGTERM)
    #expect(second.exitStatus() == 128 + SIGTERM)
    #expect(fake.log.components(separatedBy: "SOAP DeletePortMapping port=7177").count - 1 == 2, "\(fake.log)")
    #expect(!FileManager.default.fileExists(atPath: state))
  }

  /// A lease is renewed at half of what the router granted (4 s here: the request for 1200 s is cut), and a
  /// router whose epoch went back (it rebooted and lost its mappings) is asked afresh.
  @Test(.enabled(if: canRun)) func leasesAreRenewedAndALostMappingIsMadeAgain() throws {
    let lab = try Lab("none")
    do {
      let (host, fake) = try hostAgainstFake(
        "pcp-short", lab: lab, expecting: "Port 7177 is mapped on your router 10.203.0.1 (PCP, renewed while you host)")
      let deadline = Date().addingTimeInterval(15)
      while fake.log.components(separatedBy: "pcp map lifetime=1200").count - 1 < 3 && Date() < deadline {
        usleep(50_000)
      }
      #expect(fake.log.components(separatedBy: "pcp map lifetime=1200").count - 1 >= 3, "renewed twice: \(fake.log)")
      #expect(!host.output.contains("lost the mapping"), "\(host.output)")
      host.signal(SIGTERM)
      #expect(host.exitStatus() == 128 + SIGTERM)
      #expect(fake.log.contains("pcp map lifetime=0"), "removed at the end: \(fake.log)")
    }  // that gateway stops here: the next one takes its port

    let (rebooted, _) = try hostAgainstFake(
      "pcp-reboot", lab: lab, expecting: "Port 7177 is mapped on your router 10.203.0.1 (PCP, renewed while you host)")
    #expect(
      rebooted.waitFor("Your router lost the mapping of port 7177; asking again…", timeout: 15), "\(rebooted.output)")
    rebooted.signal(SIGTERM)
    #expect(rebooted.exitStatus() == 128 + SIGTERM)
  }

  /// A description elsewhere, a huge one, or a router that never answers: named, bounded, and no request to any
  /// other host.
  @Test(.enabled(if: canRun)) func aHostileGatewayCostsAtMostItsDeadlineAndIsNeverFollowed() throws {
    let lab = try Lab("none")
    let bystander = try FakeGateway("silent", lab: lab, namespace: "INTERNET_NS", address: "198.51.101.2")
    let (elsewhere, _) = try hostAgainstFake(
      "elsewhere", lab: lab, expecting: "it points to a description on another host (198.51.101.2); not asked")
    elsewhere.signal(SIGTERM)
    #expect(elsewhere.exitStatus() == 128 + SIGTERM)
    #expect(!bystander.log.contains("held"), "the program went to another host: \(bystander.log)")
    let (huge, _) = try hostAgainstFake(
      "huge", lab: lab, expecting: "its description could not be read: the reply is larger than 65536 bytes")
    huge.signal(SIGTERM)
    #expect(huge.exitStatus() == 128 + SIGTERM)
    let started = Date()
    let (silent, _) = try hostAgainstFake(
      "silent", lab: lab, expecting: "its description could not be read: no whole answer from 10.203.0.1:5000 in time")
    // The attempts take about 2 s in all; the bound is loose (a loaded machine), the point is that it ends.
    #expect(Date().timeIntervalSince(started) < 8)
    #expect(silent.waitFor("Waiting for an opponent"))
    silent.signal(SIGTERM)
    #expect(silent.exitStatus() == 128 + SIGTERM)
  }

  /// `doctor --router` in the home namespace: which protocols the router speaks and whether its outside address
  /// is public; a shared one is a problem; and this machine's own firewall dropping the port is found.
  @Test(.enabled(if: canRun)) func doctorNamesTheRouterItsProtocolsAndTheFirewall() throws {
    let lab = try Lab("both")
    let home = try Binary.sandbox().environment
    func doctor(_ extra: [String] = ["--router"]) throws -> (status: Int32?, output: String) {
      var environment = home
      environment["USER"] = "alice"
      return try ChildProcess.run(
        "/usr/sbin/ip", ["netns", "exec", lab.env["HOME_NS"]!, Binary.path, "doctor"] + extra,
        environment: environment)
    }
    let good = try doctor()
    #expect(good.output.contains("ok      router: 10.203.0.1 (the default route)"), "\(good.output)")
    #expect(good.output.contains("ok      port mapping: 10.203.0.1 speaks PCP, NAT-PMP, UPnP"), "\(good.output)")
    #expect(good.output.contains("ok      outside address: 198.51.101.1 (public)"), "\(good.output)")
    #expect(!lab.routerLog.contains("AddPortMapping") && lab.mappings == 0, "doctor changed nothing: \(lab.routerLog)")
    // The home machine's own firewall drops what it does not accept.
    let nft = ["netns", "exec", lab.env["HOME_NS"]!, "nft"]
    _ = try Tool.run(
      "/usr/sbin/ip",
      nft + ["add table inet home; add chain inet home input { type filter hook input priority 0; policy drop; }"])
    let blocked = try doctor([])
    #expect(blocked.status == 1, "\(blocked.output)")
    #expect(
      blocked.output.contains(
        "PROBLEM firewall: an nftables input chain drops what it does not accept, and does not accept TCP port 7177"),
      "\(blocked.output)")
    _ = try Tool.run("/usr/sbin/ip", nft + ["add rule inet home input tcp dport 7177 accept"])
    #expect(try doctor([]).output.contains("ok      firewall: nothing drops TCP port 7177 coming in"))
    // The port the player hosts on, from the settings, is the one checked.
    let configuration = try #require(home["XDG_CONFIG_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(
      atPath: configuration, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try "port = 7300\n".write(toFile: configuration + "/settings.conf", atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configuration + "/settings.conf")
    let moved = try doctor([])
    #expect(moved.output.contains("does not accept TCP port 7300"), "\(moved.output)")
  }

  @Test(.enabled(if: canRun)) func doctorSaysASharedOutsideAddressIsAProblem() throws {
    let lab = try Lab("none")
    let fake = try FakeGateway("shared", lab: lab)
    var environment = try Binary.sandbox().environment
    environment["USER"] = "alice"
    let result = try ChildProcess.run(
      "/usr/sbin/ip", ["netns", "exec", lab.env["HOME_NS"]!, Binary.path, "doctor", "--router"],
      environment: environment)
    #expect(result.status == 1)
    #expect(result.output.contains("ok      port mapping: 10.203.0.1 speaks UPnP"), "\(result.output)")
    #expect(
      result.output.contains("PROBLEM outside address: 100.64.1.2 is shared (carrier-grade NAT)"), "\(result.output)")
    #expect(!fake.log.contains("AddPortMapping"), "\(fake.log)")
  }

  /// The invite printed last (the one with the router's outside address first, once it is known).
  private func lastInvite(_ player: Player) -> String? {
    player.output.split(separator: "\n").last { $0.hasPrefix("Invite: ") }.map { String($0.dropFirst(8)) }
  }

  @Test(.enabled(if: canRun)) func aGameAcrossTheRouterFromThePrintedInviteAlone() throws {
    let lab = try Lab("both")
    let host = try lab.player(in: "HOME_NS", "alice", ["host", "--port", "7177", "--map-port", "--accept-new"])
    #expect(
      host.waitFor("players on the internet can join at 198.51.101.1:7177."), "\(host.output)\(host.errors)")
    #expect(host.output.contains("(PCP, renewed while you host)"), "PCP is kept first: \(host.output)")
    #expect(host.waitFor("Invite: tictactoe:") && host.count("Invite: ") == 2)
    let invite = try #require(lastInvite(host))
    #expect(try Invite.parse(invite).addresses.first == .init(host: "198.51.101.1", port: 7177), "\(invite)")
    // One mapping: the others that succeeded were removed again. The router's log says which protocol.
    #expect(lab.mappings == 1, "\(lab.routerLog)")
    #expect(lab.routerLog.contains("PCP"), "\(lab.routerLog)")
    let joiner = try lab.player(in: "INTERNET_NS", "bob", ["join", invite])
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    #expect(!joiner.output.contains("Trust it?"))
    #expect(joiner.output.contains("Connected to 198.51.101.1:7177"), "\(joiner.output)")
    Player.playOut(host, joiner)
    #expect(host.output.contains("result: ") && joiner.output.contains("result: "), "\(host.output)")
    host.send("quit")
    #expect(host.exitStatus() == 0)
    // Gone with the host: the router's rule, and the port from outside.
    #expect(lab.mappings == 0, "\(lab.routerLog)")
    #expect(!lab.reachableFromOutside(port: 7177))
  }

  /// A router that speaks UPnP only: mapped by UPnP, removed on SIGTERM.
  @Test(.enabled(if: canRun)) func aUPnPOnlyRouterIsUsedAndTheMappingGoesOnSIGTERM() throws {
    let lab = try Lab("upnp")
    let host = try lab.player(in: "HOME_NS", "alice", ["host", "--port", "7177", "--map-port"])
    #expect(
      host.waitFor("(UPnP, renewed while you host): players on the internet can join at 198.51.101.1:7177."),
      "\(host.output)\(host.errors)")
    #expect(lab.mappings == 1)
    #expect(lab.reachableFromOutside(port: 7177))
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
    #expect(lab.mappings == 0, "\(lab.routerLog)")
  }

  /// NAT-PMP and PCP only (miniupnpd serves both on one switch): PCP is kept.
  @Test(.enabled(if: canRun)) func aNATPMPAndPCPRouterKeepsPCP() throws {
    let lab = try Lab("natpmp")
    let host = try lab.player(in: "HOME_NS", "alice", ["host", "--port", "7177", "--map-port"])
    #expect(
      host.waitFor("(PCP, renewed while you host): players on the internet can join at 198.51.101.1:7177."),
      "\(host.output)\(host.errors)")
    #expect(lab.mappings == 1)
    host.signal(SIGINT)
    #expect(host.exitStatus() == 128 + SIGINT)
    #expect(lab.mappings == 0, "\(lab.routerLog)")
  }

  /// IPv6: the host's global address is in the invite, and the router's IPv6 firewall (which drops what comes in)
  /// is asked for a pinhole over IPv6; a joiner on the internet then reaches the host's IPv6 address directly,
  /// and the pinhole is removed at the end. Without it the same join does not get through.
  @Test(.enabled(if: canRun)) func anIPv6PinholeLetsTheInternetJoinTheHostsOwnAddress() throws {
    let lab = try Lab("both")
    let closed = try lab.player(in: "HOME_NS", "alice", ["host", "--port", "7177", "--accept-new"])
    #expect(closed.waitFor("Waiting for an opponent"))
    let blocked = try lab.player(in: "INTERNET_NS", "bob", ["join", "[2001:db8:1::2]:7177", "--accept-new"])
    #expect(blocked.exitStatus(timeout: 30) == 11, "no pinhole, no way in: \(blocked.output)\(blocked.errors)")
    closed.signal(SIGTERM)
    #expect(closed.exitStatus() == 128 + SIGTERM)
    let host = try lab.player(in: "HOME_NS", "alice", ["host", "--port", "7177", "--map-port", "--accept-new"])
    #expect(
      host.waitFor(
        "Inbound IPv6 is open for [2001:db8:1::2]:7177 on your router (UPnP pinhole, renewed while you host)."),
      "\(host.output)\(lab.routerLog)")
    #expect(lastInvite(host)?.contains("2001:db8:1::2/7177") == true)
    let joiner = try lab.player(in: "INTERNET_NS", "bob", ["join", "[2001:db8:1::2]:7177", "--accept-new"])
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    #expect(host.exitStatus() == 30)  // its opponent left: hosting stops, and the pinhole goes
    #expect(lab.routerLog.contains("AddPinhole: (inbound) from []:0 to [2001:db8:1::2]:7177"), "\(lab.routerLog)")
    #expect(lab.routerLog.contains("successfully removed"), "\(lab.routerLog)")
  }

  /// The full-screen host offers to ask the router; m does, and the answer is kept in the settings.
  @Test(.enabled(if: canRun)) func theFullScreenHostAsksFirstAndMOpensThePort() throws {
    let lab = try Lab("both")
    var environment = try Binary.sandbox().environment
    environment["USER"] = "alice"
    let host = try TmuxSession(
      command: "ip netns exec \(lab.env["HOME_NS"]!) \(Binary.path) host --port 7177", environment: environment)
    try host.waitFor(text: "Let friends on the internet join? m: ask your router to open port 7177")
    #expect(!lab.routerLog.contains("request received") && lab.mappings == 0, "not before the answer")
    try host.send("m")
    try host.waitFor(text: "Ask your router to open port")
    try host.send("y")
    try host.waitFor(text: "players on the internet can join at 198.51.101.1:7177.")
    #expect(lab.mappings == 1)
    let settings = try String(
      contentsOfFile: environment["XDG_CONFIG_HOME"]! + "/tictactoe/settings.conf", encoding: .utf8)
    #expect(settings.contains("map_port = yes"), "\(settings)")
    try host.send("q")
    let deadline = Date().addingTimeInterval(10)
    while lab.mappings > 0 && Date() < deadline { usleep(50_000) }
    #expect(lab.mappings == 0, "removed when the player leaves: \(lab.routerLog)")
  }

  /// A host the player leaves for the lobby gives the port back to the router while the program goes on: the
  /// removal runs off the loop (it blocked the lobby for up to 2 s), and the lobby is live at once.
  @Test(.enabled(if: canRun)) func leavingForTheLobbyRemovesTheMappingAndTheLobbyGoesOn() throws {
    let lab = try Lab("both")
    var environment = try Binary.sandbox().environment
    environment["USER"] = "alice"
    let host = try TmuxSession(
      command: "ip netns exec \(lab.env["HOME_NS"]!) sh -c '\(Binary.path); echo EXIT=$?; sleep 30'",
      environment: environment)
    try host.waitFor(text: "Play the computer")
    try host.send("Down", "Down", "Enter")
    try host.waitFor(text: "Let friends on the internet join? m: ask your router")
    try host.send("m")
    try host.waitFor(text: "Ask your router to open port")
    try host.send("y")
    try host.waitFor(text: "players on the internet can join at 198.51.101.1:")
    #expect(lab.mappings == 1)
    try host.send("Escape")
    try host.waitFor(text: "Play the computer")
    let deadline = Date().addingTimeInterval(10)
    while lab.mappings > 0 && Date() < deadline { usleep(50_000) }
    #expect(lab.mappings == 0, "removed when the player went back to the lobby: \(lab.routerLog)")
    try host.send("q")
    try host.waitFor(text: "EXIT=0")
  }

  /// The practice bot maps only when told to: with --map-port a joiner on the internet plays it through the
  /// router, and SIGTERM removes the mapping.
  @Test(.enabled(if: canRun)) func thePracticeBotMapsWhenToldAndRemovesItOnSIGTERM() throws {
    let lab = try Lab("both")
    let bot = try lab.player(
      in: "HOME_NS", "botty", ["host", "--bot", "easy", "--port", "7177", "--map-port", "--accept-new"], plain: false)
    #expect(
      bot.waitFor("players on the internet can join at 198.51.101.1:7177.", timeout: 15), "\(bot.output)\(bot.errors)")
    // The invite with the router's outside address first is printed just after that line (seen missing once when
    // read at once, in a fresh-clone CI run).
    let deadline = Date().addingTimeInterval(10)
    while lastInvite(bot).flatMap({ try? Invite.parse($0) })?.addresses.first?.host != "198.51.101.1"
      && Date() < deadline
    {
      usleep(50_000)
    }
    let invite = try #require(lastInvite(bot), "\(bot.output)")
    let joiner = try lab.player(in: "INTERNET_NS", "bob", ["join", invite])
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    bot.signal(SIGTERM)
    #expect(bot.exitStatus() == 0)
    #expect(lab.mappings == 0, "\(lab.routerLog)")
  }

  /// No mapping daemon: the player is told what to do, and hosting on the LAN goes on (a joiner on the router's
  /// side of the home LAN plays).
  @Test(.enabled(if: canRun)) func aRouterThatAnswersNothingIsNamedAndTheLANStillPlays() throws {
    let lab = try Lab("none")
    let host = try lab.player(in: "HOME_NS", "alice", ["host", "--port", "7177", "--map-port", "--accept-new"])
    let said =
      "No answer from your router 10.203.0.1 to UPnP, NAT-PMP or PCP: forward TCP port 7177 to 10.203.0.2 in your"
      + " router's settings by hand, or ask your friend to host instead."
    #expect(host.waitFor(said, timeout: 10), "\(host.output)")
    let neighbour = try lab.player(in: "ROUTER_NS", "carol", ["join", "10.203.0.2:7177", "--accept-new"])
    #expect(neighbour.waitFor("game 1:"), "\(neighbour.output)\(neighbour.errors)")
    neighbour.send("quit")
    #expect(host.exitStatus() == 30)
  }

  /// Without --map-port (and no setting) the router is never asked. Not a pause and a look at nothing: a second
  /// host with --map-port, started after the first was waiting, is asked for and mapped (the router's log and
  /// ruleset show its request, so they would have shown the first's), and by the time its whole attempt is over
  /// the ruleset holds its port alone and the first host has said nothing about a router.
  @Test(.enabled(if: canRun)) func withoutMapPortTheRouterIsNeverAsked() throws {
    let lab = try Lab("both")
    let host = try lab.player(in: "HOME_NS", "alice", ["host", "--port", "7177"])
    #expect(host.waitFor("Waiting for an opponent"), "\(host.output)\(host.errors)")
    let asking = try lab.player(in: "HOME_NS", "carol", ["host", "--port", "7178", "--map-port"])
    #expect(
      asking.waitFor("players on the internet can join at 198.51.101.1:7178.", timeout: 10),
      "\(asking.output)\(asking.errors)\n\(lab.routerLog)")
    let rules = lab.ruleset
    #expect(rules.contains("dnat ip to 10.203.0.2:7178"), "the control host was not mapped:\n\(rules)")
    #expect(!rules.contains(":7177"), "the host without --map-port was mapped:\n\(rules)")
    #expect(lab.mappings == 1, "\(rules)")
    #expect(!host.output.contains("router") && !host.errors.contains("router"), "\(host.output)\(host.errors)")
    for player in [host, asking] {
      player.signal(SIGTERM)
      #expect(player.exitStatus() == 128 + SIGTERM)
    }
  }
}
