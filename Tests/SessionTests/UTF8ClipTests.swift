import Testing

@testable import Session

@Suite struct UTF8ClipTests {
  @Test func textIsCutAtACharacterBoundaryWithinTheBytes() {
    #expect(UTF8Clip.clip("hello", bytes: 10) == "hello")
    #expect(UTF8Clip.clip("hello", bytes: 3) == "hel")
    // "é" is two bytes, "👍🏽" eight: neither is cut in half.
    #expect(UTF8Clip.clip("aé", bytes: 2) == "a")
    #expect(UTF8Clip.clip("aéb", bytes: 3) == "aé")
    #expect(UTF8Clip.clip("👍🏽!", bytes: 7) == "")
    #expect(UTF8Clip.clip("👍🏽!", bytes: 8) == "👍🏽")
    #expect(UTF8Clip.clip("", bytes: 0) == "")
  }
}
