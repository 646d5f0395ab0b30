import ExplainedErrors

/// Why bytes from the peer could not be understood. Any of these ends the session: the peer is told why
/// (an error message) and the connection is closed.
public enum WireError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
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

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .emptyFrame: "wire.empty-frame"
    case .oversize: "wire.oversize"
    case .truncatedField: "wire.truncated-field"
    case .duplicateField: "wire.duplicate-field"
    case .missingField: "wire.missing-field"
    case .invalidUTF8: "wire.invalid-utf8"
    case .fieldTooLong: "wire.field-too-long"
    case .badValue: "wire.bad-value"
    case .endedMidFrame: "wire.ended-mid-frame"
    case .unknownFlood: "wire.unknown-flood"
    }
  }

  /// What was wrong with the bytes (what `description` says: it is sent to the peer as it is).
  public var reason: String {
    switch self {
    case .emptyFrame: "a frame of length 0"
    case .oversize(let length, let maximum): "a frame of \(length) bytes (the limit is \(maximum))"
    case .truncatedField(let tag): "field \(tag) runs past the end of its frame"
    case .duplicateField(let tag): "field \(tag) appears twice"
    case .missingField(let name, let message): "\(message) without its \(name)"
    case .invalidUTF8(let field): "the \(field) is not valid UTF-8"
    case .fieldTooLong(let name, let length, let maximum): "a \(name) of \(length) bytes (the limit is \(maximum))"
    case .badValue(let name, let reason): "a bad \(name): \(reason)"
    case .endedMidFrame(let pending): "the connection ended in the middle of a frame (\(pending) bytes)"
    case .unknownFlood(let count, let seconds):
      "more than \(count) frames of unknown types within \(seconds == 1 ? "a second" : "\(seconds) seconds")"
    }
  }

  /// What the player can do: the same for every case, since the other program is at fault.
  public var hint: String? {
    switch self {
    case .endedMidFrame: "Connect again when the other side is back."
    default: "The other program does not speak tictactoe's protocol correctly: ask its player to update it."
    }
  }

  public var description: String { reason }
}
