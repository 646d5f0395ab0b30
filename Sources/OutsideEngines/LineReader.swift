import Glibc

/// Reads whole lines from a descriptor without blocking, without their LF or CRLF ends.
package struct LineReader {
  let fd: Int32
  private var buffer: [UInt8] = []
  package private(set) var closed = false

  /// The longest line kept whole.
  static let lineLimit = 64 * 1024

  package init(fd: Int32) { self.fd = fd }

  package mutating func readLines() -> [String] {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = read(fd, &chunk, chunk.count)
    if count <= 0 {
      if count == 0 || (errno != EAGAIN && errno != EINTR) {
        closed = true
        if !buffer.isEmpty {
          defer { buffer.removeAll() }
          return [String(decoding: buffer, as: UTF8.self)]
        }
      }
      return []
    }
    buffer += chunk[0..<count]
    var lines: [String] = []
    while let newline = buffer.firstIndex(of: 10) {
      // A line ends with LF or CRLF (as readLine takes it).
      let end = newline > buffer.startIndex && buffer[newline - 1] == 13 ? newline - 1 : newline
      lines.append(String(decoding: buffer[..<end], as: UTF8.self))
      buffer.removeSubrange(...newline)
    }
    // Input with no line end (a file without newlines, /dev/zero) is taken a long line at a time, so the buffer
    // does not grow without end: no move or answer comes near this length.
    if buffer.count >= LineReader.lineLimit {
      lines.append(String(decoding: buffer, as: UTF8.self))
      buffer.removeAll(keepingCapacity: true)
    }
    return lines
  }
}
