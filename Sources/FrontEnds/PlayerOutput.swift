import CursesBackend
import Glibc
import UntrustedText

/// A message for the player on standard error, through the one sanitiser (`writeMessage`).
package func writeError(_ text: String) { writeMessage(2, text) }

/// Sentences for the player on `fd`, through the one sanitiser (`writeText`); at a terminal, their lines broken at
/// word boundaries to fit 80 columns or the terminal's width when narrower (`MessageLines`).
/// `hang` spaces start each line a break made.
package func writeMessage(_ fd: Int32, _ text: String, hang: Int = 0) {
  guard let columns = CursesTerminal.columns(of: fd) else { return writeText(fd, text) }
  writeAll(fd, MessageLines.wrapped(visible(text), width: min(columns, MessageLines.maximumWidth), hang: hang))
}

/// Writes words for a person (messages, status lines, tables) to `fd`: every piece between line ends and tabs
/// passes `VisibleText`, the one sanitiser, so nothing a file, a setting, a name or a peer put in the text can
/// reach the terminal as a control or a bidirectional mark. Escaping is idempotent: text escaped before comes out
/// the same. Data for programs (a certificate, JSON, SGF, completions) goes out with `writeAll`.
package func writeText(_ fd: Int32, _ text: String) { writeAll(fd, visible(text)) }

/// `text` with every piece between line ends and tabs through `VisibleText`.
package func visible(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
    line.split(separator: "\t", omittingEmptySubsequences: false).map { VisibleText.escaping(String($0)) }
      .joined(separator: "\t")
  }.joined(separator: "\n")
}

/// Writes all of `text` to `fd`, retrying short writes.
package func writeAll(_ fd: Int32, _ text: String) {
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
    if written <= 0 {
      if written < 0 && errno == EINTR { continue }
      return
    }
    offset += written
  }
  bytes.removeAll()
}
