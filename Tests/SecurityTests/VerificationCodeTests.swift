import Testing

@testable import PeerTrust
@testable import Security

/// The words both players read aloud: the same on both ends of one TLS session, different on the two
/// connections of a man in the middle who completes a handshake with each side.
@Suite struct VerificationCodeTests {
  @Test func bothEndsOfOneSessionShowTheSameFourWords() throws {
    let pair = try Pair()
    let client = try #require(pair.client.verificationCode)
    let server = try #require(pair.server.verificationCode)
    #expect(client == server)
    #expect(client.words.count == 4)
    #expect(client.description.split(separator: "-").count == 4)
  }

  @Test func aRelayInTheMiddleGetsADifferentCodeOnEachSide() throws {
    // Mallory completes a handshake with Alice (as the host she wanted) and another with Bob (as a joiner):
    // each side's TLS is sound, yet the two sessions' keys differ, and so do the words.
    let aliceToMallory = try Pair(clientIdentity: Fixtures.alice, serverIdentity: Fixtures.bob)
    let malloryToBob = try Pair(clientIdentity: Fixtures.alice, serverIdentity: Fixtures.bob)
    let alice = try #require(aliceToMallory.client.verificationCode)
    let bob = try #require(malloryToBob.server.verificationCode)
    #expect(alice != bob)
    // Many sessions, many codes: nothing constant hides in the derivation.
    var seen: Set<VerificationCode> = []
    for _ in 0..<20 { seen.insert(try #require(try Pair().client.verificationCode)) }
    #expect(seen.count == 20)
  }

  @Test func noCodeBeforeTheHandshakeFinishes() throws {
    let context = try TLSContext(role: .client, identity: Fixtures.alice, options: Fixtures.insecure)
    let connection = try TLSConnection(context: context, serverName: "bob")
    #expect(connection.verificationCode == nil)
  }

  @Test func fortyFourBitsMakeFourWordsOfElevenBits() throws {
    // 0x000000000000 is the first word four times; all ones, the last word four times.
    #expect(VerificationCode(material: [0, 0, 0, 0, 0, 0])?.description == "baba-baba-baba-baba")
    #expect(VerificationCode(material: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])?.description == "zoto-zoto-zoto-zoto")
    // The last word takes the low 11 of the 44 bits: 1 there is the second word of the list.
    #expect(VerificationCode(material: [0, 0, 0, 0, 0, 0x10])?.words.last == VerificationCode.word(1))
    #expect(VerificationCode(material: [1, 2, 3]) == nil)
  }

  @Test func the2048WordsAreDistinct() {
    let words = (0..<2048).map(VerificationCode.word)
    #expect(Set(words).count == 2048)
    #expect(words.allSatisfy { $0.count == 4 })
  }
}
