import ExplainedErrors
import UntrustedText

/// Why the known-peers file could not be used; names the file, and the line for a bad entry.
public enum KnownPeersError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// Line `line` (1-based) of `path` is not a valid entry.
  case malformed(path: String, line: Int, reason: String)
  /// The file exists but could not be read.
  case unreadable(path: String, reason: String)
  /// Someone else could change the file or its directory (`fix` is the command that stops that).
  case exposed(path: String, reason: String, fix: String)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .malformed: "known-peers.malformed"
    case .unreadable: "known-peers.unreadable"
    case .exposed: "known-peers.exposed"
    }
  }

  /// What is wrong with the file.
  public var reason: String {
    switch self {
    // The reason quotes the line's own bytes: through the one sanitiser, as the path.
    case .malformed(let path, let line, let reason): VisibleText.escaping("\(path):\(line): \(reason).")
    case .unreadable(let path, let reason): "Could not read the known peers file \(path): \(reason)."
    case .exposed(let path, let reason, _):
      "The known peers file \(path) \(reason), so someone else could make you trust their key. It was not used:"
    }
  }

  /// What the player can do about it.
  public var hint: String? {
    switch self {
    case .malformed:
      "Fix or delete that line (entries are NAME SHA256:FINGERPRINT YYYY-MM-DD; lines starting with # are comments)."
    case .unreadable: "Check that it is a file you may read, or move it away (every peer is then new again)."
    case .exposed(_, _, let fix): "run `\(fix)`, and check the file."
    }
  }

  public var description: String { hint.map { "\(reason) \($0)" } ?? reason }
}
