import GameCore
import PeerTrust
import Session
import UntrustedText
import WireProtocol

/// What the two sides of a match share: the connections and the sessions on them, the question waiting for
/// the player, how the match ended, its records, and what a session's outputs mean. Pure.
public struct MatchCore {
  /// Seconds a connection has to connect and finish TLS.
  public static let handshakeTimeout = 10.0

  public struct Configuration {
    public var role: Role
    public var name: String
    public var rules: Rules
    public var gracePeriod: Double
    /// Host: the time control offered in its terms (a joiner plays the host's).
    public var timeControl: TimeControl = .none
    /// Host: how its games open (version 4: the usual opening, or Swap2).
    public var opening: Opening = .standard
    /// Host: who may watch its games (version 4; its terms say whether anyone may); nil: its terms do not say,
    /// and nobody may.
    public var spectators: SpectatorPolicy?
    /// Host: how many moves late its spectators see a game (`--watch-delay`, the setting `watch_delay`); 0: live.
    public var watchDelay = 0
    /// Spectator: the game its hello asks to watch (0: the host's); nil for a player.
    public var watch: UInt16?
  }

  public var configuration: Configuration
  public let environment: MatchEnvironment
  public var connections = MatchConnections()
  public var question: TrustQuestion?
  /// Joiner: the host's terms (a timed game) its player is asked to accept before the joiner's hello goes.
  public var termsAsked: HostTerms?
  /// Joiner: its player is asked whether to take up a game the host kept through a restart (PROTOCOL.md rule 19).
  public var keptAsked = false
  public var finished: MatchEnd?
  /// Where finished games are recorded (nil: not recorded).
  public var records: MatchRecords?
  /// The journal of the game in progress (nil: not kept).
  public var journal: MatchJournal?
  /// The player's known peers as the shell last read them (nil: unreadable). The match reads no file: the shell
  /// hands them in again (`knownPeersChanged`) when a write of ours or another process changed the file.
  public var knownPeers: KnownPeers?
  /// Lines about connections never let in (arrived, secured, closed): a few a minute per address and 5 a second
  /// from all addresses, so a flood of connections from many addresses cannot fill the log.
  public var strangers = PerAddressLog(burst: 6, perMinute: 3)
  public var strangersInAll = TokenBuckets<Int>(rate: 5, burst: 50)
  /// Lines held back by `strangersInAll` since the last one written.
  public var strangersHeldBack = 0

  /// `line` about the connection `id`: as it is once it was let in or is the game's, or when its address is
  /// exempt from the host's limits (by default 127.0.0.1 and ::1, this machine's own players and tests), else a
  /// few a minute per address (none when held back).
  public mutating func log(_ line: String, about id: ConnectionID, now: Double) -> [MatchCommand] {
    guard let connection = connections[id], !connection.admitted, id != active,
      connections.limits?.exempt.refuses(connection.peer) != true
    else { return [.log(line)] }
    guard let line = strangers.line(line, about: connection.peer, now: now) else { return [] }
    guard strangersInAll.take(0, now: now) else {
      strangersHeldBack += 1
      return []
    }
    defer { strangersHeldBack = 0 }
    return [.log(strangersHeldBack > 0 ? "\(line) (and \(strangersHeldBack) lines about others not logged)" : line)]
  }

  /// The connection whose game this is (host: the joiner it let in or is asking about).
  public var active: ConnectionID? {
    get { connections.active }
    set { connections.active = newValue }
  }

  public func newSession(now: Double) -> NetSession {
    var settings = NetSession.Configuration(
      role: configuration.role, name: configuration.name, software: environment.software,
      rules: configuration.rules, gracePeriod: configuration.gracePeriod, timeControl: configuration.timeControl,
      opening: configuration.opening)
    settings.watchable = configuration.role == .host ? configuration.spectators.map { $0 != .none } : nil
    settings.watch = configuration.watch
    return NetSession(configuration: settings, coinBytes: environment.coin(), sha256: environment.sha256, now: now)
  }

  public func peer(_ id: ConnectionID) -> String { connections[id]?.peer ?? "?" }

  /// What a session said that its side decides on; everything else `translate` turns into commands itself.
  public enum LeftToDecide {
    case hello(name: PeerText, software: PeerText)
    /// The session ended (the connection is closed); `admitted`: the peer had been let in.
    case closed(SessionEnd, admitted: Bool)
    /// The game's connection dropped mid-match: the game is kept.
    case dropped
  }

  /// One output of the session on `id`, as commands, and what is left for the side to decide.
  public mutating func translate(_ output: SessionOutput, on id: ConnectionID, now: Double) -> (
    [MatchCommand], LeftToDecide?
  ) {
    guard let connection = connections[id] else { return ([], nil) }
    let isActive = id == active
    var commands: [MatchCommand] = []
    if isActive, let session = connection.session {
      let peerKey = connection.facts?.certificate?.publicKeyBase64
      commands += recordCommands(records?.after(output, session: session, peerKey: peerKey), on: id)
      if let peer = connection.facts?.certificate?.fingerprint, let peerKey,
        let command = journal?.after(session, peer: peer, peerKey: peerKey)
      {
        commands.append(command)
      }
    }
    switch output {
    case .send(let message):
      if !connection.isClosed { commands.append(.send(id, message)) }  // else sent again on resume
    case .connectionLost(let until):
      let seconds = Int((until - now).rounded())
      commands.append(.log("connection to \(connection.peer) lost mid-match: keeping the game \(seconds) s"))
      commands += connections.close(id, graceful: false)
      if isActive { return (commands + [.report(.session(output))], .dropped) }
    case .gameFlow(.keptGameOffered(let ply)) where isActive && configuration.role == .joiner:
      // Put to the player as a yes-or-no question, as the terms are; the board shown is the game offered.
      keptAsked = true
      let host = connection.session?.peerName.map { "\($0)" } ?? "The host"
      commands.append(.report(.askTerms([MatchWords.gameFlow(.keptGameOffered(ply: ply), peer: host, keys: .plain)])))
    case .chat where question != nil:
      // Not admitted yet: its words must not appear under the question about its key.
      commands.append(.log("chat from \(connection.peer) dropped: the player has not decided on its key"))
    case .resumed(let game, let ply):
      commands.append(.log("resumed game \(game) at ply \(ply) with \(connection.peer)"))
      if isActive { commands.append(.report(.session(output))) }
    case .closed(let end):
      commands += log("session with \(connection.peer) ended: \(end)", about: id, now: now)
      return (commands + connections.close(id, graceful: true), .closed(end, admitted: connection.admitted))
    case .peerHello(let name, let software):
      commands.append(.log("hello from \(name) (\(software)) at \(connection.peer)"))
      return (commands, .hello(name: name, software: software))
    case .gameStarted(1, let mark)
    where isActive && connection.session?.firstPlayerWasKept == true
      && connection.session?.game?.history.isEmpty == true:
      let who = configuration.role == .host ? "Your opponent" : "You"
      commands += [
        .log("first player kept from the game left within the grace period: \(mark) here"),
        .report(
          .status("\(who) left a game here moments ago and came back: its first player is kept (no new coin toss).")),
        .report(.session(output)),
      ]
    default:
      if isActive { commands.append(.report(.session(output))) }
    }
    return (commands, nil)
  }

  /// When games are recorded: the record against the peer on `id` is looked up in the saved games (by the
  /// shell, off the loop), named as the player knows its key, or by the name it gave.
  public func greeting(on id: ConnectionID, helloName: PeerText) -> [MatchCommand] {
    // A spectator has no record against the host: it watches, it does not play.
    guard records != nil, configuration.watch == nil, let key = connections[id]?.facts?.certificate?.fingerprint
    else { return [] }
    let known = knownPeers?.lookup(fingerprint: key)?.name
    let name = known.map { PeerText($0).description } ?? helloName.description
    return [.lookUpRecord(against: key, name: name)]
  }

  /// The peer's signature over a game's record.
  public mutating func signature(game: Int, date: String, signature: [UInt8], on id: ConnectionID) -> [MatchCommand] {
    guard id == active else { return [] }
    return recordCommands(records?.received(game: game, date: date, signature: signature), on: id)
  }

  /// Carries out a step of the record exchange: the signature to send, the problem to tell.
  private func recordCommands(_ outcome: MatchRecords.Outcome?, on id: ConnectionID) -> [MatchCommand] {
    guard let outcome else { return [] }
    var commands: [MatchCommand] = []
    if let (record, file) = outcome.write { commands.append(.keepRecord(record, file: file)) }
    if let message = outcome.send, connections[id]?.isClosed == false { commands.append(.send(id, message)) }
    if let problem = outcome.problem { commands += [.log(problem), .report(.status(problem))] }
    return commands
  }

  /// Carries out a trust verdict on `id`: the player is asked (`asked`: nothing more happens until the answer),
  /// or what letting the peer in says.
  public mutating func apply(_ verdict: MatchTrust.Verdict, on id: ConnectionID) -> (
    commands: [MatchCommand], asked: Bool
  ) {
    switch verdict {
    case .ask(let question):
      connections[id]?.phase = .asking
      self.question = question
      return ([.report(.ask(question))], true)
    case .letIn(let said):
      return (said, false)
    }
  }

  /// The end a player is shown: a peer not let in (or about whose key the player is still asked) is shown
  /// only its key and claimed name, not its goodbye or error text.
  public func shown(_ end: SessionEnd, on id: ConnectionID, admitted: Bool) -> SessionEnd {
    let asked = id == active && question != nil
    let trusted = configuration.role == .host ? admitted && !asked : !asked
    return trusted ? end : end.withoutPeerText
  }
}
