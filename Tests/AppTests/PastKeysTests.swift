import Foundation
import GameCore
import GameRecords
import PeerTrust
import PlayerFiles
import Security
import TestSupport
import Testing

@testable import App

/// Issue 29, item 4: `identity new` keeps the player's own past keys as the player's, so the old games stay theirs
/// in `games` and in the record against each opponent.
@Suite struct PastKeysTests {
  static func game(black: String, white: String, winner: Mark) -> GameRecord {
    GameRecord(
      rules: .standard, black: .init(name: "me", publicKey: black),
      white: .init(name: "Bob the Great", publicKey: white),
      date: "2026-12-01", result: .won(winner, .line), moves: [])
  }

  @Test func aReplacedKeyIsStillMineInGamesAndTheTallies() throws {
    let store = IdentityStore(directory: try TestDirectory.make("past-keys") + "/identity")
    let (first, _) = try store.loadOrCreate(commonName: "alice")
    let oldKey = try #require(first.publicKeyBase64)
    let bob = try #require(try Identity.generate(commonName: "bob").publicKeyBase64)
    try store.replace(with: try Identity.generate(commonName: "alice"))
    let second = try #require(try store.load()?.publicKeyBase64)
    try store.replace(with: try Identity.generate(commonName: "alice"))
    let mine = store.ownKeys()
    #expect(mine.contains(oldKey) && mine.contains(second) && !mine.contains(bob))
    #expect(mine.past == [oldKey, second], "both replaced keys, oldest first")
    // A game the old key won against bob: still my win, against bob, not "me vs Bob the Great".
    let old = Self.game(black: oldKey, white: bob, winner: .x)
    let row = GameRow(old, mine: mine) { $0 == bob ? "bob" : nil }
    #expect(row.opponent == "bob" && row.result == "won", "\(row)")
    let records = OpponentRecords(summaries: [RecordSummary(old)], mine: mine)
    let fingerprint = try #require(Fingerprint(publicKeyBase64: bob))
    #expect(records.byFingerprint[fingerprint] == Tally(wins: 1), "\(records.byFingerprint)")
  }

  @Test func theKeyAReplacementBeforeTheListKeptIsMineToo() throws {
    // A player who ran `identity new` before there was a list has the old identity in identity.previous only.
    let directory = try TestDirectory.make("past-keys-previous") + "/identity"
    let store = IdentityStore(directory: directory)
    let (first, _) = try store.loadOrCreate(commonName: "alice")
    try store.replace(with: try Identity.generate(commonName: "alice"))
    unlink(store.pastKeysPath)
    #expect(store.ownKeys().past == [try #require(first.publicKeyBase64)])
    // The next replacement writes it into the list before identity.previous is overwritten.
    try store.replace(with: try Identity.generate(commonName: "alice"))
    #expect(store.ownKeys().past.first == first.publicKeyBase64 && store.ownKeys().past.count == 2)
    let text = try String(contentsOfFile: store.pastKeysPath, encoding: .utf8)
    #expect(OwnKeys.pastKeys(fromText: text).count == 2 && text.hasPrefix("# "))
    #expect(try FileManager.default.attributesOfItem(atPath: store.pastKeysPath)[.posixPermissions] as? Int == 0o600)
  }

  @Test func aDamagedListGivesNoKeysButTheGoodLinesAndNeverAStrangers() {
    let text = "# comment\nnot-base64!\nabc\n\nAAAA SHA256:x\nAAAA again\nBBBB\n"
    #expect(OwnKeys.pastKeys(fromText: text) == ["AAAA", "BBBB"])
    let mine = OwnKeys(current: "CCCC", past: ["AAAA"])
    #expect(mine.contains("AAAA") && mine.contains("CCCC") && !mine.contains("BBBB") && !mine.contains(nil))
    #expect(mine.all == ["CCCC", "AAAA"])
  }

  @Test func aGameBetweenTwoOfMyKeysCountsAgainstNobody() {
    let tallies = OpponentTally.byOpponentKey(
      [RecordSummary(Self.game(black: "AAAA", white: "CCCC", winner: .x))], myKeys: ["AAAA", "CCCC"])
    #expect(tallies.isEmpty)
  }
}
