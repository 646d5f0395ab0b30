/// The shape every module's error has, in the style of swift-certificates: a stable code (for the log, scripts
/// and tests), what happened, and what the player can do. Each module's errors conform where they are declared,
/// so a front end reads any of them through this one protocol.
public protocol ExplainedError: Error, CustomStringConvertible {
  /// A stable name, "module.failure" (`trust.key-changed`).
  var code: String { get }
  /// What happened, naming what it happened to.
  var reason: String { get }
  /// What the player can do about it; nil only where nothing can be done.
  var hint: String? { get }
}

/// An explained error kept as its three parts: what a module that must not know the error's own type (the pure
/// match, for Discovery's) carries, compares and shows.
public struct ExplainedFailure: ExplainedError, Sendable, Hashable {
  public let code: String
  public let reason: String
  public let hint: String?

  public init(code: String, reason: String, hint: String?) {
    self.code = code
    self.reason = reason
    self.hint = hint
  }

  /// `error`'s parts.
  public init(_ error: some ExplainedError) {
    self.init(code: error.code, reason: error.reason, hint: error.hint)
  }

  /// What happened and what the player can do, in a player's words.
  public var description: String { hint.map { "\(reason) \($0)" } ?? reason }
}
