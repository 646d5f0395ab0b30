@_spi(Benchmark) import GameCore

#if canImport(Glibc)
  import Glibc
#endif

// Measures the project against baselines measured in the same run and prints one Markdown table.
// `--smoke` runs a few iterations of everything (for the test suite); the numbers are then meaningless.
// The strength group prints a table of its own after it (games, scores and Elo differences).

signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == MemoryBenchmark.probeArgument {
  do {
    try MemoryBenchmark.probe(arguments.count > 1 ? arguments[1] : "bare")
    exit(0)
  } catch {
    printError("tictactoe-bench: \(error)")
    exit(1)
  }
}

if arguments.first == EchoServer.argument {
  do {
    try EchoServer.serve(EchoServer.Files(directory: arguments.count > 1 ? arguments[1] : "."))
  } catch {
    printError("tictactoe-bench: \(error)")
    exit(1)
  }
}

if arguments.first == JunkConnections.probeArgument, arguments.count == 3, let port = UInt16(arguments[1]),
  let count = Int(arguments[2])
{
  JunkConnections.run(port: port, count: count)
}

if arguments.first == AbuseClient.probeArgument, arguments.count >= 3,
  let kind = AbuseClient.Kind(rawValue: arguments[1]),
  let port = UInt16(arguments[2])
{
  AbuseClient.run(kind: kind, port: port, count: arguments.count > 3 ? Int(arguments[3]) : nil)
}

if arguments.first == SpectatorCrowd.probeArgument, arguments.count == 4, let port = UInt16(arguments[1]),
  let game = UInt16(arguments[2]), let count = Int(arguments[3])
{
  SpectatorCrowd.run(port: port, game: game, count: count)
}

// `--make-exact-openings ROWS COLUMNS K PLIES NAME` prints the Swift source of a table of early plies
// (scripts/make-exact-openings.sh).
if arguments.first == "--make-exact-openings", arguments.count == 6,
  let numbers = Optional(arguments[1...4].compactMap { Int($0) }), numbers.count == 4
{
  print(
    ExactOpeningsMaker.swiftSource(
      rows: numbers[0], columns: numbers[1], k: numbers[2], plies: numbers[3], name: arguments[5]),
    terminator: "")
  exit(0)
}

let options: BenchOptions
do {
  options = try BenchOptions.parse(arguments)
} catch {
  printError("tictactoe-bench: \(error)")
  exit(64)
}

do {
  let benchmarks = Benchmarks(options: options)
  let rows = try benchmarks.run()
  if !rows.isEmpty { print(Table.render(rows)) }
  if let strength = try benchmarks.strengthTable() {
    if !rows.isEmpty { print("") }
    print(strength)
  }
} catch {
  printError("tictactoe-bench: \(error)")
  exit(1)
}
