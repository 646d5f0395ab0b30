import ExplainedErrors

/// Where something is in an SGF text: 1-based line and column (columns count characters, not bytes).
public struct SGFLocation: Sendable, Hashable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public var description: String { "line \(line), column \(column)" }
}

/// Why an SGF text was refused, and where: every corrupt, hostile or unsupported input ends as one of these.
public struct SGFError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  public let location: SGFLocation
  public let reason: String

  public init(_ reason: String, at location: SGFLocation) {
    self.location = location
    self.reason = reason
  }

  /// A stable name for the failure, for logs and tests: every refusal of an SGF text has this one.
  public var code: String { "sgf.refused" }

  /// What the player can do about it.
  public var hint: String? {
    "The file is not a game record this program can read: check that it is a GM[4] SGF file, whole."
  }

  public var description: String { "\(location): \(reason)" }
}
