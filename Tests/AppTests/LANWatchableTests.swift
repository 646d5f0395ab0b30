import Discovery
import Testing

@testable import App
@testable import FrontEnds

/// `tictactoe list` (and `--json`, and the lobby's rows) says which games may be watched: a game being played whose
/// advert has `watch=N`, or a practice bot's, with how many watch; not a game still waiting for its opponent, nor
/// one whose advert does not say.
@Suite struct LANWatchableTests {
  static func game(state: ServiceTXT.GameState, bot: String? = nil, watchers: Int?) -> DiscoveredGame {
    var txt = ServiceTXT(
      protocolVersions: [4], rules: ServiceTXT.Rules(rows: 3, columns: 3, k: 3)!, state: state,
      fingerprint: "SHA256:" + String(repeating: "B", count: 43), bot: bot)
    txt.watchers = watchers
    return DiscoveredGame(
      id: ServiceID(name: "g", type: "_tictactoe._tcp", domain: "local", interfaceIndex: 1), port: 7177,
      addresses: ["127.0.0.1"], txt: txt)
  }

  @Test(
    arguments: [
      (ServiceTXT.GameState.playing, nil, 3, "playing, watchable (3 watching)"),
      (.waiting, "easy", 0, "waiting, practice bot (easy), watchable (0 watching)"),
      (.waiting, nil, 0, "waiting"),
      (.playing, nil, nil, "playing"),
      (.waiting, "easy", nil, "waiting, practice bot (easy)"),
    ] as [(ServiceTXT.GameState, String?, Int?, String)])
  func watchableGamesAreSaidSo(state: ServiceTXT.GameState, bot: String?, watchers: Int?, shown: String) {
    let game = Self.game(state: state, bot: bot, watchers: watchers)
    #expect(LANGames.row(game, known: .init()).state == shown)
    let json = LANGames.json([game], known: .init())
    let watchable = shown.contains("watchable")
    #expect(json.contains(#""watchable":\#(watchable)"#), "\(json)")
    #expect(json.contains(#""watchers":"#) == watchable, "\(json)")
    if watchable, let watchers { #expect(json.contains(#""watchers":\#(watchers)"#)) }
  }
}
