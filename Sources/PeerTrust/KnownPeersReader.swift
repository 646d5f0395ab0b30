/// Reads known_peers a piece at a time, so a big file is never held whole besides its entries: `feed` the
/// pieces in order, then `finish`. A line may be split across pieces. A last line without its newline that is
/// not valid UTF-8 or not an entry was cut short by a writer that was killed: it is dropped
/// (`KnownPeers.droppedTornLine`); any other bad line is refused with its number.
package struct KnownPeersReader {
  /// A line longer than this is refused as it arrives (no entry comes near it): a file that is not
  /// known_peers, with no newline in it, is not read whole into memory to say so.
  package static let lineLimit = 1 << 20

  private let path: String
  private var peers = KnownPeers()
  /// The start of a line whose end is in a later piece.
  private var partial: [UInt8] = []
  private var lineNumber = 0
  /// Most lines of a big file were added on few days: each date is read once.
  private var dates: [ArraySlice<UInt8>: CalendarDay] = [:]

  package init(path: String) { self.path = path }

  package mutating func feed(_ piece: ArraySlice<UInt8>) throws(KnownPeersError) {
    var rest = piece
    while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
      if partial.isEmpty {
        try take(rest[..<newline], last: false)
      } else {
        partial += rest[..<newline]
        try take(partial[...], last: false)
        partial = []
      }
      rest = rest[(newline + 1)...]
    }
    partial += rest
    guard partial.count <= KnownPeersReader.lineLimit else { throw tooLong(lineNumber + 1) }
  }

  /// Every line, ended or not, complete in one piece or not, is held to the same limit.
  private func tooLong(_ line: Int) -> KnownPeersError {
    .malformed(path: path, line: line, reason: "the line is longer than \(KnownPeersReader.lineLimit >> 20) MiB")
  }

  /// The peers read; the last line is the one that may have been torn.
  package mutating func finish() throws(KnownPeersError) -> KnownPeers {
    if !partial.isEmpty { try take(partial[...], last: true) }
    partial = []
    return peers
  }

  private mutating func take(_ line: ArraySlice<UInt8>, last: Bool) throws(KnownPeersError) {
    lineNumber += 1
    guard line.count <= KnownPeersReader.lineLimit else { throw tooLong(lineNumber) }
    var bytes = line
    // CRLF files: drop every carriage return at the end, so a rendered file reads back the same.
    while bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    let reason: String
    if String(validating: bytes, as: UTF8.self) == nil {
      reason = "the line is not valid UTF-8 text"
    } else {
      do {
        peers.append(try KnownPeers.parseLine(bytes, dates: &dates))
        return
      } catch {
        reason = error.reason
      }
    }
    guard last else { throw .malformed(path: path, line: lineNumber, reason: reason) }
    peers.droppedTornLine = lineNumber
  }
}
