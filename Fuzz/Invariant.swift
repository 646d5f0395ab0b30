/// What every fuzz target shares: how a broken invariant stops the run, and the input as an array.

/// Stops the process with `message` when `condition` is false. The trap is what libFuzzer records as a crash,
/// so a broken invariant leaves its input in the artifacts directory like any other crash.
func invariant(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
  line: UInt = #line
) {
  if !condition() { fatalError("invariant broken: \(message())", file: file, line: line) }
}

/// Keeps a value alive as far as the optimiser can tell, so work whose only result is "did not crash" (an error's
/// description, say) is not deleted under -O.
@inline(never) @_optimize(none)
func observe<T>(_ value: T) {
  _ = value
}

/// The fuzzer's input as bytes.
func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
  Array(UnsafeBufferPointer(start: data, count: size))
}
