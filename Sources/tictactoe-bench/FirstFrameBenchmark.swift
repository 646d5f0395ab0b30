#if canImport(Glibc)
  import Glibc
#endif

/// Time from starting the real game in a pseudo-terminal (80×24) until its lobby has been written to the
/// terminal, against the C ncursesw baseline drawing the same text. Alternating, each in a fresh terminal.
enum FirstFrameBenchmark {
  struct Result {
    var project = Samples()
    var baseline = Samples()
  }

  static func run(iterations: Int, warmUp: Int) throws -> Result {
    let game = try Programs.path("tictactoe")
    let curses = try CursesBaseline.path()
    let home = try PlayerHome("frame")
    // The frame to expect: the lobby as tmux shows it.
    let screen: String
    do {
      let tmux = Tmux()
      try tmux.start("lobby", [game], environment: home.environment)
      screen = try tmux.waitFor("lobby", "the lobby") { LobbyText.lastWord($0) != nil }
    }
    guard let marker = LobbyText.lastWord(screen) else { throw BenchError("the lobby drew nothing") }
    let lines = LobbyText.lines(screen)
    var result = Result()
    for index in 0..<(warmUp + iterations) {
      var project = 0.0
      var plain = 0.0
      if index.isMultiple(of: 2) {
        project = try time([game], marker: marker, environment: home.environment)
        plain = try time([curses] + lines, marker: marker, environment: home.environment)
      } else {
        plain = try time([curses] + lines, marker: marker, environment: home.environment)
        project = try time([game], marker: marker, environment: home.environment)
      }
      if index >= warmUp {
        result.project.append(project)
        result.baseline.append(plain)
      }
    }
    return result
  }

  /// Nanoseconds from spawning `arguments` on a new pseudo-terminal until `marker` has been written to it.
  static func time(_ arguments: [String], marker: String, environment: [String: String]) throws -> Double {
    let terminal = try PseudoTerminal(width: 80, height: 24)
    let wanted = Array(marker.utf8)
    let start = Clock.now()
    let child = try ChildProcess(
      arguments[0], Array(arguments.dropFirst()), environment: environment, stdin: .descriptor(terminal.terminal),
      stdout: .descriptor(terminal.terminal), stderr: .descriptor(terminal.terminal))
    let drawn = terminal.readUntil(timeout: 10) { $0.contains(wanted) }
    child.stop()
    guard let drawn else {
      throw BenchError("\(arguments[0]) did not draw \"\(marker)\" within 10 s")
    }
    return Double(drawn.time - start)
  }
}

extension RandomAccessCollection where Element == UInt8, Index == Int {
  /// Whether the bytes `needle` occur in this collection.
  func contains(_ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard needle.count <= count else { return false }
    for start in startIndex...(endIndex - needle.count) where self[start] == needle[0] {
      if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
    }
    return false
  }
}
