import MatchCoordination

/// A practice bot's list of games as `tictactoe watch ADDRESS` prints it: a line a game with the number to watch
/// it by. Every name came from the bot, so it is a `PeerText` (escaped when printed).
extension PlainWatchWords {
  static func list(_ list: WatchGameList) -> String {
    let rules = list.rules.map { " (\($0)\(list.timeControl.isTimed ? "; clock \(list.timeControl.spoken)" : ""))" }
    guard !list.games.isEmpty else { return "\(list.hostName) plays no games now\(rules ?? "").\n" }
    var text = "\(list.hostName) plays \(list.total == 1 ? "1 game" : "\(list.total) games")\(rules ?? ""):\n"
    for game in list.games {
      let players: String
      switch game.hostPlaysX {
      case true?: players = "\(list.hostName) (X) against \(game.joinerName) (O)"
      case false?: players = "\(game.joinerName) (X) against \(list.hostName) (O)"
      case nil: players = "\(list.hostName) against \(game.joinerName), not begun"
      }
      let moves = game.moves == 1 ? "1 move" : "\(game.moves) moves"
      text += "  game \(game.number): \(players), \(moves)\n"
    }
    if list.total > list.games.count { text += "  (and \(list.total - list.games.count) more not listed)\n" }
    return text + "watch one: tictactoe watch ADDRESS --game N\n"
  }
}
