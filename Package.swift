// swift-tools-version:6.0
import PackageDescription

// GameCore is compiled with optimisation even in debug builds: the perfect AI solves 4×4 boards
// exhaustively, and the test suite proves it over every opponent strategy.
let optimised: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
  name: "tictactoe",
  products: [
    .executable(name: "tictactoe", targets: ["tictactoe"]),
    .executable(name: "tictactoe-bench", targets: ["tictactoe-bench"]),
    .executable(name: "tictactoe-bench-foundation", targets: ["tictactoe-bench-foundation"]),
  ],
  targets: [
    .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
    .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl"),
    .systemLibrary(name: "CDNSSD", path: "Sources/CDNSSD"),
    .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
    .systemLibrary(name: "CSpawn", path: "Sources/CSpawn"),
    .systemLibrary(name: "CMiniUPnPc", path: "Sources/CMiniUPnPc"),
    .systemLibrary(name: "CNatPMP", path: "Sources/CNatPMP"),
    // The shape of every module's errors (a stable code, the reason, the hint): the one leaf all depend on.
    .target(name: "ExplainedErrors"),
    .target(name: "GameCore", dependencies: ["ExplainedErrors"], swiftSettings: optimised),
    .target(name: "UntrustedText"),
    // Game records: SGF read and written, pure (docs/RECORDS.md).
    .target(name: "GameRecords", dependencies: ["GameCore", "ExplainedErrors"]),
    .target(name: "WireProtocol", dependencies: ["GameCore", "UntrustedText", "ExplainedErrors"]),
    // The Gomocup (Piskvork) brain protocol both ways, pure: the brain's state machine and the manager's side
    // of a game against an outside engine (docs/ENGINES.md).
    .target(name: "Gomocup", dependencies: ["GameCore", "UntrustedText", "ExplainedErrors"]),
    // Who a peer is and whether to trust it, as pure values and decisions: fingerprints, known peers, a
    // certificate's facts, trust policies and their decisions, days.
    .target(name: "PeerTrust", dependencies: ["UntrustedText", "ExplainedErrors"]),
    // What the network's parts report to the deciding ones, as pure values: addresses as text and resolved,
    // endpoints, and why a connection failed (NetworkError, TLSError, a PROXY header refused).
    .target(name: "NetworkFacts", dependencies: ["PeerTrust", "TransitRelay", "ExplainedErrors", "UntrustedText"]),
    // The transit relay's side of a connection, pure: tokens and sides, the greeting line, the relay's answer.
    .target(name: "TransitRelay", dependencies: ["UntrustedText", "ExplainedErrors"]),
    .target(
      name: "Security",
      dependencies: ["COpenSSL", "UntrustedText", "PeerTrust", "TransitRelay", "ExplainedErrors", "NetworkFacts"]),
    // The player's files: the data and config directories, identity, known_peers and its index, the game
    // records, the journal, the log; atomic writes and the file-exposure checks.
    .target(
      name: "PlayerFiles",
      dependencies: ["Security", "PeerTrust", "GameRecords", "GameCore", "Session", "UntrustedText", "ExplainedErrors"]),
    .target(name: "Discovery", dependencies: ["CDNSSD", "ExplainedErrors"]),
    .target(name: "Session", dependencies: ["GameCore", "WireProtocol", "UntrustedText", "ExplainedErrors"]),
    .target(name: "EventLoop", dependencies: ["CEpoll"]),
    // Asking the LAN's router to open the host's port: PCP (its own codec), NAT-PMP (libnatpmp), UPnP IGD
    // (its own bounded SSDP and HTTP; libminiupnpc parses what the router sends).
    .target(name: "PortMapping", dependencies: ["CMiniUPnPc", "CNatPMP", "ExplainedErrors"]),
    .target(
      name: "Transport",
      dependencies: ["Security", "PeerTrust", "WireProtocol", "TransitRelay", "ExplainedErrors", "NetworkFacts"]),
    // The networked match's deciding part: the host's and the joiner's coordinators on MatchCore, trust
    // questions, the record exchange, the door and the per-address limits. It carries out nothing itself: the
    // shell (NetworkShell's NetworkMatch) does what its commands say.
    .target(
      name: "MatchCoordination",
      dependencies: [
        "GameCore", "GameRecords", "PeerTrust", "Session", "TransitRelay", "NetworkFacts", "UntrustedText",
        "WireProtocol", "ExplainedErrors",
      ]),
    // The player's choices kept between runs (settings.conf's values; App's SettingsFile reads and writes the file).
    .target(name: "PlayerSettings", dependencies: ["GameCore"]),
    .target(
      name: "TerminalUI", dependencies: ["GameCore", "GameRecords", "UntrustedText", "Gomocup", "PlayerSettings"]),
    .target(name: "CursesBackend", dependencies: ["TerminalUI", "CNcursesw"]),
    // The thin network shell: carries out what the match's coordinators decide (NetworkMatch on MatchOnLoop),
    // over the shared parts host, joiner and bot use: the listener and its door, the TLS contexts, the LAN
    // announcement, the port mapping on the loop, the front end's life on the loop, the exit statuses.
    .target(
      name: "NetworkShell",
      dependencies: [
        "Discovery", "EventLoop", "GameCore", "GameRecords", "MatchCoordination", "NetworkFacts", "PeerTrust",
        "PlayerFiles", "PlayerSettings", "PortMapping", "Security", "Session", "TransitRelay", "Transport",
        "UntrustedText",
        "WireProtocol",
      ]),
    // Outside engines on the event loop: an engine's process (posix_spawn, its pipes), the seat that plays a game
    // through it (Gomocup's conversation), and standard input read a line at a time.
    .target(
      name: "OutsideEngines",
      dependencies: ["CSpawn", "EventLoop", "GameCore", "Gomocup", "PlayerFiles", "UntrustedText"]),
    // The practice bot (`host --bot`): many games at once on one loop, its door and limits, its seats (the
    // built-in computer or an outside engine), its records, kept games, spectators and LAN advert.
    .target(
      name: "PracticeBot",
      dependencies: [
        "Discovery", "EventLoop", "GameCore", "GameRecords", "Gomocup", "MatchCoordination", "NetworkFacts",
        "NetworkShell", "OutsideEngines", "PeerTrust", "PlayerFiles", "PlayerSettings", "Security", "Session",
        "Transport", "UntrustedText", "WireProtocol",
      ]),
    // The front ends: the full screen (curses) and plain mode for local, network, engine and watched games,
    // the presenters that turn the match's events into what they show, the lobby's LAN list.
    .target(
      name: "FrontEnds",
      dependencies: [
        "CursesBackend", "Discovery", "EventLoop", "ExplainedErrors", "GameCore", "GameRecords", "MatchCoordination",
        "NetworkFacts", "NetworkShell", "OutsideEngines", "PeerTrust", "PlayerFiles", "PlayerSettings", "Security",
        "Session", "TerminalUI", "Transport", "UntrustedText", "WireProtocol",
      ]),
    .target(
      name: "App",
      dependencies: [
        "GameCore", "TerminalUI", "PlayerSettings", "CursesBackend", "Session", "Transport", "Security", "WireProtocol",
        "Discovery",
        "UntrustedText", "EventLoop", "PortMapping", "GameRecords", "Gomocup", "PeerTrust", "ExplainedErrors",
        "PlayerFiles", "MatchCoordination", "NetworkFacts", "NetworkShell", "OutsideEngines", "PracticeBot",
        "FrontEnds",
      ]),
    .executableTarget(name: "tictactoe", dependencies: ["App"]),
    .executableTarget(
      name: "tictactoe-bench",
      dependencies: [
        "GameCore", "WireProtocol", "Session", "Security", "PeerTrust", "Transport", "COpenSSL", "EventLoop",
        "TransitRelay", "PlayerFiles", "NetworkFacts",
      ]),
    // A baseline the benchmark runs beside the game: a Swift program linking Foundation. (Its C baseline,
    // scripts/bench-curses-baseline.c, is compiled by the benchmark with cc: SwiftPM would link the Swift
    // runtime into it.)
    .executableTarget(name: "tictactoe-bench-foundation"),
    // What the tests share: the seeded generator, the reference solver the AI proofs check against (no code in
    // common with GameCore's), the process spawner and the sandboxed home. Optimised for the 4×4 reference.
    // GameCore is its only dependency: the mutation check builds it beside a copy of GameCore alone.
    .target(name: "TestSupport", dependencies: ["GameCore"], path: "Tests/Support/Core", swiftSettings: optimised),
    // The in-memory session pair: two NetSessions connected through the wire codec.
    .target(
      name: "SessionTestSupport", dependencies: ["Session", "WireProtocol", "GameCore"], path: "Tests/Support/Sessions"),
    .testTarget(
      name: "GameCoreTests", dependencies: ["GameCore", "TestSupport"], exclude: ["RenjuFouls.txt", "Data"]),
    .testTarget(name: "UntrustedTextTests", dependencies: ["UntrustedText"]),
    .testTarget(name: "PeerTrustTests", dependencies: ["PeerTrust"]),
    .testTarget(name: "NetworkFactsTests", dependencies: ["NetworkFacts", "TestSupport"]),
    // The house rules read off Sources/: which modules stay pure, which one module reaches each C library.
    .testTarget(name: "ArchitectureTests"),
    .testTarget(name: "GomocupTests", dependencies: ["Gomocup", "GameCore", "UntrustedText", "TestSupport"]),
    .testTarget(name: "GameRecordsTests", dependencies: ["GameRecords", "GameCore"], exclude: ["FuzzCorpus"]),
    .testTarget(name: "WireProtocolTests", dependencies: ["WireProtocol", "GameCore"], exclude: ["FuzzCorpus"]),
    .testTarget(
      name: "SecurityTests", dependencies: ["Security", "PeerTrust", "TestSupport", "TransitRelay", "NetworkFacts"],
      exclude: ["FuzzCorpus", "InviteFuzzCorpus"]),
    .testTarget(
      name: "PlayerFilesTests", dependencies: ["PlayerFiles", "Security", "PeerTrust", "TestSupport", "UntrustedText"]),
    .testTarget(name: "TransitRelayTests", dependencies: ["TransitRelay", "UntrustedText"]),
    .testTarget(name: "DiscoveryTests", dependencies: ["Discovery", "TestSupport"]),
    .testTarget(
      name: "SessionTests",
      dependencies: ["Session", "GameCore", "WireProtocol", "UntrustedText", "TestSupport", "SessionTestSupport"]),
    .testTarget(
      name: "TransportTests",
      dependencies: [
        "Transport", "Security", "PeerTrust", "WireProtocol", "TransitRelay", "TestSupport", "NetworkFacts",
      ]),
    .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"]),
    .testTarget(name: "PortMappingTests", dependencies: ["PortMapping"], exclude: ["FuzzCorpus"]),
    .testTarget(
      name: "TerminalUITests",
      dependencies: ["TerminalUI", "PlayerSettings", "GameCore", "GameRecords", "UntrustedText"]),
    .testTarget(
      name: "AppTests",
      dependencies: [
        "App", "GameCore", "TerminalUI", "PlayerSettings", "Security", "PeerTrust", "Transport", "ExplainedErrors",
        "Gomocup",
        "UntrustedText", "Session", "TransitRelay",
        "WireProtocol", "Discovery",
        "TestSupport", "GameRecords", "SessionTestSupport", "PlayerFiles", "MatchCoordination", "NetworkFacts",
        "NetworkShell", "OutsideEngines", "PracticeBot", "FrontEnds",
      ]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "tictactoe", "tictactoe-bench", "Security", "PeerTrust", "WireProtocol", "GameCore", "GameRecords",
        "TestSupport", "TransitRelay", "PlayerFiles", "NetworkFacts",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
