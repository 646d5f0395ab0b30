import GameCore
import NetworkFacts
import PeerTrust
import Security
import Session
import Testing
import Transport
import UntrustedText
import WireProtocol

@testable import App
@testable import MatchCoordination

/// Two coordinators, a host and a joiner, joined in memory: what one sends the other receives, on a clock the
/// test moves. No sockets and no TLS: each side is told what TLS established about the other (`PeerFacts`).
struct MatchPair {
  static let rules = try! Rules(size: 3, k: 3)
  static let endpoint = Endpoint(host: "127.0.0.1", port: 7177)

  var host: HostCoordinator
  var joiner: JoinerCoordinator
  var now = 1_000.0
  /// The host's number for each joiner connection, and the joiner's for its connection to the host: a
  /// connection is a pair of these.
  var links: [(host: ConnectionID, joiner: ConnectionID)] = []
  var hostEvents: [MatchEvent] = []
  var joinerEvents: [MatchEvent] = []
  var hostCommands: [MatchCommand] = []
  var joinerCommands: [MatchCommand] = []
  /// Connections closed (by number on each side).
  var closedByHost: Set<ConnectionID> = []
  var closedByJoiner: Set<ConnectionID> = []

  /// What the shell would find in the saved games against an opponent (`MatchCommand.lookUpRecord`).
  let opponentRecord: (Fingerprint, String) -> String?

  init(
    known: KnownPeers = KnownPeers(), keepsHosting: Bool = false, grace: Double = 60, clock: TimeControl = .none,
    opponentRecord: @escaping (Fingerprint, String) -> String? = { _, _ in nil }
  ) {
    let environment = MatchEnvironment.inMemory(sha256: Digest.sha256)
    self.opponentRecord = opponentRecord
    host = HostCoordinator(
      name: "alice", rules: MatchPair.rules, gracePeriod: grace, timeControl: clock, environment: environment)
    host.keepsHosting = keepsHosting
    host.welcome = [.status("welcome back")]
    host.knownPeersChanged(known)
    joiner = JoinerCoordinator(name: "bob", rules: MatchPair.rules, gracePeriod: grace, environment: environment)
    joiner.knownPeersChanged(known)
  }

  static func key(_ byte: UInt8) -> Fingerprint { Fingerprint(bytes: [UInt8](repeating: byte, count: 32))! }
  static let aliceKey = key(1)
  static let bobKey = key(2)
  /// Keys seen for the first time (trust on first use asks the player).
  static let newBob = facts("bob", bobKey, .askUser(name: "bob", fingerprint: bobKey))
  static let newAlice = facts("alice", aliceKey, .askUser(name: "alice", fingerprint: aliceKey))

  static func facts(_ name: String, _ key: Fingerprint, _ trust: TrustDecision) -> PeerFacts {
    let certificate = PeerCertificate(
      fingerprint: key, commonName: name, dnsNames: [], notBefore: 0, notAfter: 0, issuerCommonName: name,
      isSelfSigned: true, chainDER: [])
    return PeerFacts(
      certificate: certificate, trust: trust, verification: nil, protocolVersion: "TLSv1.3",
      cipher: "TLS_AES_128_GCM_SHA256")
  }

  /// The joiner starts joining; the host accepts the connection and both sides finish TLS with these facts.
  mutating func connect(
    hostSees joinerFacts: PeerFacts = facts("bob", bobKey, .trusted(.knownPeer(name: "bob"))),
    joinerSees hostFacts: PeerFacts = facts("alice", aliceKey, .trusted(.knownPeer(name: "alice")))
  ) {
    let address = try! Sockets.resolve(MatchPair.endpoint)[0]
    let commands = joiner.join([(MatchPair.endpoint, address)], now: now)
    guard let joinerID = MatchPair.connectID(commands) else {
      Issue.record("the joiner did not connect: \(commands)")
      return
    }
    joinerDid(commands)
    joiner.connected(joinerID, remote: MatchPair.endpoint)
    secure(joinerID: joinerID, hostSees: joinerFacts, joinerSees: hostFacts)
  }

  /// A joiner connection (`joinerID`, already connected) reaches the host, and both finish TLS.
  mutating func secure(joinerID: ConnectionID, hostSees joinerFacts: PeerFacts, joinerSees hostFacts: PeerFacts) {
    let (hostID, accepted) = host.accepted(peer: "127.0.0.1:5\(links.count)000", now: now)
    links.append((hostID, joinerID))
    hostDid(accepted)
    hostDid(host.secured(hostID, joinerFacts, now: now))
    joinerDid(joiner.secured(joinerID, hostFacts, now: now))
    deliver()
  }

  static func connectID(_ commands: [MatchCommand]) -> ConnectionID? {
    for command in commands {
      switch command {
      case .connect(let id, _, _), .reconnect(let id, _, _): return id
      default: continue
      }
    }
    return nil
  }

  private var toJoiner: [(ConnectionID, Message)] = []
  private var toHost: [(ConnectionID, Message)] = []

  mutating func hostDid(_ commands: [MatchCommand]) {
    hostCommands += commands
    for command in commands {
      switch command {
      case .send(let id, let message): toJoiner.append((id, message))
      case .close(let id, _): closedByHost.insert(id)
      case .report(let event): hostEvents.append(event)
      case .lookUpRecord(let key, let name): hostEvents += opponentRecord(key, name).map { [.opponentRecord($0)] } ?? []
      default: break
      }
    }
  }

  mutating func joinerDid(_ commands: [MatchCommand]) {
    joinerCommands += commands
    for command in commands {
      switch command {
      case .send(let id, let message): toHost.append((id, message))
      case .close(let id, _): closedByJoiner.insert(id)
      case .report(let event): joinerEvents.append(event)
      default: break
      }
    }
  }

  /// Carries every message sent to the other side, until both are quiet. A message sent before its
  /// connection was closed still arrives (a graceful close sends what was queued first); the other side
  /// then hears the connection end.
  mutating func deliver() {
    while !toJoiner.isEmpty || !toHost.isEmpty {
      if !toJoiner.isEmpty {
        let (hostID, message) = toJoiner.removeFirst()
        guard let link = links.first(where: { $0.host == hostID }), !closedByJoiner.contains(link.joiner) else {
          continue
        }
        joinerDid(joiner.received(link.joiner, message, now: now))
        if closedByHost.contains(hostID) && !toJoiner.contains(where: { $0.0 == hostID }) {
          joinerDid(joiner.ended(link.joiner, now: now))
        }
      }
      if !toHost.isEmpty {
        let (joinerID, message) = toHost.removeFirst()
        guard let link = links.first(where: { $0.joiner == joinerID }), !closedByHost.contains(link.host) else {
          continue
        }
        hostDid(host.received(link.host, message, now: now))
        if closedByJoiner.contains(joinerID) && !toHost.contains(where: { $0.0 == joinerID }) {
          hostDid(host.ended(link.host, now: now))
        }
      }
    }
  }

  /// Moves the clock on and lets both sides tick.
  mutating func advance(_ seconds: Double) {
    now += seconds
    hostDid(host.tick(now: now))
    joinerDid(joiner.tick(now: now))
    deliver()
  }

  /// The connection `link` breaks without a goodbye: each side hears it end.
  mutating func cut(_ link: (host: ConnectionID, joiner: ConnectionID)) {
    closedByHost.insert(link.host)
    closedByJoiner.insert(link.joiner)
    hostDid(host.ended(link.host, now: now))
    joinerDid(joiner.ended(link.joiner, now: now))
    deliver()
  }

  /// Plays cells in turn, each by whoever is to move.
  mutating func play(_ cells: [Int]) throws {
    for cell in cells {
      let position = Position(row: cell / 3, column: cell % 3)
      if host.session?.myTurn == true {
        hostDid(try host.play(position, now: now))
      } else {
        joinerDid(try joiner.play(position, now: now))
      }
      deliver()
    }
  }

  var hostStatuses: [String] { hostEvents.compactMap { if case .status(let text) = $0 { text } else { nil } } }
  var joinerStatuses: [String] {
    joinerEvents.compactMap {
      switch $0 {
      case .status(let text), .reconnecting(let text): text
      default: nil
      }
    }
  }
  var hostLog: [String] { hostCommands.compactMap { if case .log(let text) = $0 { text } else { nil } } }

  func started(_ events: [MatchEvent]) -> Int {
    events.filter { if case .session(.gameStarted) = $0 { true } else { false } }.count
  }
}

@Suite struct MatchCoordinatorTests {
  @Test func aKnownJoinerIsLetInAndTheGameIsPlayedToTheEnd() throws {
    var pair = MatchPair()
    pair.connect()
    #expect(pair.started(pair.hostEvents) == 1 && pair.started(pair.joinerEvents) == 1)
    #expect(pair.host.connections[pair.links[0].host]?.phase == .playing)
    #expect(pair.hostCommands.contains { if case .advertise(.playing, _) = $0 { true } else { false } })
    // X takes the top row; O plays below it.
    try pair.play([0, 3, 1, 4, 2])
    let ended = pair.hostEvents.contains { if case .session(.gameEnded(.line)) = $0 { true } else { false } }
    #expect(ended && pair.joinerEvents.contains { if case .session(.gameEnded(.line)) = $0 { true } else { false } })
  }

  @Test func theOpponentIsShownByTheNameTrustWasDecidedOnNotItsHello() {
    var pair = MatchPair()
    pair.connect(hostSees: MatchPair.facts("bob", MatchPair.bobKey, .trusted(.knownPeer(name: "carol"))))
    let hello = pair.hostEvents.compactMap { if case .session(.peerHello(let name, _)) = $0 { name } else { nil } }
    #expect(hello.map(\.unsanitised) == ["carol (calls itself bob)"])
  }

  @Test func aNewJoinerIsAskedAboutAndItsWordsWaitUntilThePlayerDecides() throws {
    var pair = MatchPair()
    pair.connect(hostSees: MatchPair.newBob)
    #expect(pair.host.question?.fingerprint == MatchPair.bobKey)
    #expect(pair.host.connections[pair.links[0].host]?.phase == .asking)
    #expect(pair.started(pair.hostEvents) == 0)
    // Chat from a joiner not let in is not shown under the question about its key.
    let now = pair.now
    pair.joinerDid(
      try pair.joiner.attempt(now: now) { (session) throws(ActionRefusal) in try session.chat("let me in!", now: now) })
    pair.deliver()
    #expect(!pair.hostEvents.contains { if case .session(.chat) = $0 { true } else { false } })
    pair.hostDid(pair.host.answer(accept: true, now: pair.now))
    pair.deliver()
    #expect(pair.started(pair.hostEvents) == 1)
    let remembered = pair.hostCommands.contains {
      if case .remember("bob", MatchPair.bobKey, nil) = $0 { true } else { false }
    }
    #expect(remembered, "the accepted key is remembered")
  }

  /// The name an accepted joiner is remembered by is its certificate's, which the player was shown the key
  /// with, not the name its hello gave (here they differ, so the two cannot be confused).
  @Test func anAcceptedJoinerIsRememberedByItsCertificatesNameNotItsHellos() throws {
    var pair = MatchPair()
    pair.connect(
      hostSees: MatchPair.facts("robert", MatchPair.bobKey, .askUser(name: "robert", fingerprint: MatchPair.bobKey)))
    let question = try #require(pair.host.question)
    #expect(question.peerName.unsanitised == "bob" && question.certificateName.unsanitised == "robert")
    pair.hostDid(pair.host.answer(accept: true, now: pair.now))
    pair.deliver()
    #expect(pair.started(pair.hostEvents) == 1)
    let remembered = pair.hostCommands.compactMap {
      if case .remember(let name, let key, _) = $0 { (name, key) } else { nil }
    }
    #expect(remembered.map(\.0) == ["robert"] && remembered.map(\.1) == [MatchPair.bobKey], "\(remembered)")
  }

  /// A new key whose certificate names someone unknown but whose hello claims a known player's name is still
  /// "not the one you know": the lookalike check reads both names, whether the player is asked or the key is let
  /// in with --accept-new.
  @Test(arguments: [false, true]) func aNewKeyWhoseHelloClaimsAKnownNameIsALookalike(acceptNew: Bool) throws {
    let day = try #require(CalendarDay(year: 2026, month: 11, day: 29))
    let knownBob = MatchPair.key(9)
    var pair = MatchPair(known: KnownPeers().adding(name: "Bob", fingerprint: knownBob, date: day))
    let mallory = MatchPair.key(7)
    let trust: TrustDecision = acceptNew ? .trusted(.acceptedNew) : .askUser(name: "mallory", fingerprint: mallory)
    pair.connect(hostSees: MatchPair.facts("mallory", mallory, trust))  // its hello says "bob"
    if acceptNew {
      #expect(pair.host.question == nil)
      #expect(
        pair.hostStatuses.first == "WARNING: a new player calling itself bob — not the bob you know.",
        "\(pair.hostStatuses)")
      #expect(pair.hostStatuses.contains { $0.contains(knownBob.description) }, "\(pair.hostStatuses)")
    } else {
      let question = try #require(pair.host.question)
      #expect(question.lookalikes.map(\.fingerprint) == [knownBob])
      #expect(question.lines.first == "WARNING: a new player calling itself bob — not the bob you know.")
    }
  }

  /// The coordinator reads no file: it decides on the known peers the shell last handed it. Bob, known when the
  /// match began and forgotten since (another process's `peers forget`), is a lookalike no more once the shell
  /// hands in the file as it is now; a new "bob" is then just a new player.
  @Test func theKnownPeersHandedInLaterAreTheOnesDecidedOn() throws {
    let day = try #require(CalendarDay(year: 2026, month: 11, day: 29))
    let knownBob = MatchPair.key(9)
    var pair = MatchPair(known: KnownPeers().adding(name: "bob", fingerprint: knownBob, date: day))
    pair.host.knownPeersChanged(KnownPeers())
    pair.connect(hostSees: MatchPair.newBob)
    let question = try #require(pair.host.question)
    #expect(question.lookalikes.isEmpty, "\(question.lines)")
    var before = MatchPair(known: KnownPeers().adding(name: "bob", fingerprint: knownBob, date: day))
    before.connect(hostSees: MatchPair.newBob)
    #expect(try #require(before.host.question).lookalikes.map(\.fingerprint) == [knownBob])
  }

  /// The words of a peer the player has not let in (a joiner whose key the host's player is asked about, a host
  /// whose key the joiner's player is asked about) never reach the screen: its goodbye is shown without its text.
  @Test(arguments: [true, false]) func anUntrustedPeersGoodbyeTextIsKeptOffTheScreen(onHost: Bool) throws {
    let words = "\u{1B}[2JYour bank says: type your password"
    var pair = MatchPair()
    if onHost {
      pair.connect(hostSees: MatchPair.newBob)
      try #require(pair.host.question != nil)
      pair.hostDid(pair.host.received(pair.links[0].host, .bye(.quit, text: words), now: pair.now))
    } else {
      pair.connect(joinerSees: MatchPair.newAlice)
      try #require(pair.joiner.question != nil)
      pair.joinerDid(pair.joiner.received(pair.links[0].joiner, .bye(.quit, text: words), now: pair.now))
    }
    let events = onHost ? pair.hostEvents : pair.joinerEvents
    #expect(!events.isEmpty, "the goodbye was not reported at all")
    let shown = events.map { "\($0)" }.joined(separator: "\n")
    #expect(!shown.contains("Your bank says"), "\(shown)")
    if !onHost { #expect(pair.joiner.finished == .session(.peerQuit(""))) }
  }

  /// The other half: a peer that was let in is shown its goodbye as it wrote it (sanitised when drawn).
  @Test func aTrustedPeersGoodbyeTextIsShown() {
    var pair = MatchPair()
    pair.connect()
    pair.hostDid(pair.host.received(pair.links[0].host, .bye(.quit, text: "good game"), now: pair.now))
    #expect(pair.host.finished == .session(.peerQuit("good game")))
  }

  @Test func aJoinerTheHostDeclinesIsToldSoAndTheHostHostsOn() {
    var pair = MatchPair()
    pair.connect(hostSees: MatchPair.newBob)
    pair.hostDid(pair.host.answer(accept: false, now: pair.now))
    pair.deliver()
    #expect(pair.joiner.finished == .session(.refused(.declined, "alice declined")))
    #expect(pair.host.finished == nil && pair.host.active == nil)
  }

  /// Nothing about the player goes to a host it declines: no hello, only that its player was deciding (rule 13).
  @Test func aJoinerThatDeclinesTheHostsKeySendsNothing() {
    var pair = MatchPair()
    pair.connect(joinerSees: MatchPair.newAlice)
    #expect(pair.joiner.question != nil)
    pair.joinerDid(pair.joiner.answer(accept: false, now: pair.now))
    let sent = pair.joinerCommands.compactMap { if case .send(_, let message) = $0 { message } else { nil } }
    #expect(sent == [.deciding], "no hello went out")
    if case .declinedByPlayer = pair.joiner.finished {} else { Issue.record("\(pair.joiner.finished as Any)") }
  }

  @Test func aSecondJoinerIsTurnedAwayAsBusy() {
    var pair = MatchPair()
    pair.connect()
    var second = MatchPair()
    second.host = pair.host
    second.connect(hostSees: MatchPair.facts("eve", MatchPair.key(5), .trusted(.knownPeer(name: "eve"))))
    #expect(second.joiner.finished == .session(.refused(.busy, "alice is already playing; try again later")))
    #expect(second.host.active == pair.host.active, "the game goes on with the first joiner")
    #expect(second.hostLog.contains { $0.hasPrefix("session with 127.0.0.1:50000 ended") })
  }

  @Test func aHostWhoseKeyDiffersFromItsAdvertisementIsAnImpostor() {
    var pair = MatchPair()
    pair.joiner.advertisedFingerprint = MatchPair.key(9)
    pair.connect()
    #expect(pair.joiner.finished == .impostor(advertised: MatchPair.key(9), presented: MatchPair.aliceKey))
    #expect(!pair.joinerCommands.contains { if case .send = $0 { true } else { false } })
  }

  /// A dropped game: both keep it, the joiner reconnects, and the same key takes it up where it was.
  @Test func aDroppedGameIsResumedByTheSameKeyOnANewConnection() throws {
    var pair = MatchPair()
    pair.connect()
    try pair.play([0, 4])
    pair.cut(pair.links[0])
    if case .lost = pair.host.session?.link {} else { Issue.record("the host did not keep the game") }
    #expect(pair.joiner.route.reconnectAt == pair.now)
    pair.advance(0.1)
    guard let id = MatchPair.connectID(pair.joinerCommands.suffix(3)) else {
      Issue.record("no reconnection: \(pair.joinerCommands.suffix(3))")
      return
    }
    pair.joiner.connected(id, remote: MatchPair.endpoint)
    pair.secure(
      joinerID: id, hostSees: MatchPair.facts("bob", MatchPair.bobKey, .trusted(.knownPeer(name: "bob"))),
      joinerSees: MatchPair.facts("alice", MatchPair.aliceKey, .trusted(.knownPeer(name: "alice"))))
    #expect(pair.host.active == pair.links[1].host && pair.joiner.active == id)
    #expect(pair.host.session?.game?.history.count == 2 && pair.joiner.session?.game?.history.count == 2)
    let resumed = pair.joinerEvents.contains { if case .session(.resumed(1, 2)) = $0 { true } else { false } }
    #expect(resumed, "\(pair.joinerEvents)")
    try pair.play([1, 8, 2])
    #expect(pair.host.session?.game?.isOver == true)
  }

  /// The joiner's program restarted: the same key greets afresh instead of resuming. The host offers the game it
  /// kept (PROTOCOL.md rule 19); a joiner with no journal of it asks its player, who declines here: the game is lost
  /// by the joiner, the side that went away, on both sides. The match goes on with that game's first player kept.
  @Test func theSameKeyGreetingAfreshIsOfferedTheKeptGame() throws {
    var pair = MatchPair()
    pair.connect()
    let hostWasX = try #require(pair.host.session?.myMark) == .x
    try pair.play([0])
    pair.cut(pair.links[0])
    // A new joiner program with the same key: it knows nothing of the game (and numbers its connections afresh).
    pair.joiner = MatchPair().joiner
    pair.links = []
    pair.closedByJoiner = []
    pair.connect()
    let offered = "bob came back after a restart: offering game 1 at move 2, kept here."
    #expect(pair.hostStatuses.contains(offered), "\(pair.hostStatuses)")
    #expect(pair.host.active == pair.links[0].host)
    let asked = pair.joinerEvents.contains {
      if case .askTerms(let lines) = $0 { lines.first?.contains("take it up?") == true } else { false }
    }
    #expect(asked && pair.joiner.keptAsked, "\(pair.joinerEvents)")
    pair.joinerDid(pair.joiner.answer(accept: false, now: pair.now))
    pair.deliver()
    #expect(!pair.joiner.keptAsked)
    let session = try #require(pair.host.session)
    #expect(session.gameNumber == 1 && session.game?.history == [Position(row: 0, column: 0)])
    #expect(session.lastResult == .abandoned(loser: hostWasX ? .o : .x) && session.score.wins == 1)
    #expect(pair.joiner.session?.lastResult == session.lastResult && pair.joiner.session?.score.losses == 1)
    #expect(session.firstPlayerWasKept && session.phase == .betweenGames)
  }

  /// The same, with the joiner's journal of the game found on its disk: the game is taken up where it stood.
  @Test func aRestartedJoinerWithItsJournalTakesTheKeptGameUp() throws {
    var pair = MatchPair()
    pair.connect()
    try pair.play([0, 4])
    pair.cut(pair.links[0])
    pair.joiner = MatchPair().joiner
    pair.joiner.journal = MatchJournal(myKey: "bob")
    let hostX = try #require(pair.host.session?.myMark) == .x
    let moves = [Position(row: 0, column: 0), Position(row: 1, column: 1)]
    pair.joiner.journal?.found[MatchPair.aliceKey] = KeptGame(
      rules: MatchPair.rules, gameNumber: 1, hostPlaysX: hostX, moves: moves)
    pair.links = []
    pair.closedByJoiner = []
    pair.connect()
    for session in [pair.host.session, pair.joiner.session] {
      #expect(session?.phase == .playing && session?.game?.history == moves && session?.link == .up)
    }
    #expect(pair.joiner.session?.myMark == (hostX ? .o : .x))
    try pair.play([8])
    #expect(pair.host.session?.game?.history.count == 3 && pair.joiner.session?.game?.history.count == 3)
  }

  /// While a dropped game is kept, another key is another player: turned away as busy, and the game waits on.
  @Test func anotherKeyWhileTheGameIsKeptIsTurnedAwayAsBusy() throws {
    var pair = MatchPair()
    pair.connect()
    try pair.play([0])
    pair.cut(pair.links[0])
    var eve = MatchPair()
    eve.host = pair.host
    eve.connect(hostSees: MatchPair.facts("bob", MatchPair.key(6), .trusted(.knownPeer(name: "eve"))))
    #expect(eve.joiner.finished == .session(.refused(.busy, "alice is already playing; try again later")))
    if case .lost = eve.host.session?.link {} else { Issue.record("the kept game was lost") }
  }

  /// An address that answers TCP but is not the host (TLS fails there) is not where reconnections go: the one
  /// where the host was reached and trusted is.
  @Test func reconnectionsGoWhereTheHostWasTrustedNotWhereTCPFirstAnswered() throws {
    var pair = MatchPair()
    let other = Endpoint(host: "127.0.0.2", port: 7177)
    let candidates = [
      (MatchPair.endpoint, try Sockets.resolve(MatchPair.endpoint)[0]), (other, try Sockets.resolve(other)[0]),
    ]
    let wrong = try #require(MatchPair.connectID(pair.joiner.join(candidates, now: pair.now)))
    pair.joiner.connected(wrong, remote: MatchPair.endpoint)
    let next = pair.joiner.failed(wrong, .network(.closedDuringHandshake), now: pair.now)
    let right = try #require(MatchPair.connectID(next))
    pair.joiner.connected(right, remote: other)
    pair.secure(
      joinerID: right, hostSees: MatchPair.facts("bob", MatchPair.bobKey, .trusted(.knownPeer(name: "bob"))),
      joinerSees: MatchPair.facts("alice", MatchPair.aliceKey, .trusted(.knownPeer(name: "alice"))))
    #expect(pair.started(pair.joinerEvents) == 1)
    try pair.play([0])
    pair.cut(pair.links[0])
    pair.advance(0.1)
    let reconnection = pair.joinerCommands.compactMap { if case .reconnect(_, let to, _) = $0 { to } else { nil } }
    #expect(reconnection == [other], "\(pair.joinerCommands.suffix(3))")
  }

  /// A flood of connections makes room by dropping those still setting up TLS: a real joiner that finished TLS
  /// and whose player is reading the question about the host's key keeps its place.
  @Test func aFloodDoesNotPushOutAJoinerWhosePlayerIsReadingTheQuestion() throws {
    var pair = MatchPair()
    pair.connect(joinerSees: MatchPair.newAlice)
    let reading = pair.links[0].host
    #expect(pair.host.connections[reading]?.phase == .greeting && pair.joiner.question != nil)
    for index in 0..<(2 * HostCoordinator.maximumPending) {
      let (_, commands) = pair.host.accepted(peer: "10.0.0.1:\(index)", now: pair.now)
      pair.hostDid(commands)
    }
    #expect(!pair.closedByHost.contains(reading))
    pair.joinerDid(pair.joiner.answer(accept: true, now: pair.now))
    pair.deliver()
    #expect(pair.started(pair.hostEvents) == 1 && pair.started(pair.joinerEvents) == 1)
  }

  /// After the host came back with another key the kept game is over: its grace period does not run on and it
  /// cannot be claimed.
  @Test func afterAChangedKeyTheKeptGameIsNoLongerKept() throws {
    var pair = MatchPair(grace: 5)
    pair.connect()
    try pair.play([0])
    pair.cut(pair.links[0])
    pair.advance(0.1)
    let id = try #require(MatchPair.connectID(pair.joinerCommands.suffix(3)))
    pair.joiner.connected(id, remote: MatchPair.endpoint)
    let mallory = MatchPair.facts("alice", MatchPair.key(7), .trusted(.knownPeer(name: "alice")))
    pair.joinerDid(pair.joiner.secured(id, mallory, now: pair.now))
    let end = pair.joiner.finished
    pair.joinerEvents = []
    for _ in 0..<10 { pair.advance(1) }
    #expect(pair.joiner.finished == end && pair.joinerEvents.isEmpty, "\(pair.joinerEvents)")
    #expect(pair.joiner.nextDeadline == nil)
    #expect(throws: ActionRefusal.matchOver) {
      _ = try pair.joiner.attempt(now: pair.now) { (session) throws(ActionRefusal) in try session.claim(now: 0) }
    }
  }

  /// The host hears its record against the opponent it plays, not against a joiner it turns away as busy.
  @Test func theRecordAgainstAJoinerTurnedAwayIsNotShown() {
    let records = MatchRecords(
      exchange: RecordExchange(isHost: true, sign: { _ in nil }, verify: { _, _, _ in false }), myKey: nil,
      today: { "2026-12-01" })
    var pair = MatchPair(opponentRecord: { _, name in "you and \(name): 1–0" })
    pair.host.records = records
    pair.connect()
    var eve = MatchPair()
    eve.host = pair.host
    eve.connect(hostSees: MatchPair.facts("eve", MatchPair.key(5), .trusted(.knownPeer(name: "eve"))))
    let shown = (pair.hostEvents + eve.hostEvents).compactMap {
      if case .opponentRecord(let line) = $0 { line } else { nil }
    }
    #expect(shown == ["you and bob: 1–0"])
  }

  @Test func aReconnectionAnsweredByAnotherKeyEndsTheMatch() throws {
    var pair = MatchPair()
    pair.connect()
    try pair.play([0])
    pair.cut(pair.links[0])
    pair.advance(0.1)
    let id = try #require(MatchPair.connectID(pair.joinerCommands.suffix(3)))
    pair.joiner.connected(id, remote: MatchPair.endpoint)
    let mallory = MatchPair.facts("alice", MatchPair.key(7), .trusted(.knownPeer(name: "alice")))
    pair.joinerDid(pair.joiner.secured(id, mallory, now: pair.now))
    #expect(pair.joiner.finished == .keyChangedOnReconnect(before: MatchPair.aliceKey, now: MatchPair.key(7)))
    #expect(pair.joiner.route.reconnectAt == nil, "no more attempts")
  }

  @Test func reconnectionsBackOffAndSayWhenTheNextOneIs() throws {
    var pair = MatchPair()
    pair.connect()
    try pair.play([0])
    pair.cut(pair.links[0])
    var delays: [Double] = []
    for _ in 0..<7 {
      let due = try #require(pair.joiner.route.reconnectAt)
      pair.now = due
      pair.joinerDid(pair.joiner.tick(now: pair.now))
      let id = try #require(MatchPair.connectID(pair.joinerCommands.suffix(3)))
      pair.joinerDid(pair.joiner.failed(id, .network(.connectionRefused(MatchPair.endpoint)), now: pair.now))
      delays.append(try #require(pair.joiner.route.reconnectAt) - pair.now)
    }
    #expect(delays == [0.5, 1, 2, 4, 8, 10, 10])
    let said = pair.joinerStatuses
    #expect(said.contains { $0.hasPrefix("Reconnection attempt 1 failed") && $0.hasSuffix("Next try in 0.5 s.") })
    #expect(said.contains { $0.hasPrefix("Reconnection attempt 5 failed") && $0.hasSuffix("Next try in 8 s.") })
    // Each attempt's lines are a reconnection's, which a screen keeps on one line, not statuses of their own.
    let statuses = pair.joinerEvents.compactMap { if case .status(let text) = $0 { text } else { nil } }
    #expect(!statuses.contains { $0.contains("Reconnect") }, "\(statuses)")
    let progress = pair.joinerEvents.filter { if case .reconnecting = $0 { true } else { false } }
    #expect(progress.count == 14, "an attempt and its failure, seven times")
  }

  @Test func theFirstConnectionTriesTheNextAddressAfterARefusal() throws {
    var joiner = MatchPair().joiner
    let other = Endpoint(host: "127.0.0.2", port: 7177)
    let candidates = [
      (MatchPair.endpoint, try Sockets.resolve(MatchPair.endpoint)[0]), (other, try Sockets.resolve(other)[0]),
    ]
    let first = try #require(MatchPair.connectID(joiner.join(candidates, now: 0)))
    let next = joiner.failed(first, .network(.connectionRefused(MatchPair.endpoint)), now: 0)
    let second = try #require(MatchPair.connectID(next))
    #expect(second != first && joiner.active == second && joiner.finished == nil)
    _ = joiner.failed(second, .network(.connectionRefused(other)), now: 0)
    #expect(joiner.finished == .network(.connectionRefused(other)))
  }

  @Test func aJoinerThatNeverFinishesTLSOrNeverSaysHelloIsGivenUp() {
    var pair = MatchPair()
    let (silent, _) = pair.host.accepted(peer: "127.0.0.1:1", now: pair.now)
    let (mute, _) = pair.host.accepted(peer: "127.0.0.1:2", now: pair.now)
    pair.hostDid(pair.host.secured(mute, MatchPair.facts("m", MatchPair.key(3), .trusted(.insecure)), now: pair.now))
    // Heartbeats keep the session from falling silent, but not a connection that never says hello.
    var waited = 0.0
    while !pair.closedByHost.contains(mute) && waited < 2 * helloTimeout {
      pair.hostDid(pair.host.received(mute, .heartbeat, now: pair.now))
      pair.advance(5)
      waited += 5
      if waited == MatchCore.handshakeTimeout {
        #expect(pair.closedByHost.contains(silent) && !pair.closedByHost.contains(mute), "\(pair.hostLog)")
      }
    }
    #expect(waited == helloTimeout)
    #expect(pair.closedByHost.contains(mute))
    #expect(pair.hostLog.contains { $0.contains("did not say hello within 60 s") })
    #expect(pair.host.finished == nil)
  }

  @Test func atThePendingCapTheOldestMakesRoomButAJoinerBeingAskedAboutKeepsItsPlace() {
    var pair = MatchPair()
    pair.connect(hostSees: MatchPair.newBob)
    let asked = pair.links[0].host
    var silent: [ConnectionID] = []
    for index in 0..<(HostCoordinator.maximumPending + 5) {
      let (id, commands) = pair.host.accepted(peer: "10.0.0.1:\(index)", now: pair.now)
      pair.hostDid(commands)
      silent.append(id)
    }
    #expect(!pair.closedByHost.contains(asked), "the joiner the player is asked about was dropped")
    #expect(silent.prefix(5).allSatisfy { pair.closedByHost.contains($0) })
    #expect(silent.suffix(HostCoordinator.maximumPending).allSatisfy { !pair.closedByHost.contains($0) })
    pair.hostDid(pair.host.answer(accept: true, now: pair.now))
    pair.deliver()
    #expect(pair.started(pair.hostEvents) == 1)
  }

  @Test func aHostThatKeepsHostingWelcomesTheNextOpponent() throws {
    var pair = MatchPair(keepsHosting: true)
    pair.connect()
    pair.joinerDid(pair.joiner.quit(now: pair.now))
    pair.deliver()
    #expect(pair.host.finished == nil && pair.host.active == nil)
    #expect(pair.hostEvents.contains { if case .opponentGone = $0 { true } else { false } })
    #expect(pair.hostStatuses.last == "welcome back")
    var next = MatchPair(keepsHosting: true)
    next.host = pair.host
    next.connect()
    #expect(next.started(next.hostEvents) == 1)
  }

  @Test func aPlayerWhoQuitsSaysGoodbyeAndTheOtherSideIsToldWhy() {
    var pair = MatchPair()
    pair.connect()
    pair.hostDid(pair.host.quit(now: pair.now))
    pair.deliver()
    #expect(pair.host.finished == .session(.localQuit))
    #expect(pair.joiner.finished == .session(.peerQuit("")))
    #expect(pair.hostCommands.contains { if case .stopAdvertising = $0 { true } else { false } })
  }

  @Test func actionsThatCannotApplyAreRefusedWithTheirReason() {
    var joiner = MatchPair().joiner
    #expect(throws: ActionRefusal.notStarted) {
      _ = try joiner.attempt(now: 0) { (session) throws(ActionRefusal) in try session.resign(now: 0) }
    }
    _ = joiner.joinFailed(.network(.connectionRefused(MatchPair.endpoint)))
    #expect(throws: ActionRefusal.matchOver) {
      _ = try joiner.attempt(now: 0) { (session) throws(ActionRefusal) in try session.resign(now: 0) }
    }
  }
}

/// The ordinary host under the same per-address limits as the bot (`SourceLimits`), in memory.
@Suite struct HostLimitsTests {
  static func limits(_ numbers: SourceLimits.Numbers = .init(), deny: String = "none") -> SourceLimits {
    SourceLimits(numbers: numbers, deny: try! DenyList(parsing: deny), exempt: DenyList(), now: 0)
  }

  static func closed(_ commands: [MatchCommand], _ id: ConnectionID) -> Bool {
    commands.contains { if case .close(id, graceful: false) = $0 { true } else { false } }
  }

  @Test func anAddressOnTheDenyListIsClosedBeforeTLS() {
    var pair = MatchPair()
    pair.host.limits = Self.limits(deny: "10.0.0.0/8")
    let (denied, refused) = pair.host.accepted(peer: "10.1.2.3:5000", now: pair.now)
    #expect(Self.closed(refused, denied))
    #expect(refused.contains { if case .log(let line) = $0 { line.contains("deny list") } else { false } })
    let (other, fine) = pair.host.accepted(peer: "192.0.2.7:5000", now: pair.now)
    #expect(!Self.closed(fine, other) && pair.host.connections[other]?.phase == .handshaking)
  }

  @Test func oneAddressHasAtMostSoManyConnectionsAtOnceAndGetsItsPlaceBackWhenOneCloses() {
    var numbers = SourceLimits.Numbers()
    numbers.connectionsPerAddress = 3
    var pair = MatchPair()
    pair.host.limits = Self.limits(numbers)
    var ids: [ConnectionID] = []
    for port in 0..<4 {
      let (id, commands) = pair.host.accepted(peer: "198.51.100.9:\(port)", now: pair.now)
      #expect(Self.closed(commands, id) == (port == 3), "connection \(port)")
      ids.append(id)
    }
    // Another address is not held back by this one.
    let (elsewhere, commands) = pair.host.accepted(peer: "198.51.100.10:1", now: pair.now)
    #expect(!Self.closed(commands, elsewhere))
    // The three silent ones are given up at the handshake deadline: the address may connect again.
    pair.advance(MatchCore.handshakeTimeout)
    #expect(ids.prefix(3).allSatisfy { pair.closedByHost.contains($0) })
    let (again, after) = pair.host.accepted(peer: "198.51.100.9:9", now: pair.now)
    #expect(!Self.closed(after, again))
  }

  @Test func newKeysFromOneAddressAreTurnedAwayPastTheirLimit() {
    var numbers = SourceLimits.Numbers()
    numbers.newKeyBurst = 1
    numbers.newKeysPerMinute = 1
    var pair = MatchPair()
    pair.host.limits = Self.limits(numbers)
    pair.connect(hostSees: MatchPair.newBob)
    #expect(pair.host.question != nil, "the first new key is asked about")
    pair.hostDid(pair.host.answer(accept: false, now: pair.now))
    pair.deliver()
    var eve = MatchPair()
    eve.host = pair.host
    let eveKey = MatchPair.key(5)
    eve.connect(hostSees: MatchPair.facts("eve", eveKey, .askUser(name: "eve", fingerprint: eveKey)))
    #expect(eve.host.question == nil, "no second question")
    guard case .session(.refused(.busy, let text)) = eve.joiner.finished else {
      Issue.record("\(eve.joiner.finished as Any)")
      return
    }
    #expect(text.unsanitised.contains("not taking new players from your address"))
    // A known key from the same address still gets in.
    var carol = MatchPair()
    carol.host = eve.host
    carol.connect(hostSees: MatchPair.facts("carol", MatchPair.key(8), .trusted(.knownPeer(name: "carol"))))
    #expect(carol.started(carol.hostEvents) == 1)
  }
}
