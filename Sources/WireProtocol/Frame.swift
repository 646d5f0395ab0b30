/// One frame on the wire: a message type and its payload. On the wire a frame is a 2-byte big-endian
/// length (of the type byte plus the payload), the type byte, then the payload.
public struct Frame: Sendable, Equatable {
  /// The largest frame length accepted (type + payload), checked before anything is buffered for it.
  public static let maximumLength = 4096

  public let type: UInt8
  public let payload: [UInt8]

  public init(type: UInt8, payload: [UInt8]) {
    self.type = type
    self.payload = payload
  }

  /// The frame as bytes to send.
  public var bytes: [UInt8] {
    let length = payload.count + 1
    return [UInt8(length >> 8), UInt8(length & 0xFF), type] + payload
  }
}

/// Cuts a byte stream into frames. Feed it whatever arrived; take frames out until it returns nil.
public struct FrameDecoder: Sendable {
  private var buffer: [UInt8] = []
  private var start = 0

  public init() {}

  /// Bytes received but not yet part of a whole frame.
  public var pendingCount: Int { buffer.count - start }

  public mutating func feed(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { feed($0) }
  }

  /// `feed` from bytes the caller lends (a read's scratch space): copied into the decoder's buffer.
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
    if start > 0 && start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next whole frame, nil when more bytes are needed, or an error for a length that can never be valid.
  public mutating func next() throws(WireError) -> Frame? {
    guard buffer.count - start >= 2 else { return nil }
    let length = Int(buffer[start]) << 8 | Int(buffer[start + 1])
    guard length > 0 else { throw .emptyFrame }
    guard length <= Frame.maximumLength else { throw .oversize(length: length, maximum: Frame.maximumLength) }
    guard buffer.count - start >= 2 + length else { return nil }
    let frame = Frame(type: buffer[start + 2], payload: Array(buffer[(start + 3)..<(start + 2 + length)]))
    start += 2 + length
    if start > 8192 {
      buffer.removeFirst(start)
      start = 0
    }
    return frame
  }
}
