/// Why the known-peers file could not be used; names the file, and the line for a bad entry.
public enum KnownPeersError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Line `line` (1-based) of `path` is not a valid entry.
  case malformed(path: String, line: Int, reason: String)
  /// The file exists but could not be read.
  case unreadable(path: String, reason: String)
  /// Someone else could change the file or its directory (`fix` is the command that stops that).
  case exposed(path: String, reason: String, fix: String)

  public var description: String {
    switch self {
    case .malformed(let path, let line, let reason):
      return "\(path):\(line): \(reason). Fix or delete that line (entries are"
        + " NAME SHA256:FINGERPRINT YYYY-MM-DD; lines starting with # are comments)."
    case .unreadable(let path, let reason):
      return "Could not read the known peers file \(path): \(reason)."
    case .exposed(let path, let reason, let fix):
      return "The known peers file \(path) \(reason), so someone else could make you trust their key. It was"
        + " not used: run `\(fix)`, and check the file."
    }
  }
}
