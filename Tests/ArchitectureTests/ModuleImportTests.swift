import Testing

/// The house rules of docs/ARCHITECTURE.md, read off the sources: the pure modules import only pure modules (no C
/// module, no Glibc, no Foundation), and each C library is reached from one module.
@Suite struct ModuleImportTests {
  /// Every module that must stay pure, with all it may import.
  static let pure: [String: Set<String>] = [
    "ExplainedErrors": [],
    "GameCore": ["ExplainedErrors", "Synchronization"],
    "UntrustedText": [],
    "GameRecords": ["GameCore", "ExplainedErrors"],
    "WireProtocol": ["GameCore", "UntrustedText", "ExplainedErrors"],
    "Gomocup": ["GameCore", "UntrustedText", "ExplainedErrors"],
    "Session": ["GameCore", "WireProtocol", "UntrustedText", "ExplainedErrors"],
    "PeerTrust": ["UntrustedText", "Synchronization", "ExplainedErrors"],
    "NetworkFacts": ["PeerTrust", "TransitRelay", "ExplainedErrors", "UntrustedText"],
    "TransitRelay": ["UntrustedText"],
    "PlayerSettings": ["GameCore"],
    "TerminalUI": ["GameCore", "GameRecords", "UntrustedText", "Gomocup", "PlayerSettings"],
    // The networked match's deciding part: no C module, no OpenSSL (Security), no sockets (Transport), no
    // DNS-SD (Discovery); App builds what it needs of them as values (MatchCoordination+World.swift).
    "MatchCoordination": [
      "GameCore", "GameRecords", "PeerTrust", "Session", "TransitRelay", "UntrustedText", "WireProtocol",
      "ExplainedErrors", "NetworkFacts",
    ],
  ]

  /// Each C module, and the one module of the game that may import it (the benchmark's baseline, TLS written
  /// straight on OpenSSL, is the one other).
  static let cOwners: [String: Set<String>] = [
    "COpenSSL": ["Security", "tictactoe-bench"], "CDNSSD": ["Discovery"], "CNcursesw": ["CursesBackend"],
    "CEpoll": ["EventLoop"], "CMiniUPnPc": ["PortMapping"], "CNatPMP": ["PortMapping"], "CSpawn": ["OutsideEngines"],
  ]

  static let sources =
    String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/")).withRoot
    + "/Sources"

  @Test(arguments: pure.keys.sorted())
  func pureModuleImportsOnlyPureModules(_ module: String) throws {
    let imports = try SourceTree.imports(of: module, under: Self.sources)
    for (file, name) in imports where !Self.pure[module, default: []].contains(name) {
      Issue.record("\(file) imports \(name), which \(module), a pure module, may not")
    }
  }

  @Test(arguments: cOwners.keys.sorted())
  func cModuleHasOneOwner(_ cModule: String) throws {
    for module in try SourceTree.swiftModules(under: Self.sources)
    where !Self.cOwners[cModule, default: []].contains(module) {
      for (file, name) in try SourceTree.imports(of: module, under: Self.sources) where name == cModule {
        Issue.record("\(file) imports \(cModule), which only \(Self.cOwners[cModule, default: []].sorted()) may import")
      }
    }
  }

  /// The checks read real imports: a rule broken in a sample is found.
  @Test func aForbiddenImportIsFound() {
    let found = SourceTree.importedModules(in: "// a comment\nimport Glibc\n@testable import Security\nlet x = 1\n")
    #expect(found == ["Glibc", "Security"])
  }
}

extension String {
  fileprivate var withRoot: String { hasPrefix("/") ? self : "/" + self }
}
