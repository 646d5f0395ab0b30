import Foundation
import Testing

/// Runs the built `tictactoe-bench --smoke` so the benchmark cannot rot. Only the shape of the table is checked:
/// the numbers of a smoke run mean nothing, and timings are not asserted.
@Suite struct BenchmarkSmokeTests {
  /// The built `tictactoe-bench` beside the test bundle (or at $TICTACTOE_BENCH_BIN).
  static var benchPath: String {
    if let path = ProcessInfo.processInfo.environment["TICTACTOE_BENCH_BIN"] { return path }
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundle, bundle.deletingLastPathComponent()] {
      let path = candidate.appendingPathComponent("tictactoe-bench").path
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return bundle.appendingPathComponent("tictactoe-bench").path
  }

  /// "2.54 µs", "1240/s", "14.1 MB", optionally followed by "(what the baseline is)".
  private static func isMeasurement(_ cell: String) -> Bool {
    let text = cell.split(separator: "(", maxSplits: 1).first.map(String.init) ?? ""
    let parts = text.split(separator: " ")
    guard let number = parts.first else { return false }
    if parts.count == 1, number.hasSuffix("/s") { return Double(number.dropLast(2)) != nil }
    return parts.count == 2 && Double(number) != nil && ["ns", "µs", "ms", "s", "kB", "MB"].contains(String(parts[1]))
  }

  @Test func everyRowHasAValueABaselineAndARatio() throws {
    let output = try Tool.run(Self.benchPath, ["--smoke"])
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines.first == "| Figure | Project | Baseline | Ratio |", "output was:\n\(output)")
    let rows = lines.dropFirst(2)
    // AI (4 boards × 2), handshake (3), round trip (2), memory (1), bot host under load (8).
    #expect(rows.count == 22, "output was:\n\(output)")
    #expect(rows.filter { $0.hasPrefix("| Bot host") }.count == 8, "output was:\n\(output)")
    for row in rows {
      let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 4 else {
        Issue.record("not four cells: \(row)")
        continue
      }
      #expect(!cells[0].isEmpty, "no figure name: \(row)")
      #expect(Self.isMeasurement(cells[1]), "no value: \(row)")
      #expect(Self.isMeasurement(cells[2]) && cells[2].contains("("), "no baseline: \(row)")
      #expect(cells[3].hasSuffix("×") && Double(cells[3].dropLast()) != nil, "no ratio: \(row)")
    }
  }
}
