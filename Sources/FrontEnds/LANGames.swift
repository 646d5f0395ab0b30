import Discovery
import EventLoop
import ExplainedErrors
import GameCore
import Glibc
import MatchCoordination
import NetworkShell
import PeerTrust
import PlayerFiles
import Security
import TerminalUI
import UntrustedText

/// Games found on the LAN, judged against the known peers before anyone connects.
package enum LANGames {
  /// What the player knows about an advertised host's key. The key decides, never the name: Avahi renames
  /// clashing games, and anyone can announce any name.
  enum Trust: Equatable {
    /// A known key, by the name the player knows it by.
    case known(as: String)
    case new
    /// An unknown key under a name that looks like a known peer's (`KnownPeers.lookalikes`): a new player,
    /// not that peer.
    case lookalike(of: String)
    case unknownKey

    /// The word `list --json` gives.
    var token: String {
      switch self {
      case .known: "known"
      case .new: "new"
      case .lookalike: "lookalike"
      case .unknownKey: "no key advertised"
      }
    }

    /// What the lobby and `list` show; the known name is given when the game announces another.
    func shown(hostName: String) -> String {
      switch self {
      case .known(let name): name == hostName ? "known" : "known as \(name)"
      case .new: "new"
      case .lookalike(let name): "\(LANGameRow.warningPrefix): not the \(name) you know"
      case .unknownKey: "no key advertised"
      }
    }
  }

  /// The name a game's host is known by: its advertised display name, else the service name.
  static func hostName(_ game: DiscoveredGame) -> String { game.txt?.displayName ?? game.instanceName }

  static func trust(_ game: DiscoveredGame, known: KnownPeers) -> Trust {
    guard let text = game.txt?.fingerprint, let fingerprint = Fingerprint(parsing: text) else { return .unknownKey }
    if let entry = known.lookup(fingerprint: fingerprint) { return .known(as: entry.name) }
    if let alike = known.lookalikes(of: hostName(game)).first { return .lookalike(of: alike.name) }
    return .new
  }

  /// What the lobby and `tictactoe list` show of a game.
  static func row(_ game: DiscoveredGame, known: KnownPeers) -> LANGameRow {
    var terms = ""
    if let rule = game.txt?.rule {
      // Checked for its characters in Discovery; what it means is read here (an unknown one is named as such).
      terms += ", " + (RuleVariant(name: rule).map(\.name) ?? "a rule this program cannot read")
    }
    if let opening = game.txt?.opening {
      terms += ", " + (Opening(rawValue: opening) == .swap2 ? "Swap2" : "an opening this program cannot read")
    }
    if let clock = game.txt?.clock {
      // Checked for its characters in Discovery; what it means is read here (a bad one is named, not shown raw).
      terms += ", " + ((try? TimeControl(parsing: clock))?.spoken ?? "a clock this program cannot read")
    }
    let rules = (game.txt?.rules.map { "\($0.rows)×\($0.columns), \($0.k) in a row" } ?? "rules unknown") + terms
    let addresses =
      game.port.map { port in
        game.addresses.map { $0.contains(":") ? "[\($0)]:\(port)" : "\($0):\(port)" }
      } ?? []
    var state = game.txt?.state?.rawValue ?? "state unknown"
    if let bot = game.txt?.bot { state += ", practice bot (\(botPlayer(bot, engine: game.txt?.engine)))" }
    if let watchers = watchers(game) { state += ", watchable (\(watchers) watching)" }
    var row = LANGameRow(
      id: game.instanceName, rules: rules, state: state,
      trust: trust(game, known: known).shown(hostName: hostName(game)),
      addresses: addresses.isEmpty
        ? (game.resolveError.map { $0.message } ?? "not resolved") : addresses.joined(separator: " "),
      board: game.txt?.rules.map { LANGameRow.Board(rows: $0.rows, columns: $0.columns, k: $0.k, terms: terms) })
    row.watchable = watchers(game) != nil
    return row
  }

  /// Who plays for a practice bot, as its row says: its level, or "engine NAME" when an outside engine plays
  /// (`bot=engine`; the name from the network, escaped with the row's other fields).
  static func botPlayer(_ bot: String, engine: String?) -> String {
    guard bot == ServiceTXT.engineBot, let engine else { return bot }
    return "engine \(engine)"
  }

  /// How many watch a game that may be watched now (TXT `watch`: a game being played, or a practice bot's); nil when
  /// it may not (or not yet: no game has begun).
  static func watchers(_ game: DiscoveredGame) -> Int? {
    guard let count = game.txt?.watchers, game.txt?.state == .playing || game.txt?.bot != nil else { return nil }
    return count
  }

  /// One line for `tictactoe list`.
  static func line(_ game: DiscoveredGame, known: KnownPeers) -> String {
    let row = row(game, known: known)
    var fields = [row.id, row.rules, row.state, row.trust, row.addresses]
    if let problems = game.txt?.problems, !problems.isEmpty {
      fields.append("TXT problems: " + problems.map { "\($0)" }.joined(separator: "; "))
    }
    // Names and TXT values come from the network: each field is escaped, so none can add a column or a line.
    return fields.map(VisibleText.escaping).joined(separator: "\t")
  }

  static func json(_ games: [DiscoveredGame], known: KnownPeers) -> String {
    let objects: [JSONText] = games.map { game in
      var object: [String: JSONText] = [
        "name": .string(game.instanceName), "host": .string(hostName(game)),
        "addresses": .array(game.addresses.map { .string($0) }), "trust": .string(trust(game, known: known).token),
      ]
      if let port = game.port { object["port"] = .number(Int(port)) }
      if case .known(let name) = trust(game, known: known) { object["known_as"] = .string(name) }
      if let rules = game.txt?.rules {
        object["rules"] = .object([
          "rows": .number(rules.rows), "columns": .number(rules.columns), "k": .number(rules.k),
        ])
      }
      if let state = game.txt?.state { object["state"] = .string(state.rawValue) }
      if let bot = game.txt?.bot { object["bot"] = .string(bot) }
      if let engine = game.txt?.engine { object["engine"] = .string(engine) }
      object["watchable"] = .bool(watchers(game) != nil)
      if let watchers = watchers(game) { object["watchers"] = .number(watchers) }
      if let clock = game.txt?.clock { object["clock"] = .string(clock) }
      if let rule = game.txt?.rule { object["rule"] = .string(rule) }
      if let opening = game.txt?.opening { object["opening"] = .string(opening) }
      if let fingerprint = game.txt?.fingerprint { object["fingerprint"] = .string(fingerprint) }
      if let versions = game.txt?.protocolVersions { object["protocols"] = .array(versions.map { .number($0) }) }
      if let problems = game.txt?.problems, !problems.isEmpty {
        object["problems"] = .array(problems.map { .string("\($0)") })
      }
      return .object(object)
    }
    return JSONText.array(objects).text
  }

  /// `tictactoe list`: prints the games seen within `wait` seconds, leaving out this player's own.
  package static func list(wait: Double, json: Bool, profile: Profile) -> Int32 {
    let known = (try? profile.knownPeers()) ?? KnownPeers()
    let own = (try? IdentityStore(directory: profile.identityDirectory).load())??.fingerprint.description
    do {
      let games = try browse(for: wait)
        .filter { $0.txt?.fingerprint == nil || $0.txt?.fingerprint != own }
        .sorted { $0.instanceName < $1.instanceName }
      if json {
        writeAll(1, self.json(games, known: known) + "\n")
      } else if games.isEmpty {
        writeText(1, "No games found on the local network within \(wait) s.\n")
      } else {
        writeAll(1, "NAME\tRULES\tSTATE\tKEY\tADDRESSES\n")
        for game in games { writeText(1, line(game, known: known) + "\n") }
      }
      return ExitStatus.ok
    } catch {
      writeError("tictactoe: \(error.message)\n")
      return ExitStatus.discoveryUnavailable
    }
  }

  /// Browses on an event loop of its own until `done` says so (it is asked after every change) or `timeout`
  /// seconds pass; returns the browser with what it saw.
  private static func browse(timeout: Double, until done: @escaping (Browser) -> Bool) throws(DiscoveryError) -> Browser
  {
    let browser = try Browser()
    let loop = EventLoop()
    var failure: DiscoveryError?
    let sync = DescriptorSync(loop: loop) { fd, _ in
      for case .failed(let error) in browser.process(readable: [fd]) { failure = error }
    }
    loop.schedule(at: loop.now + timeout) { loop.stop() }
    loop.beforeEachWait {
      if failure != nil || done(browser) {
        loop.stop()
        return
      }
      sync.update(browser.descriptors.map { .init(fd: $0, events: Int16(POLLIN), owner: ObjectIdentifier(browser)) })
    }
    loop.run()
    sync.clear()
    if let failure {
      browser.cancel()
      throw failure
    }
    return browser
  }

  /// The games seen within `seconds`: for `tictactoe list`.
  static func browse(for seconds: Double) throws(DiscoveryError) -> [DiscoveredGame] {
    let browser = try browse(timeout: seconds) { _ in false }
    defer { browser.cancel() }
    return browser.games
  }

  /// Finds the game announced as `name` (waiting at most `timeout` seconds for it to resolve).
  package static func find(_ name: String, timeout: Double) -> Result<DiscoveredGame, MatchEnd> {
    let browser: Browser
    let wanted: (Browser) -> DiscoveredGame? = { browser in
      browser.games.first { $0.instanceName == name && $0.isConnectable }
    }
    do {
      browser = try browse(timeout: timeout) { wanted($0) != nil }
    } catch {
      return .failure(.discoveryUnavailable(ExplainedFailure(error)))
    }
    defer { browser.cancel() }
    if let game = wanted(browser) { return .success(game) }
    let seen = browser.games.map(\.instanceName).sorted().map { PeerText($0) }
    return .failure(.lanGameNotFound(name: PeerText(name), seconds: Int(timeout), seen: seen))
  }
}
