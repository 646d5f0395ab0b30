/// Whether a name looks like a DNS host name (letters, digits, hyphens, dots; RFC 1123 labels),
/// which decides if a certificate gets a subjectAltName DNS entry for it.
package enum HostName {
  package static func isValid(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard !bytes.isEmpty, bytes.count <= 253 else { return false }
    let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    for label in labels {
      guard (1...63).contains(label.count),
        label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-")
      else { return false }
      for byte in label {
        let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        guard isLetter || isDigit || byte == UInt8(ascii: "-") else { return false }
      }
    }
    return true
  }
}
