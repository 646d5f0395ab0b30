import Foundation
import PeerTrust
import Testing

@testable import Security

/// Replays the `known-peers` fuzzer's saved inputs (FuzzCorpus/, one file per input; scripts/fuzz.sh adds every
/// crash it finds): each must come to its expected outcome (so many peers, or the line and reason it is refused
/// for), and text that parses must render to text that parses to the same peers (the target's invariant).
/// Inputs named fixed-* reproduced bugs the fuzzer found (a comment ending in two carriage returns lost one
/// on every save), now fixed. Inputs named bug-* reproduce known bugs not fixed yet (there are none): their
/// replay is expected to fail (a known issue), and fails the suite once the bug is fixed, so the prefix is dropped.
@Suite struct KnownPeersFuzzRegressionTests {
  /// What a saved input must come to.
  enum Outcome: Equatable {
    /// Parses, to this many peers.
    case parses(peers: Int)
    /// Refused at this line, for a reason starting with this text.
    case refused(line: Int, reason: String)
  }

  /// Each saved input's outcome. A new input (a crash scripts/fuzz.sh saved) fails its replay until it is
  /// triaged and listed here.
  static let expected: [String: Outcome] = [
    "bad-percent-escape": .refused(line: 1, reason: #"the name "al%2" has a % not followed by two hex digits"#),
    "crlf-and-comments": .parses(peers: 2),
    "fixed-blank-line-ending-in-two-cr": .parses(peers: 0),
    "fixed-comment-ending-in-two-cr": .parses(peers: 0),
    "impossible-date": .refused(line: 1, reason: #""2026-02-30" is not a date of the form YYYY-MM-DD"#),
    // The replay, like the fuzz target, makes a String of the bytes first: the invalid bytes become U+FFFD, a
    // valid name. (Reading the file refuses invalid UTF-8 before parse sees it.)
    "invalid-utf8-name": .parses(peers: 1),
    "malformed-fingerprint": .refused(line: 1, reason: #""SHA256:47DEQpj8" is not a fingerprint of the form"#),
    "padded-fingerprint-no-final-newline": .parses(peers: 1),
    "two-fields": .refused(line: 2, reason: "expected 3 fields (name, fingerprint, date) but found 2"),
  ]

  @Test func corpusIsThere() {
    #expect(!KnownPeersFuzzCorpus.inputs(knownBugs: false).isEmpty, "no inputs in \(KnownPeersFuzzCorpus.directory)")
  }

  @Test(arguments: KnownPeersFuzzCorpus.inputs(knownBugs: false))
  func parseRenderParse(input: KnownPeersFuzzCorpus.Input) throws {
    try Self.check(input)
  }

  /// Each known bug's input still shows the bug; once one does not, this fails: drop that input's bug- prefix.
  /// (There are none now, so this checks nothing until there are.)
  @Test func everyKnownBugIsStillThere() throws {
    for input in KnownPeersFuzzCorpus.inputs(knownBugs: true) {
      withKnownIssue("\(input.testDescription) reproduces a known bug") { try Self.check(input) }
    }
  }

  static func check(_ input: KnownPeersFuzzCorpus.Input) throws {
    let name =
      input.testDescription.hasPrefix("bug-") ? String(input.testDescription.dropFirst(4)) : input.testDescription
    let expected = try #require(expected[name], "\(name) has no expected outcome: triage it and add it to `expected`")
    let text = String(decoding: try input.bytes(), as: UTF8.self)
    let peers: KnownPeers
    do throws(KnownPeersError) {
      peers = try KnownPeers.parse(text, path: "fuzz")
    } catch {
      guard case .malformed(path: "fuzz", let line, let reason) = error,
        case .refused(line, let start) = expected, reason.hasPrefix(start)
      else {
        Issue.record("refused with “\(error)”, expected \(expected)")
        return
      }
      return
    }
    #expect(
      expected == .parses(peers: peers.entries.count), "parsed to \(peers.entries.count) peers, expected \(expected)")
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
