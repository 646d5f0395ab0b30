import GameCore
import Testing

@testable import GameRecords

/// The SGF syntax: what a well-formed file gives, and the line and column of every kind of corrupt or hostile one.
@Suite struct SGFParserTests {
  @Test func readsTheMainLineAndDropsOtherVariations() throws {
    let text = "(;GM[4]SZ[3];B[aa](;W[bb];B[cc])(;W[cc]))"
    let trees = try SGFParser.parse(text)
    #expect(trees.count == 1)
    let moves = trees[0].nodes.compactMap { $0["B"] ?? $0["W"] }.map { "\($0.identifier)[\($0.values[0])]" }
    #expect(moves == ["B[aa]", "W[bb]", "B[cc]"])
  }

  @Test func resolvesEscapesAndSoftLineBreaks() throws {
    let text = "(;C[a\\]b\\\\c\\\nd\\\r\ne]PB[x\\:y])"
    let root = try SGFParser.parse(text)[0].nodes[0]
    #expect(root["C"]?.values == ["a]b\\cde"])
    #expect(root["PB"]?.values == ["x:y"])
  }

  @Test func dropsLowerCaseLettersOfOldLongNames() throws {
    let root = try SGFParser.parse("(;GaMe[4]SiZe[9])")[0].nodes[0]
    #expect(root.properties.map(\.identifier) == ["GM", "SZ"])
  }

  @Test func acceptsAByteOrderMarkAndWhitespaceAroundGames() throws {
    let trees = try SGFParser.parse([0xEF, 0xBB, 0xBF] + Array(" \n(;GM[4])\r\n\t(;GM[4])\n".utf8))
    #expect(trees.count == 2)
    #expect(trees[1].location == SGFLocation(line: 3, column: 2))
  }

  /// Each hostile input, the line and column it is refused at, and the start of the reason.
  static let refusals: [(String, Int, Int, String)] = [
    ("", 1, 1, "the file holds no game"),
    ("  \n  ", 2, 3, "the file holds no game"),
    ("x(;GM[4])", 1, 1, "expected '(' to start a game, found 'x'"),
    ("(;GM[4])junk", 1, 9, "expected '(' to start a game, found 'j'"),
    ("(;GM[4]", 1, 8, "the file ends inside the game that starts at line 1, column 1"),
    ("(;GM[4", 1, 5, "the value of GM is not closed"),
    ("(;GM[4]\n;C[ab\\]", 2, 3, "the value of C is not closed"),
    ("()", 1, 2, "an empty game tree"),
    ("((;GM[4]))", 1, 2, "a game tree must begin with a node"),
    ("(;GM[4](;B[aa]);W[bb])", 1, 16, "a node after a variation"),
    ("(;GM[4]GM[4])", 1, 8, "the property GM appears twice"),
    ("(;gm[4])", 1, 3, "a property name needs an upper-case letter"),
    ("(;GM 4)", 1, 6, "the property GM has no value: expected '[', found '4'"),
    ("(;GM[4]\n  ;B[aa]\u{7}W[bb])", 2, 9, "expected ';', '(' or ')', found byte 0x7"),
    ("(;PB[é]é)", 1, 8, "expected ';', '(' or ')', found byte 0xc3"),
  ]

  @Test(arguments: refusals.indices)
  func refusesWithItsLineAndColumn(index: Int) {
    let (text, line, column, reason) = Self.refusals[index]
    #expect {
      _ = try SGFParser.parse(text)
    } throws: { error in
      guard let error = error as? SGFError else { return false }
      return error.location == SGFLocation(line: line, column: column) && error.reason.hasPrefix(reason)
    }
  }

  @Test func boundsNestingWithoutUsingTheStack() {
    let deep = String(repeating: "(;", count: 200_000) + String(repeating: ")", count: 200_000)
    #expect(throws: SGFError("variations nested more than 100 deep", at: SGFLocation(line: 1, column: 201))) {
      _ = try SGFParser.parse(deep)
    }
  }

  @Test func boundsTheFileTheNodesTheValuesAndTheProperties() {
    var limits = SGFLimits.standard
    limits.maximumBytes = 10
    #expect(throws: SGFError("the file is 11 bytes, more than 10", at: SGFLocation(line: 1, column: 1))) {
      _ = try SGFParser.parse("(;GM[4]C[])", limits: limits)
    }
    #expect(throws: SGFError.self) {
      _ = try SGFParser.parse("(" + String(repeating: ";", count: 500_001) + ")")
    }
    let long = "(;C[" + String(repeating: "x", count: 5000) + "])"
    #expect(throws: SGFError("the value of C is longer than 4096 bytes", at: SGFLocation(line: 1, column: 4))) {
      _ = try SGFParser.parse(long)
    }
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    let many = (0..<101).map { "\(letters[$0 / 26])\(letters[$0 % 26])[1]" }.joined()
    #expect(throws: SGFError.self) { _ = try SGFParser.parse("(;" + many + ")") }
    let name = String(repeating: "A", count: 33)
    #expect(throws: SGFError("a property name longer than 32 letters", at: SGFLocation(line: 1, column: 3))) {
      _ = try SGFParser.parse("(;\(name)[1])")
    }
  }

  @Test func countsColumnsInCharactersNotBytes() {
    #expect(throws: SGFError("expected ';', '(' or ')', found '!'", at: SGFLocation(line: 2, column: 5))) {
      _ = try SGFParser.parse("(;C[\n日本語]!)")
    }
  }
}
