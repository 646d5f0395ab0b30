import GameCore
import Testing
import UntrustedText
import WireProtocol

@testable import App
@testable import FrontEnds
@testable import MatchCoordination

/// A spectator reading a practice bot's list (PROTOCOL.md rule 27): the parts add up to one list; a game named twice
/// or more than 1,000 is the host breaking the protocol; and the printed list shows hostile names escaped, never
/// as terminal control.
@Suite struct WatchGameListReadingTests {
  static func part(_ numbers: [Int], last: Bool = true, name: String = "bob") -> GameListPart {
    GameListPart(
      games: numbers.map { ListedGame(number: UInt16($0), joinerName: name, hostPlaysX: $0 % 2 == 0, moves: 3) },
      total: 2000, last: last)
  }

  @Test func partsAddUpAndDuplicatesOrTooManyAreViolations() throws {
    var list = WatchGameList(hostName: PeerText("robo"), terms: nil)
    #expect(try list.add(Self.part([1, 2], last: false)) == false)
    #expect(try list.add(Self.part([3])) == true)
    #expect(list.games.map(\.number) == [1, 2, 3] && list.total == 2000)
    #expect(throws: WatchViolation.self) { try list.add(Self.part([2])) }
    var long = WatchGameList(hostName: PeerText("robo"), terms: nil)
    _ = try long.add(Self.part(Array(1...1000), last: false))
    #expect(throws: WatchViolation.self) { try long.add(Self.part([1001])) }
  }

  @Test func theListIsPrintedWithNumbersAndHostileNamesEscaped() throws {
    // A hello would refuse these names; a bot's list is the bot's word, printed through PeerText all the same.
    let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{202E}eve"
    var list = WatchGameList(
      hostName: PeerText("robo\u{1B}[5m"), terms: HostTerms(rules: try Rules(size: 3, k: 3)))
    _ = try list.add(
      GameListPart(
        games: [
          ListedGame(number: 4, joinerName: hostile, hostPlaysX: true, moves: 1),
          ListedGame(number: 9, joinerName: "dave", hostPlaysX: nil, moves: 0),
        ], total: 3, last: true))
    let text = PlainWatchWords.list(list)
    #expect(text.contains("game 4: robo"), "\(text)")
    #expect(text.contains("game 9: robo"), "\(text)")
    #expect(text.contains("(and 1 more not listed)"))
    #expect(text.contains("--game N"))
    let controls = text.unicodeScalars.filter {
      ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
    }
    #expect(controls.isEmpty, "control characters reach the terminal: \(controls.map { $0.value })")
  }
}
