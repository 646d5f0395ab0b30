/// Goes through known_peers a piece at a time and hands over each line as it is read, with its number and the
/// byte offset it starts at, keeping nothing but the start of a line split across pieces: what `KnownPeersReader`
/// gathers into `KnownPeers`, and what the index (`KnownPeersIndex`) and an excerpt read without keeping the
/// file. A line longer than `KnownPeersReader.lineLimit` is refused as it arrives. A last line without its
/// newline that is not valid UTF-8 or not an entry was cut short by a writer that was killed: it is not handed
/// over and its number is kept (`droppedTornLine`); any other bad line is refused with its number.
package struct KnownPeersScanner {
  /// Where a line is in the file.
  package struct Place: Sendable, Equatable {
    /// 1-based.
    package var line: Int
    /// The byte offset of the line's first byte.
    package var offset: Int
  }

  private let path: String
  /// The start of a line whose end is in a later piece.
  private var partial: [UInt8] = []
  private var lineNumber = 0
  /// Bytes handed to `feed` so far.
  private var consumed = 0
  /// The offset of the line being gathered.
  private var lineStart = 0
  /// Most lines of a big file were added on few days: each date is read once.
  private var dates: [ArraySlice<UInt8>: CalendarDay] = [:]
  /// The line of a last line cut short, once `finish` found one.
  package private(set) var droppedTornLine: Int?
  /// Lines read so far (a torn last line among them).
  package var lines: Int { lineNumber }

  package init(path: String) { self.path = path }

  /// Reads the lines that end in `piece` (and the start of one that does not) and hands each to `take`.
  package mutating func feed(
    _ piece: ArraySlice<UInt8>, _ take: (KnownPeers.Line, Place) throws(KnownPeersError) -> Void
  ) throws(KnownPeersError) {
    var rest = piece
    while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
      if partial.isEmpty {
        try scan(rest[..<newline], last: false, take)
      } else {
        partial += rest[..<newline]
        try scan(partial[...], last: false, take)
        partial = []
      }
      rest = rest[(newline + 1)...]
      lineStart = consumed + (rest.startIndex - piece.startIndex)
    }
    partial += rest
    consumed += piece.count
    guard partial.count <= KnownPeersReader.lineLimit else { throw tooLong(lineNumber + 1) }
  }

  /// Reads the last line, ended by the end of the file.
  package mutating func finish(_ take: (KnownPeers.Line, Place) throws(KnownPeersError) -> Void)
    throws(KnownPeersError)
  {
    if !partial.isEmpty { try scan(partial[...], last: true, take) }
    partial = []
  }

  /// Every line, ended or not, complete in one piece or not, is held to the same limit.
  private func tooLong(_ line: Int) -> KnownPeersError {
    .malformed(path: path, line: line, reason: "the line is longer than \(KnownPeersReader.lineLimit >> 20) MiB")
  }

  private mutating func scan(
    _ line: ArraySlice<UInt8>, last: Bool, _ take: (KnownPeers.Line, Place) throws(KnownPeersError) -> Void
  ) throws(KnownPeersError) {
    lineNumber += 1
    guard line.count <= KnownPeersReader.lineLimit else { throw tooLong(lineNumber) }
    var bytes = line
    // CRLF files: drop every carriage return at the end, so a rendered file reads back the same.
    while bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    var reason = "the line is not valid UTF-8 text"
    var parsed: KnownPeers.Line?
    if String(validating: bytes, as: UTF8.self) != nil {
      do {
        parsed = try KnownPeers.parseLine(bytes, dates: &dates)
      } catch {
        reason = error.reason
      }
    }
    if let parsed {
      try take(parsed, Place(line: lineNumber, offset: lineStart))
      return
    }
    guard last else { throw .malformed(path: path, line: lineNumber, reason: reason) }
    droppedTornLine = lineNumber
  }
}
