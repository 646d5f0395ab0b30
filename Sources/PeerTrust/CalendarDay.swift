/// A day in the UTC calendar, written `yyyy-mm-dd` (the date column of the known-peers file).
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// A valid calendar date; nil for impossible ones such as 2026-02-30.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return nil }
    let days = UTCCalendar.days(year: Int64(year), month: Int64(month), day: Int64(day))
    let check = UTCCalendar.date(days: days)
    guard check.month == Int64(month), check.day == Int64(day) else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The UTC day containing `secondsSince1970`.
  public init(secondsSince1970: Int64) {
    let date = UTCCalendar.date(days: UTCCalendar.floorDivide(secondsSince1970, 86_400))
    self.year = Int(date.year)
    self.month = Int(date.month)
    self.day = Int(date.day)
  }

  /// Parses exactly `yyyy-mm-dd`.
  public init?(parsing text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// Days since 1970-01-01, to tell how far apart two days are.
  public var daysSince1970: Int64 {
    UTCCalendar.days(year: Int64(year), month: Int64(month), day: Int64(day))
  }

  public var description: String {
    "\(UTCCalendar.pad(Int64(year), 4))-\(UTCCalendar.pad(Int64(month), 2))-\(UTCCalendar.pad(Int64(day), 2))"
  }

  public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }
}
