/// One property of an SGF node: its identifier (upper-case letters) and its values, escapes resolved.
public struct SGFProperty: Sendable, Hashable {
  public let identifier: String
  public let values: [String]
  /// Where the identifier starts, for errors about the property's meaning.
  public let location: SGFLocation

  public init(identifier: String, values: [String], location: SGFLocation) {
    self.identifier = identifier
    self.values = values
    self.location = location
  }
}

/// One node: the properties between a `;` and the next node.
public struct SGFNode: Sendable, Hashable {
  public let properties: [SGFProperty]
  /// Where the node's `;` is.
  public let location: SGFLocation

  public init(properties: [SGFProperty], location: SGFLocation) {
    self.properties = properties
    self.location = location
  }

  /// The property with this identifier, if the node has it.
  public subscript(identifier: String) -> SGFProperty? {
    properties.first { $0.identifier == identifier }
  }
}

/// One game of a collection, as its main line: the root node, then each move node, following the first variation
/// wherever the tree branches (the other variations are checked for syntax and dropped).
public struct SGFGameTree: Sendable, Hashable {
  public let nodes: [SGFNode]
  /// Where the game's `(` is.
  public let location: SGFLocation
}

/// The sizes an SGF text may not exceed, so a hostile file costs bounded time and memory.
public struct SGFLimits: Sendable, Hashable {
  public var maximumBytes: Int
  public var maximumNodes: Int
  public var maximumDepth: Int
  public var maximumValueBytes: Int
  public var maximumPropertiesPerNode: Int
  public var maximumGames: Int

  /// Room for a day of a bot's games (a 15×15 game has at most 226 nodes) and nothing near the stack or memory.
  public static let standard = SGFLimits(
    maximumBytes: 8 << 20, maximumNodes: 500_000, maximumDepth: 100, maximumValueBytes: 4096,
    maximumPropertiesPerNode: 100, maximumGames: 10_000)
}
