#if canImport(Glibc)
  import Glibc
#endif

/// Writes a line to standard error (C's `stderr` is not usable from Swift 6: it is shared mutable state).
func printError(_ text: String) {
  let line = Array((text + "\n").utf8)
  var written = 0
  while written < line.count {
    let count = line[written...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    if count <= 0 { return }
    written += count
  }
}
