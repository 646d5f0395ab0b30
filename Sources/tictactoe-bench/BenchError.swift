/// Why a benchmark could not run: the figure it was measuring and what went wrong.
struct BenchError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) { self.description = description }
}
