import Foundation
import Testing

@testable import Security

/// Replays the `known-peers` fuzzer's saved inputs (FuzzCorpus/, one file per input; scripts/fuzz.sh adds every
/// crash it finds) with the target's invariant: text that parses renders to text that parses to the same peers.
/// Inputs named fixed-* reproduced bugs the fuzzer found (a comment ending in two carriage returns lost one
/// on every save), now fixed. Inputs named bug-* would reproduce known bugs not fixed yet (there are none).
@Suite struct KnownPeersFuzzRegressionTests {
  @Test func corpusIsThere() {
    #expect(!KnownPeersFuzzCorpus.inputs(knownBugs: false).isEmpty, "no inputs in \(KnownPeersFuzzCorpus.directory)")
  }

  @Test(arguments: KnownPeersFuzzCorpus.inputs(knownBugs: false))
  func parseRenderParse(input: KnownPeersFuzzCorpus.Input) throws {
    try Self.check(input)
  }

  static func check(_ input: KnownPeersFuzzCorpus.Input) throws {
    let text = String(decoding: try input.bytes(), as: UTF8.self)
    guard let peers = try? KnownPeers.parse(text, path: "fuzz") else { return }
    #expect(try KnownPeers.parse(peers.render(), path: "fuzz") == peers)
  }
}

/// The saved inputs of the `known-peers` fuzz target, in FuzzCorpus/ next to this file.
enum KnownPeersFuzzCorpus {
  /// One saved input, shown in test results by file name.
  struct Input: Sendable, CustomTestStringConvertible {
    let url: URL
    var testDescription: String { url.lastPathComponent }

    func bytes() throws -> [UInt8] { Array(try Data(contentsOf: url)) }
  }

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "FuzzCorpus")

  /// The inputs that reproduce known bugs (named bug-*), or all the others.
  static func inputs(knownBugs: Bool) -> [Input] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasPrefix("bug-") == knownBugs }.sorted().map {
      Input(url: directory.appendingPathComponent($0))
    }
  }
}
