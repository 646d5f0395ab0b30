import GameCore
import PeerTrust
import Session
import Testing
import WireProtocol

@testable import App
@testable import MatchCoordination

/// A host whose program restarted while its joiner kept the game (PROTOCOL.md rule 19), with the real host and joiner
/// coordinators in memory: the joiner reconnects as after any drop, the new host greets it with hello naming the
/// game its journal keeps, and the journal decides whether the joiner's game is taken up or lost by the host.
@Suite struct HostRestartCoordinatorTests {
  static let moves = [Position(row: 0, column: 0), Position(row: 1, column: 1)]

  /// Game 1 with two moves, then the host's program is gone; a new one (same key) finds `journal` on its disk,
  /// and the joiner, which kept the game, reaches it on its next reconnection.
  static func hostRestarted(journal: (Bool) -> KeptGame?) throws -> (pair: MatchPair, hostWasX: Bool) {
    var pair = MatchPair()
    pair.connect()
    try pair.play([0, 4])
    let hostWasX = try #require(pair.host.session?.myMark) == .x
    pair.cut(pair.links[0])
    pair.host = MatchPair().host
    pair.host.journal = MatchJournal(myKey: "alice")
    pair.host.journal?.found[MatchPair.bobKey] = journal(hostWasX)
    pair.links = []
    pair.closedByHost = []
    pair.advance(0.1)
    let id = try #require(MatchPair.connectID(pair.joinerCommands.suffix(3)), "\(pair.joinerCommands.suffix(3))")
    pair.joiner.connected(id, remote: MatchPair.endpoint)
    pair.secure(
      joinerID: id, hostSees: MatchPair.facts("bob", MatchPair.bobKey, .trusted(.knownPeer(name: "bob"))),
      joinerSees: MatchPair.facts("alice", MatchPair.aliceKey, .trusted(.knownPeer(name: "alice"))))
    return (pair, hostWasX)
  }

  /// The kept game the restarted host's hello named (field 16): its last hello's.
  static func helloNamed(_ pair: MatchPair) -> UInt16? {
    for case .send(_, .hello(_, _, _, let terms, _, _)) in pair.hostCommands.reversed() { return terms?.keptGame }
    return nil
  }

  /// What the restarted host's journal against bob asks of the shell once `pair`'s game was taken up or lost
  /// (the in-memory facts carry no key bytes, so the coordinators ask for no journal writes themselves).
  static func journalCommand(_ pair: MatchPair, found: KeptGame) throws -> (MatchCommand?, KeptGame?) {
    var journal = MatchJournal(myKey: "alice")
    journal.found[MatchPair.bobKey] = found
    let command = journal.after(try #require(pair.host.session), peer: MatchPair.bobKey, peerKey: "bob")
    return (command, journal.found[MatchPair.bobKey])
  }

  @Test func itsJournalAgreesAndTheGameGoesOnWhereItStood() throws {
    let kept = { (x: Bool) in KeptGame(rules: MatchPair.rules, gameNumber: 1, hostPlaysX: x, moves: Self.moves) }
    let (pair, hostWasX) = try Self.hostRestarted(journal: kept)
    #expect(Self.helloNamed(pair) == 1)
    for session in [pair.host.session, pair.joiner.session] {
      #expect(session?.phase == .playing && session?.game?.history == Self.moves && session?.link == .up)
    }
    #expect(pair.host.session?.myMark == (hostWasX ? .x : .o) && pair.joiner.session?.myMark == (hostWasX ? .o : .x))
    // The game is kept again on the host's disk from here on (the journal read has served), and play goes on.
    let (command, left) = try Self.journalCommand(pair, found: kept(hostWasX))
    if case .keepJournal(let written, MatchPair.bobKey)? = command {
      #expect(written.moves == Self.moves && written.role == .host)
    } else {
      Issue.record("\(command as Any)")
    }
    #expect(left == nil)
    var after = pair
    try after.play([8])
    #expect(after.host.session?.game?.history.count == 3 && after.joiner.session?.game?.history.count == 3)
  }

  /// Lost by the host, the side that went away, on both sides; the host's journal of it removed.
  static func lostByTheHost(_ pair: MatchPair, hostWasX: Bool, reason: String) {
    let hostMark: Mark = hostWasX ? .x : .o
    for session in [pair.host.session, pair.joiner.session] {
      #expect(session?.lastResult == .abandoned(loser: hostMark) && session?.phase == .betweenGames)
      #expect(session?.game?.history == Self.moves)
    }
    #expect(pair.host.session?.score.losses == 1 && pair.joiner.session?.score.wins == 1)
    let found = KeptGame(rules: MatchPair.rules, gameNumber: 1, hostPlaysX: hostWasX, moves: [])
    let (command, left) = try! Self.journalCommand(pair, found: found)
    if case .endJournal(MatchPair.bobKey)? = command {} else { Issue.record("\(command as Any)") }
    #expect(left == nil)
    for events in [pair.hostEvents, pair.joinerEvents] {
      let told = events.contains {
        guard case .session(.gameFlow(.keptGameLost(hostMark, let why, .host))) = $0 else { return false }
        return why.description.contains(reason)
      }
      #expect(told, "\(events)")
    }
  }

  @Test func itsJournalOfAnotherGameLosesTheKeptGameForTheHost() throws {
    let (pair, hostWasX) = try Self.hostRestarted { x in
      KeptGame(
        rules: MatchPair.rules, gameNumber: 1, hostPlaysX: x, moves: [Self.moves[0], Position(row: 2, column: 2)])
    }
    #expect(Self.helloNamed(pair) == 1)
    Self.lostByTheHost(pair, hostWasX: hostWasX, reason: "move 2 differs")
  }

  @Test func withoutAJournalTheHostLosesTheKeptGame() throws {
    let (pair, hostWasX) = try Self.hostRestarted { _ in nil }
    #expect(Self.helloNamed(pair) == 0)
    Self.lostByTheHost(pair, hostWasX: hostWasX, reason: "keeps no journal")
  }
}
