/// Bytes from a pipe cut into protocol lines (LF or CR LF ends one), with a bound: a line longer than
/// `ProtocolText.lineLimit` is kept only as its first `lineLimit + 1` bytes, the rest dropped up to its end, so
/// that it is refused once, however long it runs, and nothing grows without end.
public struct LineSplitter: Sendable {
  private var current: [UInt8] = []
  private var overlong = false

  public init() {}

  /// The lines the bytes complete, without their ends.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [String] {
    var lines: [String] = []
    for byte in bytes {
      if byte == 10 {
        if current.last == 13, !overlong { current.removeLast() }
        lines.append(String(decoding: current, as: UTF8.self))
        current.removeAll(keepingCapacity: true)
        overlong = false
      } else if current.count <= ProtocolText.lineLimit {
        current.append(byte)
      } else {
        overlong = true
      }
    }
    return lines
  }

  /// What is left when the input ends: a last line without its end, if any.
  public mutating func finish() -> [String] {
    defer { current.removeAll() }
    return current.isEmpty ? [] : [String(decoding: current, as: UTF8.self)]
  }
}
