extension String {
  /// The longest prefix of at most `bytes` bytes of UTF-8 that ends at a character boundary.
  func prefix(utf8Bytes bytes: Int) -> String {
    guard utf8.count > bytes else { return self }
    var kept = ""
    for character in self {
      guard kept.utf8.count + character.utf8.count <= bytes else { break }
      kept.append(character)
    }
    return kept
  }
}
