import Discovery
import GameCore
import Testing

@testable import App
@testable import FrontEnds
@testable import NetworkShell

/// What the LAN is told of a practice bot an outside engine plays for, and how `list`, `list --json` and the
/// lobby's rows show it: "practice bot (engine brain.py)", the name escaped like every field from the network.
@Suite struct EngineBotAdvertTests {
  static let fingerprint = "SHA256:" + String(repeating: "B", count: 43)

  static func game(_ txt: ServiceTXT) -> DiscoveredGame {
    DiscoveredGame(
      id: ServiceID(name: "robo", type: "_tictactoe._tcp", domain: "local", interfaceIndex: 1), port: 7177,
      addresses: ["127.0.0.1"], txt: txt)
  }

  @Test func theBotsAdvertNamesTheEngineOrTheLevel() throws {
    let rules = try Rules(size: 15, k: 5)
    let engine = try #require(
      LANAnnouncement.txt(
        name: "robo", rules: rules, timeControl: .none, fingerprint: Self.fingerprint, bot: "perfect",
        engine: "brain.py"))
    #expect(engine.bot == "engine" && engine.engine == "brain.py")
    let level = try #require(
      LANAnnouncement.txt(name: "robo", rules: rules, timeControl: .none, fingerprint: Self.fingerprint, bot: "easy"))
    #expect(level.bot == "easy" && level.engine == nil)
  }

  @Test func listAndTheLobbyShowTheEngineAndJSONCarriesIt() throws {
    var txt = try #require(
      LANAnnouncement.txt(
        name: "robo", rules: try Rules(size: 15, k: 5), timeControl: .none, fingerprint: Self.fingerprint,
        engine: "brain.py"))
    txt.watchers = 2
    let read = ServiceTXT(decoding: txt.encoded)
    let game = Self.game(read)
    #expect(
      LANGames.row(game, known: .init()).state == "waiting, practice bot (engine brain.py), watchable (2 watching)")
    let json = LANGames.json([game], known: .init())
    #expect(json.contains(#""bot":"engine""#) && json.contains(#""engine":"brain.py""#), "\(json)")
    // As an older reader sees it: `bot=engine` without the key it does not know.
    var older = read
    older.engine = nil
    #expect(LANGames.row(Self.game(older), known: .init()).state.contains("practice bot (engine), watchable"))
  }

  @Test func aHostileNameFromTheNetworkIsEscapedInListsLine() throws {
    // The bot's own name for its engine with an escape and a tab: neither reaches the advert, and the line for
    // `list` keeps to its five tab-separated fields, nothing in it a control.
    var txt = try #require(
      LANAnnouncement.txt(
        name: "robo", rules: try Rules(size: 15, k: 5), timeControl: .none, fingerprint: Self.fingerprint,
        engine: "x\u{1b}[2J\tcol"))
    txt.watchers = 0
    #expect(txt.engine == "x[2Jcol")
    let line = LANGames.line(Self.game(ServiceTXT(decoding: txt.encoded)), known: .init())
    #expect(line.split(separator: "\t").count == 5, "\(line)")
    #expect(!line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" })
  }
}
