import GameCore
import UntrustedText
import WireProtocol

/// A host's list of the games it plays (the practice bot's), as a spectator that asked for none reads it
/// (PROTOCOL.md, "Version 4: watching", rule 27): every name is the host's word, so a `PeerText`.
public struct WatchGameList: Equatable, Sendable {
  public struct Entry: Equatable, Sendable {
    /// What `tictactoe watch ADDRESS --game N` asks for.
    public var number: Int
    public var joinerName: PeerText
    /// nil: the game has not begun (the coin toss is on).
    public var hostPlaysX: Bool?
    public var moves: Int
  }

  public var hostName: PeerText
  /// The rules of every game listed: the host's hello's.
  public var rules: Rules?
  public var timeControl: TimeControl
  public var games: [Entry] = []
  /// How many games the host plays, listed or not.
  public var total = 0

  public init(hostName: PeerText, terms: HostTerms?) {
    self.hostName = hostName
    rules = terms?.rules
    timeControl = terms?.timeControl ?? .none
  }

  /// Takes one `watch games` frame: true when it was the list's last. A list past `GameListPart.maximumListed`
  /// games, or naming a game twice, is a violation.
  public mutating func add(_ part: GameListPart) throws(WatchViolation) -> Bool {
    guard games.count + part.games.count <= GameListPart.maximumListed else {
      throw WatchViolation("a list of more than \(GameListPart.maximumListed) games")
    }
    var seen = Set(games.map(\.number))
    for game in part.games {
      guard seen.insert(Int(game.number)).inserted else {
        throw WatchViolation("a list that names game \(game.number) twice")
      }
      games.append(
        Entry(
          number: Int(game.number), joinerName: PeerText(game.joinerName), hostPlaysX: game.hostPlaysX,
          moves: Int(game.moves)))
    }
    total = max(Int(part.total), games.count)
    return part.last
  }
}

extension JoinerCoordinator {
  /// A part of the host's list of games: once the list is whole, it is shown and the spectator leaves (it asked
  /// for no game: `watch ADDRESS --game N` asks for one).
  mutating func listed(_ part: GameListPart, on id: ConnectionID, host: PeerText, now: Double) -> [MatchCommand] {
    var list = watchList ?? WatchGameList(hostName: host, terms: core.connections[id]?.session?.hostTerms)
    do throws(WatchViolation) {
      let whole = try list.add(part)
      watchList = list
      guard whole, core.finished == nil else { return [] }
    } catch {
      return act(on: id, now: now) { $0.violation(error.text, now: now) }
    }
    let end = MatchEnd.session(.localQuit)
    core.finished = end
    route.stop()
    return [.report(.watchList(list)), .send(id, .bye(.quit, text: "a spectator, leaving with the list of games"))]
      + core.connections.close(id, graceful: true) + [.report(.finished(end))]
  }
}
