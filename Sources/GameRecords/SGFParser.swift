/// Reads the syntax of SGF (FF[4]): a collection of game trees of nodes of properties. Iterative, so nesting
/// cannot exhaust the stack, and bounded by `SGFLimits`; every refusal is an `SGFError` with a line and column.
public enum SGFParser {
  public static func parse(_ text: String, limits: SGFLimits = .standard) throws(SGFError) -> [SGFGameTree] {
    try parse(Array(text.utf8), limits: limits)
  }

  public static func parse(_ bytes: [UInt8], limits: SGFLimits = .standard) throws(SGFError) -> [SGFGameTree] {
    var reader = SGFReader(bytes: bytes, limits: limits)
    guard bytes.count <= limits.maximumBytes else {
      throw SGFError("the file is \(bytes.count) bytes, more than \(limits.maximumBytes)", at: reader.location)
    }
    return try reader.collection()
  }
}

/// A cursor over the bytes that knows its line and column.
private struct SGFReader {
  let bytes: [UInt8]
  let limits: SGFLimits
  var index = 0
  var location = SGFLocation(line: 1, column: 1)
  var nodeCount = 0

  init(bytes: [UInt8], limits: SGFLimits) {
    self.bytes = bytes
    self.limits = limits
  }

  /// One level of the tree being read: whether it lies on the main line, and what it has seen so far.
  struct Level {
    var isMainLine: Bool
    var nodes = 0
    var variations = 0
  }

  var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func advance() {
    let byte = bytes[index]
    index += 1
    if byte == 0x0A || (byte == 0x0D && peek != 0x0A) {
      location = SGFLocation(line: location.line + 1, column: 1)
    } else if byte & 0xC0 != 0x80 && byte != 0x0D {
      location.column += 1
    }
  }

  mutating func skipWhitespace() {
    while let byte = peek, byte == 0x20 || (0x09...0x0D).contains(byte) { advance() }
  }

  func fail(_ reason: String, at place: SGFLocation? = nil) -> SGFError {
    SGFError(reason, at: place ?? location)
  }

  func shown(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
  }

  mutating func collection() throws(SGFError) -> [SGFGameTree] {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    var games: [SGFGameTree] = []
    skipWhitespace()
    guard peek != nil else { throw fail("the file holds no game: an SGF game starts with '('") }
    while let byte = peek {
      guard byte == UInt8(ascii: "(") else { throw fail("expected '(' to start a game, found \(shown(byte))") }
      guard games.count < limits.maximumGames else { throw fail("more than \(limits.maximumGames) games") }
      games.append(try gameTree())
      skipWhitespace()
    }
    return games
  }

  /// One game tree, from its `(` to its matching `)`.
  mutating func gameTree() throws(SGFError) -> SGFGameTree {
    let start = location
    advance()
    var levels = [Level(isMainLine: true)]
    var nodes: [SGFNode] = []
    while true {
      skipWhitespace()
      guard let byte = peek else {
        throw fail("the file ends inside the game that starts at \(start): a ')' is missing")
      }
      switch byte {
      case UInt8(ascii: ";"):
        guard levels[levels.count - 1].variations == 0 else {
          throw fail("a node after a variation: a variation must be the last thing in its tree")
        }
        nodeCount += 1
        guard nodeCount <= limits.maximumNodes else { throw fail("more than \(limits.maximumNodes) nodes") }
        let node = try self.node()
        levels[levels.count - 1].nodes += 1
        if levels[levels.count - 1].isMainLine { nodes.append(node) }
      case UInt8(ascii: "("):
        guard levels[levels.count - 1].nodes > 0 else { throw fail("a game tree must begin with a node (';')") }
        guard levels.count < limits.maximumDepth else {
          throw fail("variations nested more than \(limits.maximumDepth) deep")
        }
        let parent = levels[levels.count - 1]
        levels[levels.count - 1].variations += 1
        levels.append(Level(isMainLine: parent.isMainLine && parent.variations == 0))
        advance()
      case UInt8(ascii: ")"):
        guard levels[levels.count - 1].nodes > 0 else { throw fail("an empty game tree: '()' holds no node") }
        advance()
        levels.removeLast()
        if levels.isEmpty { return SGFGameTree(nodes: nodes, location: start) }
      default:
        throw fail("expected ';', '(' or ')', found \(shown(byte))")
      }
    }
  }

  /// A node from its `;`: the properties up to the next `;`, `(` or `)`.
  mutating func node() throws(SGFError) -> SGFNode {
    let start = location
    advance()
    var properties: [SGFProperty] = []
    while true {
      skipWhitespace()
      guard let byte = peek, isLetter(byte) else { break }
      let property = try self.property()
      if properties.contains(where: { $0.identifier == property.identifier }) {
        throw fail("the property \(property.identifier) appears twice in one node", at: property.location)
      }
      guard properties.count < limits.maximumPropertiesPerNode else {
        throw fail("more than \(limits.maximumPropertiesPerNode) properties in one node", at: property.location)
      }
      properties.append(property)
    }
    return SGFNode(properties: properties, location: start)
  }

  func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }

  /// An identifier and its values. Lower-case letters (FF[3] long names such as `AddBlack`) are dropped.
  mutating func property() throws(SGFError) -> SGFProperty {
    let start = location
    var identifier = ""
    var length = 0
    while let byte = peek, isLetter(byte) {
      length += 1
      guard length <= 32 else { throw fail("a property name longer than 32 letters", at: start) }
      if byte <= UInt8(ascii: "Z") { identifier.unicodeScalars.append(Unicode.Scalar(byte)) }
      advance()
    }
    guard !identifier.isEmpty else { throw fail("a property name needs an upper-case letter", at: start) }
    var values: [String] = []
    skipWhitespace()
    while peek == UInt8(ascii: "[") {
      guard values.count < 1000 else { throw fail("more than 1000 values for \(identifier)", at: start) }
      values.append(try value(of: identifier))
      skipWhitespace()
    }
    guard !values.isEmpty else {
      let found = peek.map(shown) ?? "the end of the file"
      throw fail("the property \(identifier) has no value: expected '[', found \(found)")
    }
    return SGFProperty(identifier: identifier, values: values, location: start)
  }

  /// A value from `[` to the unescaped `]`: `\` keeps the next character, `\` before a line break removes it.
  mutating func value(of identifier: String) throws(SGFError) -> String {
    let start = location
    advance()
    var text: [UInt8] = []
    while true {
      guard let byte = peek else { throw fail("the value of \(identifier) is not closed: a ']' is missing", at: start) }
      advance()
      if byte == UInt8(ascii: "]") { break }
      var kept = byte
      if byte == UInt8(ascii: "\\") {
        guard let next = peek else { continue }
        advance()
        if next == 0x0A || next == 0x0D {
          if let pair = peek, pair != next, pair == 0x0A || pair == 0x0D { advance() }
          continue
        }
        kept = next
      }
      guard text.count < limits.maximumValueBytes else {
        throw fail("the value of \(identifier) is longer than \(limits.maximumValueBytes) bytes", at: start)
      }
      text.append(kept)
    }
    return String(decoding: text, as: UTF8.self)
  }
}
