import GameCore

#if canImport(Glibc)
  import Glibc
#endif

/// Move round trips through two real players over loopback (`tictactoe host` and `tictactoe join`, plain mode,
/// 15×15) while junk connections are open on the host (`JunkConnections`, in a child process), against the
/// same round trips with none. Games alternate: one without junk, one with, and so on.
///
/// One round trip: X's move is written to X's input; O prints it and prompts; O's answer is written to O's
/// input; the round trip ends when X prompts for its next move. Round trips start `pace` seconds apart, so a
/// game spans the junk's steady state (its reconnections a second after each drop, its byte-a-second writes),
/// not only its first wave.
enum JunkBenchmark {
  static let pace = 0.1

  struct Result {
    var withJunk = Samples()
    var without = Samples()
    /// The junk child's last report ("open N closed M").
    var junkReport = ""
  }

  static func run(games: Int, roundTripsPerGame: Int, junk: Int) throws -> Result {
    let game = try Programs.path("tictactoe")
    let bench = try Programs.path("tictactoe-bench")
    let hostHome = try PlayerHome("junkhost")
    let joinHome = try PlayerHome("junkjoin")
    // The host picks its port and says it (a port found free first was once taken before the host bound it).
    let host = try PlainPlayer(
      game, ["host", "--port", "0", "--ui", "plain", "--accept-new", "--name", "junkhost", "--size", "15", "--k", "5"],
      environment: hostHome.environment)
    let port = try host.hostingPort()
    let joiner = try PlainPlayer(
      game, ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--name", "junkjoin"],
      environment: joinHome.environment)
    var result = Result()
    let moves = min(roundTripsPerGame, RoundTripBenchmark.cells(for: .x).count)
    for number in 1...(2 * games) {
      let (x, o) = try started(number, host: host, joiner: joiner)
      var junkProcess: ChildProcess?
      var junkOutput: Pipe?
      if number.isMultiple(of: 2) {
        let pipe = try Pipe()
        junkProcess = try ChildProcess(
          bench, [JunkConnections.probeArgument, "\(port)", "\(junk)"], environment: [:],
          stdout: .descriptor(pipe.writer))
        pipe.closeWriter()
        junkOutput = pipe
        try waitForLine(pipe, "open \(junk)")
        // The host takes the flood in: let its first wave of accepts and drops pass.
        usleep(500_000)
      }
      let began = Clock.seconds()
      for index in 0..<moves {
        let due = began + Double(index) * pace
        while Clock.seconds() < due { usleep(UInt32(max(1, (due - Clock.seconds()) * 1e6))) }
        let time = try roundTrip(
          x: x, o: o, xMove: RoundTripBenchmark.cells(for: .x)[index], oMove: RoundTripBenchmark.cells(for: .o)[index])
        if junkProcess != nil { result.withJunk.append(time) } else { result.without.append(time) }
      }
      if let junkOutput {
        let text = String(decoding: junkOutput.read(waitingAtMost: 0) ?? [], as: UTF8.self)
        if let last = text.split(separator: "\n").last { result.junkReport = String(last) }
      }
      junkProcess?.stop()
      // End this game (untimed): X resigns, both ask for a rematch.
      try x.send("resign")
      try host.send("rematch")
      try joiner.send("rematch")
    }
    try host.send("quit")
    return result
  }

  /// Waits for game `number` to start on both players; (X, O).
  private static func started(_ number: Int, host: PlainPlayer, joiner: PlainPlayer) throws -> (
    PlainPlayer, PlainPlayer
  ) {
    let hostLine = try host.line(startingWith: "game \(number): ")
    _ = try joiner.line(startingWith: "game \(number): ")
    return hostLine.hasSuffix("you play X (X moves first)") ? (host, joiner) : (joiner, host)
  }

  private static func roundTrip(x: PlainPlayer, o: PlainPlayer, xMove: Position, oMove: Position) throws -> Double {
    let xMark = x.length
    let oMark = o.length
    let start = Clock.now()
    try x.send("\(xMove.row + 1),\(xMove.column + 1)")
    _ = try o.waitFor("your move (O): ", after: oMark)
    try o.send("\(oMove.row + 1),\(oMove.column + 1)")
    let end = try x.waitFor("your move (X): ", after: xMark)
    return Double(end - start)
  }

  private static func waitForLine(_ pipe: Pipe, _ line: String) throws {
    var text = ""
    let deadline = Clock.seconds() + 20
    while Clock.seconds() < deadline {
      guard let chunk = pipe.read(waitingAtMost: deadline - Clock.seconds()) else { break }
      text += String(decoding: chunk, as: UTF8.self)
      if text.split(separator: "\n").contains(where: { $0 == line }) { return }
    }
    throw BenchError("the junk connections did not open within 20 s (it said: \(text))")
  }
}

/// A real `tictactoe` in plain mode: lines written to its input, its output read as it comes.
final class PlainPlayer {
  private let process: ChildProcess
  private let input: Pipe
  private let output: Pipe
  private(set) var text: [UInt8] = []

  init(_ path: String, _ arguments: [String], environment: [String: String]) throws {
    input = try Pipe(forChildInput: true)
    output = try Pipe()
    process = try ChildProcess(
      path, arguments, environment: environment, stdin: .descriptor(input.reader),
      stdout: .descriptor(output.writer), stderr: .descriptor(output.writer))
    output.closeWriter()
  }

  deinit { process.stop() }

  var length: Int { text.count }

  func send(_ line: String) throws { try input.write(line + "\n") }

  /// Waits until `needle` appears in the output after byte `offset`; the time the read that brought it ended.
  func waitFor(_ needle: String, after offset: Int, timeout: Double = 20) throws -> UInt64 {
    let wanted = Array(needle.utf8)
    let deadline = Clock.seconds() + timeout
    while Clock.seconds() < deadline {
      if text[min(offset, text.count)...].contains(wanted) { return Clock.now() }
      guard let chunk = output.read(waitingAtMost: deadline - Clock.seconds()) else { break }
      text += chunk
    }
    throw BenchError("\"\(needle)\" did not appear within \(timeout) s; the output ends:\n\(tail)")
  }

  /// The port a host started with `--port 0` says it listens on ("Hosting … on port N."): a port found free
  /// beforehand could be taken by another program before the host binds it.
  func hostingPort() throws -> UInt16 {
    let hosting = try line(startingWith: "Hosting ")
    guard let port = Tmux.hostingPort(in: hosting) else {
      throw BenchError("the host did not say its port: \(hosting)")
    }
    return port
  }

  /// Waits for a whole output line starting with `prefix`; returns it.
  func line(startingWith prefix: String, timeout: Double = 20) throws -> String {
    let deadline = Clock.seconds() + timeout
    while Clock.seconds() < deadline {
      let lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      if let line = lines.dropLast().first(where: { $0.hasPrefix(prefix) }) { return String(line) }
      guard let chunk = output.read(waitingAtMost: deadline - Clock.seconds()) else { break }
      text += chunk
    }
    throw BenchError("no line starting \"\(prefix)\" within \(timeout) s; the output ends:\n\(tail)")
  }

  /// The descriptor its output arrives on, for a poll() over several sources.
  var outputDescriptor: Int32 { output.reader }

  /// Takes the output that has arrived, without waiting; whether `needle` is now in it after byte `offset`.
  func takeOutput(thenFind needle: String, after offset: Int) -> Bool {
    while let chunk = output.read(waitingAtMost: 0), !chunk.isEmpty { text += chunk }
    return text[min(offset, text.count)...].contains(Array(needle.utf8))
  }

  /// Sends `number` to the process (by its PID).
  func signal(_ number: Int32) { kill(process.pid, number) }

  private var tail: String { String(String(decoding: text, as: UTF8.self).suffix(600)) }
}
