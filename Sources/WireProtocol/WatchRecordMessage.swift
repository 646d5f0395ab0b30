/// The record of a watched game, for its spectators (`watch record`, 0x86; PROTOCOL.md rule 28): once the players'
/// signatures have crossed, the host sends the record it keeps, signed by both, as SGF text cut into parts of at
/// most `maximumRecordPartBytes`, the last marked. The text is the whole record, not its pieces: the spectator
/// holds the moves but not what else the players signed (the day, the joiner's key, every move's agreed times,
/// a flag claim's numbers, an opening's choices), and a record rebuilt from less would not verify.
extension Message {
  /// The most bytes of record text in one frame (a frame is at most 4,096 bytes with its fields).
  public static let maximumRecordPartBytes = 4000
  /// The most bytes a spectator gathers for one record (a 15×15 timed game's is about 8 KiB); more is a violation.
  public static let maximumWatchedRecordBytes = 64 * 1024

  /// The frames of the record `text` of game `game`: parts of at most `maximumRecordPartBytes`, the last marked.
  public static func watchRecordFrames(game: UInt16, text: String) -> [Message] {
    let bytes = Array(text.utf8)
    let starts = Array(stride(from: 0, to: max(bytes.count, 1), by: maximumRecordPartBytes))
    return starts.map { start in
      let end = min(start + maximumRecordPartBytes, bytes.count)
      return .watchRecord(game: game, part: Array(bytes[start..<end]), last: end == bytes.count)
    }
  }

  func writeWatchRecord(game: UInt16, part: [UInt8], last: Bool, into writer: inout FrameWriter) {
    writer.field(1, u16: game)
    writer.field(2, bytes: part)
    writer.field(3, u8: last ? 1 : 0)
  }

  /// Decodes `watch record`: the game's number, a part of 1 to `maximumRecordPartBytes` bytes (a part may end
  /// inside a character: the text is checked once whole), and whether it is the last.
  static func decodeWatchRecord(_ f: Fields) throws(WireError) -> Message {
    let game = try f.u16(1, "game number")
    let part = try f.bytes(2, "record text")
    guard (1...maximumRecordPartBytes).contains(part.count) else {
      throw .badValue("record text", reason: "it has \(part.count) bytes (1 to \(maximumRecordPartBytes))")
    }
    let last = try f.u8(3, "last")
    guard last <= 1 else { throw .badValue("last", reason: "it is \(last), not 0 or 1") }
    return .watchRecord(game: game, part: part, last: last == 1)
  }
}
