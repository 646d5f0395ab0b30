import Foundation
import GameCore
import TestSupport
import Testing

/// Renju's referee against a checker nobody here wrote, asked afresh: the `renju` package (PyPI 0.1.0, whose
/// ForbidChecker is a port of the Piskvork manager's judge, a pattern matcher unlike the referee's search from
/// the definitions), installed by scripts/setup-renju.sh (or RENJU_PYTHON), judges every empty cell of random
/// positions made here (GameCoreTests keeps a fixed set of its answers, for runs without Python). Nothing is
/// skipped: without the package the test fails.
@Suite struct RenjuPackageTests {
  static func python() throws -> String {
    if let path = ProcessInfo.processInfo.environment["RENJU_PYTHON"], !path.isEmpty { return path }
    let result = try ChildProcess.run("bash", [root + "/scripts/setup-renju.sh"], timeout: 600, errors: .null)
    let path = result.output.split(separator: "\n").last.map(String.init) ?? ""
    guard result.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
      throw SgfmillSetupFailure(description: "scripts/setup-renju.sh failed: \(result.output)")
    }
    return path
  }

  static let root =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  @Test func theRefereeAgreesWithTheRenjuPackageOnFreshRandomPositions() throws {
    let python = try Self.python()
    let boards = FoulComparison.randomPositions(seed: 0x5245_4E4A_5532_38, count: 300)
    let input = TestDirectory.path("renju-positions")
    try boards.map(JudgedPosition.text).joined(separator: "\n").write(toFile: input, atomically: true, encoding: .utf8)
    let result = try ChildProcess.run(
      "bash", ["-c", "\"$0\" \"$1\" < \"$2\"", python, Self.root + "/scripts/renju-fouls.py", input], timeout: 300)
    #expect(result.status == 0, "\(result.output.prefix(2000))")
    let positions = result.output.split(separator: "\n").compactMap(JudgedPosition.init(line:))
    #expect(positions.count == boards.count)
    let compared = FoulComparison.disagreements(positions)
    #expect(compared.cells > 30_000)
    #expect(compared.fouls > 500)
    // The one reading where they part ways (a three whose straight four point is also a five point) explains
    // every difference; no other is allowed.
    let unexplained = compared.differ.filter { !FoulComparison.isTheFivePointReading($0) }
    for difference in unexplained.prefix(5) { Issue.record("\(difference)") }
    #expect(unexplained.isEmpty, "\(unexplained.count) of \(compared.cells) cells differ unexplained")
  }
}
