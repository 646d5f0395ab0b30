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
