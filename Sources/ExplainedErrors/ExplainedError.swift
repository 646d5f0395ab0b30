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
