/// Text cut to a byte limit, as a message's text must be for the peer to accept it.
enum UTF8Clip {
  /// `text` cut to at most `bytes` bytes of UTF-8 at a character boundary.
  static func clip(_ text: String, bytes: Int) -> String {
    var result = ""
    var count = 0
    for character in text {
      let size = character.utf8.count
      if count + size > bytes { break }
      result.append(character)
      count += size
    }
    return result
  }
}
