/// The decisions about the records directory, kept pure: file names, and which files a size cap removes.
public enum RecordDirectory {
  /// The directory's size cap: 16 MiB, some 8000 games of 15×15 (a record of a full 15×15 game is about 2 KiB).
  public static let defaultCap = 16 << 20

  /// `2026-12-01T16-05-09-123Z-3fa9c1.sgf`: the UTC time (to the millisecond) the record was first written, so the
  /// names sort oldest first, then six random hex digits, so two games ending together do not collide and no name
  /// can be guessed.
  public static func fileName(
    year: Int, month: Int, day: Int, secondOfDay: Int, millisecond: Int, random: UInt32
  ) -> String {
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    let hex = String(random & 0xFF_FFFF, radix: 16)
    let time = "\(pad(secondOfDay / 3600, 2))-\(pad(secondOfDay % 3600 / 60, 2))-\(pad(secondOfDay % 60, 2))"
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(time)-\(pad(millisecond, 3))Z-"
      + String(repeating: "0", count: 6 - hex.count) + hex + ".sgf"
  }

  /// Whether `name` is one this program writes (so nothing else in the directory is ever listed or removed).
  public static func isRecordName(_ name: String) -> Bool {
    let scalars = Array(name.unicodeScalars)
    guard name.hasSuffix(".sgf"), scalars.count == 35, scalars[10] == "T", scalars[23] == "Z" else { return false }
    let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22]
    let separators = [4, 7, 13, 16, 19, 24]
    return digits.allSatisfy { ("0"..."9").contains(scalars[$0]) } && separators.allSatisfy { scalars[$0] == "-" }
      && scalars[25..<31].allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
  }

  /// The records to remove, oldest (smallest name) first, until the rest fit in `cap` bytes. The newest record
  /// is always kept, even when it alone is larger than the cap.
  public static func overCap(_ entries: [(name: String, bytes: Int)], cap: Int) -> [String] {
    let sorted = entries.sorted { $0.name < $1.name }
    var total = sorted.reduce(0) { $0 + $1.bytes }
    var removed: [String] = []
    for entry in sorted.dropLast() where total > cap {
      removed.append(entry.name)
      total -= entry.bytes
    }
    return removed
  }

  /// The bot's collection of one UTC day: `bot-2026-12-01.sgf`.
  public static func botCollectionName(day: String) -> String { "bot-\(day).sgf" }

  /// Whether `name` is a bot collection's (`bot-YYYY-MM-DD.sgf`).
  public static func isBotCollectionName(_ name: String) -> Bool {
    let scalars = Array(name.unicodeScalars)
    guard scalars.count == 18, name.hasPrefix("bot-"), name.hasSuffix(".sgf"), scalars[8] == "-", scalars[11] == "-"
    else { return false }
    return [4, 5, 6, 7, 9, 10, 12, 13].allSatisfy { ("0"..."9").contains(scalars[$0]) }
  }

  /// A day's collection stops growing at 4 MiB (half what the parser reads), so every collection stays readable.
  public static let botCollectionCap = 4 << 20
}
