extension Message {
  /// Decodes a `record signature` (0x70): the game's number, the date its record carries, the signature.
  static func decodeRecordSignature(_ f: Fields) throws(WireError) -> Message {
    let game = try f.u16(1, "game number")
    let date = try f.string(2, "date", maximum: 10)
    let digits = date.utf8.enumerated().allSatisfy { index, byte in
      index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
    guard date.utf8.count == 10, digits else { throw .badValue("date", reason: "it is not of the form YYYY-MM-DD") }
    let signature = try f.bytes(3, "signature")
    guard (1...maximumSignatureBytes).contains(signature.count) else {
      throw .badValue("signature", reason: "it has \(signature.count) bytes (1 to \(maximumSignatureBytes))")
    }
    return .recordSignature(game: game, date: date, signature: signature)
  }
}
