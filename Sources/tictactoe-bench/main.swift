#if canImport(Glibc)
  import Glibc
#endif

// Measures the project against baselines measured in the same run and prints one Markdown table.
// `--smoke` runs a few iterations of everything (for the test suite); the numbers are then meaningless.

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

let smoke = arguments.contains("--smoke")
if let unknown = arguments.first(where: { $0 != "--smoke" }) {
  printError("tictactoe-bench: unknown argument \(unknown)\nusage: tictactoe-bench [--smoke]")
  exit(64)
}

do {
  let rows = try Benchmarks(smoke: smoke).run()
  print(Table.render(rows))
} catch {
  printError("tictactoe-bench: \(error)")
  exit(1)
}
