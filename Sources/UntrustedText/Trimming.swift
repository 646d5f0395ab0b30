/// Text trimmed as the settings file, known_peers and typed input need it (what Foundation gives, without it).
extension StringProtocol {
  /// Without leading and trailing blanks: spaces and tabs, every white space but line breaks (what Foundation
  /// calls `.whitespaces`).
  public func trimmingWhitespace() -> String { trimming { $0.isWhitespace && !$0.isNewline } }

  /// Without leading and trailing line breaks.
  public func trimmingNewlines() -> String { trimming(\.isNewline) }

  private func trimming(_ unwanted: (Character) -> Bool) -> String {
    guard let first = firstIndex(where: { !unwanted($0) }), let last = lastIndex(where: { !unwanted($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
