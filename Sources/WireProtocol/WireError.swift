/// Why bytes from the peer could not be understood. Any of these ends the session: the peer is told why
/// (an error message) and the connection is closed.
public enum WireError: Error, Sendable, Equatable, CustomStringConvertible {
  case emptyFrame
  case oversize(length: Int, maximum: Int)
  case truncatedField(tag: UInt8)
  case duplicateField(tag: UInt8)
  case missingField(String, in: String)
  case invalidUTF8(field: String)
  case fieldTooLong(String, length: Int, maximum: Int)
  case badValue(String, reason: String)
  case endedMidFrame(pending: Int)
  /// More frames of unknown types than `UnknownFrameLimit` allows.
  case unknownFlood(count: Int, seconds: Double)

  public var description: String {
    switch self {
    case .emptyFrame: return "a frame of length 0"
    case .oversize(let length, let maximum): return "a frame of \(length) bytes (the limit is \(maximum))"
    case .truncatedField(let tag): return "field \(tag) runs past the end of its frame"
    case .duplicateField(let tag): return "field \(tag) appears twice"
    case .missingField(let name, let message): return "\(message) without its \(name)"
    case .invalidUTF8(let field): return "the \(field) is not valid UTF-8"
    case .fieldTooLong(let name, let length, let maximum):
      return "a \(name) of \(length) bytes (the limit is \(maximum))"
    case .badValue(let name, let reason): return "a bad \(name): \(reason)"
    case .endedMidFrame(let pending): return "the connection ended in the middle of a frame (\(pending) bytes)"
    case .unknownFlood(let count, let seconds):
      return "more than \(count) frames of unknown types within \(seconds == 1 ? "a second" : "\(seconds) seconds")"
    }
  }
}
