import Glibc
import TestSupport
import Testing

@testable import Discovery

/// Advertising and browsing through a real avahi-daemon (started on `lo` by scripts/avahi-test-daemon.sh).
@Suite("Live avahi-daemon", .serialized, AvahiTestDaemon())
struct LiveDaemonTests {
  static let fingerprint = "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU"
  /// Bound for a single DNS-SD event to arrive (cold discovery takes about a second).
  static let bound: Duration = .seconds(15)

  static func uniqueName(_ prefix: String) -> String {
    "\(prefix)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
  }

  static func txt(_ state: ServiceTXT.GameState = .waiting) -> ServiceTXT {
    ServiceTXT(
      protocolVersions: [1], rules: ServiceTXT.Rules(rows: 3, columns: 3, k: 3)!, state: state,
      fingerprint: fingerprint, displayName: "Alice")
  }

  @Test("an outside client (avahi-browse -rp) sees our advertisement at 127.0.0.1 with our TXT")
  func outsideClientSeesAdvertisement() throws {
    let name = Self.uniqueName("ttt-adv")
    let pump = EventPump()
    pump.advertisers = [try Advertiser(name: name, port: 40_123, txt: Self.txt())]
    #expect(pump.run(timeout: Self.bound) { pump.advertiserEvents == [.registered(name: name)] })
    #expect(pump.advertisers[0].registeredName == name)

    let browse = try ChildProcess(
      "avahi-browse", ["-rp", ServiceType.tictactoe], output: .capture, errors: .withOutput)
    pump.children = [browse]
    let found = pump.run(timeout: Self.bound) {
      browse.lines.contains { $0.hasPrefix("=;") && $0.contains(";\(name);") }
    }
    #expect(found, "avahi-browse printed: \(browse.text)")
    let line = browse.lines.first { $0.hasPrefix("=;") && $0.contains(";\(name);") }
    let resolved = String(line ?? "")
    #expect(resolved.contains(";40123;"))
    for entry in ["\"txtvers=1\"", "\"proto=1\"", "\"rules=3x3k3\"", "\"state=waiting\"", "\"fp=\(Self.fingerprint)\""]
    {
      #expect(resolved.contains(entry), "TXT \(entry) missing from \(resolved)")
    }
    #expect(!resolved.contains("port=") && !resolved.contains("host="))
    if AvahiTestDaemon.startedByScript {
      #expect(resolved.contains(";lo;IPv4;") && resolved.contains(";127.0.0.1;40123;"))
    }
  }

  @Test("our Browser sees an outside publisher (avahi-publish) resolved, then its withdrawal")
  func browserSeesOutsidePublisher() throws {
    let name = Self.uniqueName("ttt-pub")
    let pump = EventPump()
    pump.browser = try Browser()
    let publisher = try ChildProcess(
      "avahi-publish",
      [
        "-s", name, ServiceType.tictactoe, "40124", "txtvers=1", "proto=1,2", "rules=4x4k3",
        "state=playing", "fp=\(Self.fingerprint)", "name=Bob",
      ], output: .capture, errors: .withOutput)
    pump.children = [publisher]
    let resolved = pump.run(timeout: Self.bound) {
      pump.game(named: name)?.isConnectable == true && pump.game(named: name)?.txt != nil
    }
    #expect(resolved, "avahi-publish printed: \(publisher.text)")
    let game = try #require(pump.game(named: name))
    #expect(pump.browserEvents.filter { $0 == .appeared(game.id) }.count == 1)
    #expect(game.port == 40_124)
    #expect(game.hostName?.hasSuffix(".local.") == true)
    #expect(game.txt?.problems == [])
    #expect(game.txt?.protocolVersions == [1, 2])
    #expect(game.txt?.rules == ServiceTXT.Rules(rows: 4, columns: 4, k: 3))
    #expect(game.txt?.state == .playing)
    #expect(game.txt?.fingerprint == Self.fingerprint)
    #expect(game.txt?.displayName == "Bob")
    if AvahiTestDaemon.startedByScript {
      #expect(game.addresses == ["127.0.0.1"])
      #expect(game.interfaceIndex == if_nametoindex("lo"))
    }

    publisher.stop()
    #expect(pump.run(timeout: Self.bound) { pump.browserEvents.contains(.disappeared(game.id)) })
    #expect(pump.game(named: name) == nil)
    // Other programs may publish games on the same daemon: count 1 browse + at most 3 per game still listed.
    let browser = try #require(pump.browser)
    #expect(browser.descriptors.count <= 1 + 3 * browser.games.count, "a withdrawn game's lookups are closed")
  }

  @Test("a new Browser lists a game published before it started, resolved")
  func collectGames() throws {
    let name = Self.uniqueName("ttt-list")
    let publisher = try ChildProcess(
      "avahi-publish",
      [
        "-s", name, ServiceType.tictactoe, "40131", "txtvers=1", "proto=1", "rules=3x3k3",
        "state=waiting", "fp=\(Self.fingerprint)",
      ], output: .capture, errors: .withOutput)
    let pump = EventPump()
    pump.children = [publisher]
    #expect(pump.run(timeout: Self.bound) { publisher.lines.contains { $0.hasPrefix("Established under name") } })
    let games = try Browser.collectGames(within: Self.bound) { games in
      games.contains { $0.instanceName == name && $0.isConnectable && $0.txt != nil }
    }
    let game = try #require(games.first { $0.instanceName == name })
    #expect(game.isConnectable && game.port == 40_131 && game.txt?.problems == [])
  }

  @Test("a foreign record with rules=banana and no fp is listed with its problems")
  func malformedForeignRecord() throws {
    let name = Self.uniqueName("ttt-bad")
    let pump = EventPump()
    pump.browser = try Browser()
    let publisher = try ChildProcess(
      "avahi-publish",
      [
        "-s", name, ServiceType.tictactoe, "40125", "txtvers=1", "rules=banana", "state", "proto=x",
      ], output: .capture, errors: .withOutput)
    pump.children = [publisher]
    #expect(pump.run(timeout: Self.bound) { pump.game(named: name)?.txt != nil })
    let txt = try #require(pump.game(named: name)?.txt)
    #expect(txt.txtVersion == 1)
    #expect(txt.rules == nil && txt.state == nil && txt.protocolVersions == nil && txt.fingerprint == nil)
    #expect(
      Set(txt.problems) == [
        .invalidValue(key: "rules", value: "banana"), .invalidValue(key: "state", value: ""),
        .invalidValue(key: "proto", value: "x"), .missingKey("fp"),
      ])
  }

  @Test("register → browse → TXT update → withdrawal")
  func lifecycle() throws {
    // How long each step takes is the benchmark's (its discovery rows); here each is waited for with a bound.
    let name = Self.uniqueName("ttt-life")
    let pump = EventPump()
    pump.browser = try Browser()
    let advertiser = try Advertiser(name: name, port: 40_126, txt: Self.txt(.waiting))
    pump.advertisers = [advertiser]

    #expect(pump.run(timeout: Self.bound) { advertiser.registeredName != nil })
    #expect(pump.run(timeout: Self.bound) { pump.game(named: name) != nil })
    #expect(pump.run(timeout: Self.bound) { pump.game(named: name)?.isConnectable == true })
    let game = try #require(pump.game(named: name))
    #expect(game.txt == Self.txt(.waiting))
    #expect(game.port == 40_126)

    try advertiser.update(txt: Self.txt(.playing))
    #expect(advertiser.txt.state == .playing)
    #expect(pump.run(timeout: Self.bound) { pump.game(named: name)?.txt?.state == .playing })
    #expect(pump.game(named: name)?.txt == Self.txt(.playing))

    advertiser.cancel()
    #expect(advertiser.descriptor == nil && !advertiser.isActive)
    #expect(pump.run(timeout: Self.bound) { pump.browserEvents.contains(.disappeared(game.id)) })
  }

  @Test("once a game is found, handling what is readable leaves the descriptors quiet: no busy loop")
  func idleDescriptorsStayQuiet() throws {
    let name = Self.uniqueName("ttt-idle")
    let pump = EventPump()
    pump.browser = try Browser()
    let advertiser = try Advertiser(name: name, port: 40_132, txt: Self.txt())
    pump.advertisers = [advertiser]
    #expect(pump.run(timeout: Self.bound) { pump.game(named: name)?.isConnectable == true })
    // A descriptor that stays readable after its events are processed would make the game's loop spin. Handle
    // whatever is readable (without waiting) until nothing is: a few rounds (mDNS re-announcements, other
    // programs' services on the same daemon), where a stuck descriptor would still be readable after any number.
    // How often an idle lobby wakes is the benchmark's "Wakeups, idle lobby" row.
    let rounds = pump.roundsUntilQuiet(atMost: 1000)
    #expect(rounds != nil, "a descriptor was still readable after 1000 rounds of processing")
    #expect(pump.advertiserErrors.isEmpty)
  }

  @Test("a TXT update made before the registration completes is published")
  func earlyUpdate() throws {
    let name = Self.uniqueName("ttt-early")
    let pump = EventPump()
    pump.browser = try Browser()
    let advertiser = try Advertiser(name: name, port: 40_127, txt: Self.txt(.waiting))
    pump.advertisers = [advertiser]
    try advertiser.update(txt: Self.txt(.playing))
    #expect(pump.run(timeout: Self.bound) { pump.game(named: name)?.txt?.state == .playing })
    #expect(pump.advertiserErrors.isEmpty)
  }

  @Test("a second game under a name this machine already publishes is renamed `NAME #2`")
  func nameConflict() throws {
    let name = Self.uniqueName("ttt-twin")
    let pump = EventPump()
    let first = try Advertiser(name: name, port: 40_128, txt: Self.txt())
    pump.advertisers = [first]
    #expect(pump.run(timeout: Self.bound) { first.registeredName != nil })
    let second = try Advertiser(name: name, port: 40_129, txt: Self.txt())
    pump.advertisers.append(second)
    var announced: [String] = []
    second.onRegistered = { announced.append($0) }
    #expect(pump.run(timeout: Self.bound) { second.registeredName != nil || !pump.advertiserErrors.isEmpty })
    #expect(pump.advertiserErrors.isEmpty)
    #expect(first.registeredName == name)
    #expect(second.registeredName == "\(name) #2")
    #expect(announced == ["\(name) #2"])
  }

  @Test("an empty name is refused before anything is sent")
  func emptyName() {
    #expect(throws: DiscoveryError.self) { try Advertiser(name: "", port: 1, txt: Self.txt()) }
  }

  @Test("the daemon stopping mid-browse fails the browser once; a new browser works when it is back")
  func daemonStopsAndReturns() throws {
    // Stopping a daemon someone else runs (a desktop's) is not the tests' to do.
    try Requirement.require(
      AvahiTestDaemon.startedByScript, "an avahi-daemon started by these tests (another one was already running)")
    let name = Self.uniqueName("ttt-gone")
    #expect(DNSSDEnvironment.isCrashWorkaroundInstalled)
    // Leave freed, non-zero memory of the sizes Avahi allocates, so that without the workaround in shim.h the
    // failure callbacks below would jump to garbage (they did, in about one run in three).
    for size in stride(from: 64, through: 1024, by: 16) {
      if let block = malloc(size) {
        memset(block, 0xAB, size)
        free(block)
      }
    }
    let pump = EventPump()
    pump.browser = try Browser()
    let advertiser = try Advertiser(name: name, port: 40_130, txt: Self.txt())
    pump.advertisers = [advertiser]
    #expect(pump.run(timeout: Self.bound) { pump.game(named: name)?.isConnectable == true })
    let id = try #require(pump.game(named: name)?.id)

    let stopped = AvahiTestDaemon.run(["stop-avahi", AvahiTestDaemon.directory])
    #expect(stopped.status == 0, "\(stopped.output)")
    let failed = pump.run(timeout: Self.bound) {
      pump.browserEvents.contains { if case .failed = $0 { true } else { false } }
    }
    #expect(failed)
    let failures = pump.browserEvents.compactMap { event -> DiscoveryError? in
      if case .failed(let error) = event { error } else { nil }
    }
    #expect(failures.count == 1)
    #expect(failures.first?.kind == .daemonUnavailable)
    #expect(failures.first?.failure == .unknown)
    #expect(pump.browserEvents.contains(.disappeared(id)))
    #expect(pump.browser?.games == [] && pump.browser?.descriptors == [] && pump.browser?.isActive == false)
    #expect(pump.run(timeout: Self.bound) { !pump.advertiserErrors.isEmpty })
    #expect(pump.advertiserErrors.first?.kind == .daemonUnavailable)
    #expect(advertiser.descriptor == nil)

    // With no daemon, starting anything fails at once, in words a player understands.
    do {
      _ = try Browser()
      Issue.record("browsing without a daemon should fail")
    } catch {
      #expect(error.failure == .unknown)
      #expect(error.message.hasPrefix("LAN discovery is unavailable: the avahi-daemon is not running"))
    }
    #expect(throws: DiscoveryError(.unknown, operation: .advertising)) {
      try Advertiser(name: name, port: 40_130, txt: Self.txt())
    }

    let started = AvahiTestDaemon.run(["start", AvahiTestDaemon.directory])
    try #require(started.status == 0, "\(started.output)")
    let again = EventPump()
    again.browser = try Browser()
    again.advertisers = [try Advertiser(name: name, port: 40_130, txt: Self.txt())]
    #expect(again.run(timeout: Self.bound) { again.game(named: name)?.isConnectable == true })
  }
}
