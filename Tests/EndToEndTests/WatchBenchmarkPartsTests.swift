import Testing

@testable import tictactoe_bench

/// The watched-game benchmark's parts that decide something: the spectators' process reports in lines the
/// benchmark reads back (a report it misread would hide spectators that were dropped), and the group's name.
@Suite struct WatchBenchmarkPartsTests {
  @Test func aCrowdReportReadsBackWhatItSays() throws {
    var report = SpectatorCrowd.Report()
    (report.watching, report.moves, report.lost) = (100, 2_345, 1)
    #expect(report.line == "watching 100 moves 2345 lost 1")
    let read = try #require(SpectatorCrowd.Report(line: Substring(report.line)))
    #expect(read == report)
    for wrong in ["watching 100 moves 2345", "watching x moves 1 lost 0", "connections 3 dropped 0", ""] {
      #expect(SpectatorCrowd.Report(line: Substring(wrong)) == nil, "\(wrong)")
    }
  }

  @Test func theGroupIsWatch() throws {
    let options = try BenchOptions.parse(["--only", "watch"])
    #expect(options.wants("watch") && !options.wants("bot"))
  }
}
