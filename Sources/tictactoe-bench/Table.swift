/// One line of the results: a figure, the project's value, the baseline it is compared with, and their ratio.
struct Row {
  enum Unit {
    /// Nanoseconds, printed as ns, µs, ms or s.
    case time
    /// Events per second.
    case perSecond
    /// Bytes, printed as kB or MB.
    case bytes
    /// Percent of one CPU.
    case percent
  }

  var figure: String
  var value: Double
  var baseline: Double
  /// What the baseline is, e.g. "OpenSSL C" or "budget".
  var baselineKind: String
  var unit: Unit

  /// value / baseline: below 1 means the project is faster (or smaller) than the baseline for times and
  /// sizes; for rates above 1 is better.
  var ratio: Double { value / baseline }
}

/// Prints rows as a Markdown table that can be pasted into docs/BENCHMARKS.md.
enum Table {
  static func render(_ rows: [Row]) -> String {
    var lines = [
      "| Figure | Project | Baseline | Ratio |",
      "|---|---|---|---|",
    ]
    for row in rows {
      let value = format(row.value, row.unit)
      let baseline = format(row.baseline, row.unit) + " (" + row.baselineKind + ")"
      // A baseline of zero (an idle process that never woke) leaves the ratio undefined.
      let ratio = row.baseline == 0 ? "n/a" : significant(row.ratio) + "×"
      lines.append("| \(row.figure) | \(value) | \(baseline) | \(ratio) |")
    }
    return lines.joined(separator: "\n")
  }

  static func format(_ value: Double, _ unit: Row.Unit) -> String {
    switch unit {
    case .time:
      if value < 1_000 { return significant(value) + " ns" }
      if value < 1_000_000 { return significant(value / 1_000) + " µs" }
      if value < 1_000_000_000 { return significant(value / 1_000_000) + " ms" }
      return significant(value / 1_000_000_000) + " s"
    case .perSecond:
      return significant(value) + "/s"
    case .bytes:
      if value < 1_000_000 { return significant(value / 1_000) + " kB" }
      return significant(value / 1_000_000) + " MB"
    case .percent:
      return significant(value) + " %"
    }
  }

  /// `value` with three significant digits, in plain decimal notation (12.3, 0.0456, 1230).
  static func significant(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    if value == 0 { return "0.00" }
    var magnitude = 0
    var scaled = abs(value)
    while scaled >= 1_000 {
      scaled /= 10
      magnitude += 1
    }
    while scaled < 100 {
      scaled *= 10
      magnitude -= 1
    }
    var digits = Int(scaled.rounded())
    if digits == 1_000 {
      digits = 100
      magnitude += 1
    }
    let sign = value < 0 ? "-" : ""
    let text = String(digits)
    // The number is digits × 10^magnitude, with three digits.
    if magnitude >= 0 { return sign + text + String(repeating: "0", count: magnitude) }
    let decimals = -magnitude
    if decimals < 3 {
      let integer = text.prefix(3 - decimals)
      let fraction = text.suffix(decimals)
      return sign + integer + "." + fraction
    }
    return sign + "0." + String(repeating: "0", count: decimals - 3) + text
  }
}
