/// The index of the records directory that the per-opponent record is counted from, so that showing it does not
/// read every game: one line a record, `NAME SIZE MTIME BLACKKEY WHITEKEY BLACKLEVEL WHITELEVEL RESULT`
/// (tab-separated, `-` for none, the levels percent-escaped, the result `B`, `W`, `0` or `?`). An entry counts
/// only while its file has that size and modification time; a line that does not read is left out (its file is
/// read again). Pure: the caller lists the files and reads the ones the index does not cover.
public enum TallyIndex {
  /// A record file as the directory shows it.
  public struct FileStamp: Sendable, Hashable {
    public var name: String
    public var size: Int
    public var modified: Int64

    public init(name: String, size: Int, modified: Int64) {
      self.name = name
      self.size = size
      self.modified = modified
    }
  }

  public static func parse(_ text: String) -> [FileStamp: RecordSummary] {
    var entries: [FileStamp: RecordSummary] = [:]
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 8, let size = Int(fields[1]), let modified = Int64(fields[2]),
        let result = result(fields[7])
      else { continue }
      func optional(_ field: String) -> String? { field == "-" ? nil : field }
      // A level is `-` or escaped text; anything else spoils the line.
      let levels: [String??] = [fields[5], fields[6]].map { field -> String?? in
        field == "-" ? .some(nil) : unescaped(field).map { .some($0) }
      }
      guard let blackLevel = levels[0], let whiteLevel = levels[1] else { continue }
      entries[FileStamp(name: fields[0], size: size, modified: modified)] = RecordSummary(
        blackKey: optional(fields[3]), whiteKey: optional(fields[4]), blackLevel: blackLevel,
        whiteLevel: whiteLevel, result: result)
    }
    return entries
  }

  public static func render(_ entries: [FileStamp: RecordSummary]) -> String {
    entries.keys.sorted { $0.name < $1.name }.compactMap { stamp -> String? in
      guard let summary = entries[stamp], isPlain(stamp.name),
        [summary.blackKey, summary.whiteKey].allSatisfy({
          $0.map(isPlain) ?? true
        })
      else { return nil }
      let fields = [
        stamp.name, "\(stamp.size)", "\(stamp.modified)", summary.blackKey ?? "-", summary.whiteKey ?? "-",
        summary.blackLevel.map(escaped) ?? "-", summary.whiteLevel.map(escaped) ?? "-", token(summary.result),
      ]
      return fields.joined(separator: "\t") + "\n"
    }.joined()
  }

  /// Keys and names that can stand in a field as they are (base64 and record names do); others are not indexed.
  static func isPlain(_ text: String) -> Bool {
    !text.isEmpty && text != "-"
      && text.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && $0 != "%" }
  }

  static func token(_ result: RecordResult) -> String {
    switch result {
    case .won(.x, _): return "B"
    case .won(.o, _): return "W"
    case .drawn: return "0"
    case .void, .disputed, .unknown: return "?"
    }
  }

  /// The result as far as the tallies care (who won; the reason is not kept).
  static func result(_ token: String) -> RecordResult? {
    switch token {
    case "B": return .won(.x, .line)
    case "W": return .won(.o, .line)
    case "0": return .drawn(.full)
    case "?": return .unknown
    default: return nil
    }
  }

  /// Letters and digits as they are, every other byte as `%XX`.
  static func escaped(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      let scalar = Unicode.Scalar(byte)
      if scalar.isASCII
        && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
      {
        out.unicodeScalars.append(scalar)
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" : "") + hex
      }
    }
    return text.isEmpty ? "%" : out
  }

  /// The inverse of `escaped`; nil for text it cannot have made.
  static func unescaped(_ text: String) -> String? {
    if text == "%" { return "" }
    var bytes: [UInt8] = []
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%") {
        let start = utf8.index(after: index)
        guard let end = utf8.index(start, offsetBy: 2, limitedBy: utf8.endIndex),
          let value = UInt8(String(decoding: utf8[start..<end], as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(value)
        index = end
      } else {
        bytes.append(byte)
        index = utf8.index(after: index)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }
}
