import Foundation
import TestSupport
import Testing

@testable import App
@testable import FrontEnds
@testable import PlayerFiles

/// The C-library replacements for what App used to take from Foundation, checked against Foundation itself
/// (the tests may link it; the program does not).
@Suite struct WithoutFoundationTests {
  static let texts = [
    "", " ", "\t", "  size = 3  ", "\tname=Ann\t", "a b", " \u{00A0}nbsp\u{2003} ", "line\n", "\r\nboth\r\n",
    "\n  \n", "x\u{2028}", "  ✌️ ", "é\u{301} ", "\u{0B}vt\u{0C}",
  ]

  @Test(arguments: texts)
  func trimmingMatchesFoundation(text: String) {
    #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    #expect(text.trimmingNewlines() == text.trimmingCharacters(in: .newlines))
    #expect(Substring(text).trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
  }

  @Test func pathParts() {
    let cases: [(path: String, directory: String, last: String)] = [
      ("/a/b/c", "/a/b", "c"), ("/a/b/c/", "/a/b", "c"), ("/c", "/", "c"), ("c", ".", "c"), ("a/b", "a", "b"),
      ("/tmp/x/.settings.conf", "/tmp/x", ".settings.conf"),
    ]
    for (path, directory, last) in cases {
      #expect(FileSystem.directory(of: path) == directory, "\(path)")
      #expect(FileSystem.lastComponent(of: path) == last, "\(path)")
    }
  }

  @Test func timestampsMatchISO8601DateFormatter() {
    let formatter = ISO8601DateFormatter()
    for seconds in [0, 59, 951_782_400, 1_798_243_199, 1_800_000_000, 4_102_444_800] {
      let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
      #expect(Log.timestamp(time_t(seconds)) == expected)
    }
  }

  @Test func jsonParsesBackToTheSameValues() throws {
    let value = JSONText.array([
      .object([
        "name": .string("Ann \"the host\" / \\ \u{01}\n\t✌️"), "port": .number(7177),
        "rules": .object(["rows": .number(3), "k": .number(3)]), "addresses": .array([]),
      ])
    ])
    #expect(
      value.text
        == "[{\"addresses\":[],\"name\":\"Ann \\\"the host\\\" / \\\\ \\u0001\\n\\t✌️\",\"port\":7177,"
        + "\"rules\":{\"k\":3,\"rows\":3}}]")
    let parsed = try #require(try JSONSerialization.jsonObject(with: Data(value.text.utf8)) as? [[String: Any]])
    #expect(parsed.first?["name"] as? String == "Ann \"the host\" / \\ \u{01}\n\t✌️")
    #expect(parsed.first?["port"] as? Int == 7177)
    #expect((parsed.first?["rules"] as? [String: Int]) == ["rows": 3, "k": 3])
  }

  @Test func filesAreMadeReadAndFound() throws {
    let root = TestDirectory.path("posix")
    defer { try? FileManager.default.removeItem(atPath: root) }
    let nested = root + "/one/two"
    try FileSystem.makeDirectories(nested)
    try FileSystem.makeDirectories(nested)  // again: already there is fine
    var attributes = try FileManager.default.attributesOfItem(atPath: nested)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    #expect(!FileSystem.exists(nested + "/file"))
    #expect(FileSystem.contents(nested + "/file") == nil)
    try AtomicFile.write("héllo\n", to: nested + "/file")
    #expect(FileSystem.exists(nested + "/file"))
    #expect(FileSystem.contents(nested + "/file") == Array("héllo\n".utf8))
    attributes = try FileManager.default.attributesOfItem(atPath: nested + "/file")
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let big = String(repeating: "0123456789", count: 5_000)
    try AtomicFile.write(big, to: nested + "/big")
    #expect(FileSystem.contents(nested + "/big")?.count == big.utf8.count)
    #expect(throws: FileError.self) { try FileSystem.makeDirectories(nested + "/file/below") }
  }

  @Test func theEnvironmentIsRead() {
    #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
  }
}
