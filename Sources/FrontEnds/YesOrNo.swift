import Glibc
import OutsideEngines
import UntrustedText

/// A yes-or-no question asked at the terminal before something that cannot be undone.
package enum YesOrNo {
  /// Asks `question` on standard error and reads the answer from standard input: true only for y or yes; nil
  /// when standard input is not a terminal, where nobody could answer (the caller then wants `--yes`).
  package static func ask(_ question: String) -> Bool? {
    guard isatty(0) == 1 else { return nil }
    writeError(question + " [y/N] ")
    var reader = LineReader(fd: 0)
    var lines: [String] = []
    while lines.isEmpty && !reader.closed { lines = reader.readLines() }
    return ["y", "yes"].contains(lines.first?.trimmingWhitespace().lowercased() ?? "")
  }
}
