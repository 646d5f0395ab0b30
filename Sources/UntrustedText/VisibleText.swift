/// The one sanitiser for text on its way to a terminal or a log line: characters that could move the cursor,
/// change the terminal (escape sequences, OSC 2 titles, OSC 52 clipboard writes), end a line, cut a C string
/// or reorder what is shown become visible escapes such as `\x1B`, `\n` or `\u{202E}`.
public enum VisibleText {
  /// `text` with every unsafe character escaped; safe text comes back unchanged.
  public static func escaping(_ text: String) -> String {
    // Printable ASCII (most names and every log line the program makes itself) is safe: checked on its bytes in
    // place, not a scalar at a time.
    let printableASCII = text.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.allSatisfy { (0x20...0x7E).contains($0) }
    }
    if printableASCII == true { return text }
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if isUnsafe(scalar) {
        out += escape(scalar)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `scalar` must not reach a terminal as it is: C0 and C1 controls, DEL, bidirectional
  /// embeddings, overrides, isolates and marks, line and paragraph separators, and invisible characters
  /// that make two names look the same (every default-ignorable format character but the joiners U+200C and
  /// U+200D and the emoji tags U+E0020–U+E007F, which scripts and emoji need).
  public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    case 0x2028, 0x2029: return true
    case 0x00AD, 0x180E, 0x200B, 0x2060...0x2064, 0x206A...0x206F, 0xFEFF, 0xFFF9...0xFFFB: return true
    case 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0001: return true
    default: return false
    }
  }

  private static func escape(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x09: return "\\t"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x00...0xFF: return "\\x" + hex(scalar.value, digits: 2)
    default: return "\\u{" + hex(scalar.value, digits: 4) + "}"
    }
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
