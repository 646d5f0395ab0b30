import GameCore
import SessionTestSupport
import Testing
import WireProtocol

@testable import Session

/// The journal of a game in progress (PROTOCOL.md rule 19): what a session's game becomes on disk and back, a
/// damaged or foreign journal refused with a clear error, and the returning side's journal against the game
/// offered.
@Suite struct GameJournalTests {
  static let alice = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEalice"
  static let bob = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEbob"
  static let gomoku = try! Rules(size: 15, k: 5)

  /// A timed gomoku match, host X, with `count` moves played at a second's thought each.
  static func pair(moves count: Int, control: TimeControl = .fischer(base: 60_000, increment: 2_000)) throws
    -> SessionPair
  {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: gomoku, timeControl: control)
    pair.startMatch()
    for index in 0..<count {
      pair.now += 1
      let cell = Position(row: index / 15, column: index % 15)
      if pair.host.myTurn { try pair.hostPlays(cell) } else { try pair.joinerPlays(cell) }
      pair.settle()
    }
    return pair
  }

  @Test func aGameInProgressReadsBackAsItWasWritten() throws {
    let pair = try Self.pair(moves: 5)
    let journal = try #require(GameJournal(of: pair.joiner, myKey: Self.bob, peerKey: Self.alice))
    #expect(journal.moves.count == 5 && journal.role == .joiner && journal.myMark == .o && journal.hostPlaysX)
    #expect(journal.times.count == 5 && journal.times[2].charged == 1_000)
    #expect(journal.timeControl == .fischer(base: 60_000, increment: 2_000) && journal.protocolVersion == 4)
    let text = journal.text(sha256: testHash)
    let read = try GameJournal(text: text, myKey: Self.bob, peerKey: Self.alice, sha256: testHash)
    #expect(read == journal)
    // The host's journal of the same game keeps the same game.
    let hosts = try #require(GameJournal(of: pair.host, myKey: Self.alice, peerKey: Self.bob))
    #expect(hosts.kept == journal.kept && hosts.myMark == .x)
    #expect(hosts.kept.agreement(with: journal.kept) == .same)
  }

  @Test func onlyAGameInProgressWithAVersion3PeerIsJournalled() throws {
    var pair = try Self.pair(moves: 2)
    #expect(GameJournal(of: pair.host, myKey: Self.alice, peerKey: Self.bob) != nil)
    pair.send(fromHost: try pair.host.resign(now: pair.now))
    pair.settle()
    #expect(GameJournal(of: pair.host, myKey: Self.alice, peerKey: Self.bob) == nil)
    var older = SessionPair(hostCoin: 1, joinerCoin: 1, rules: Self.gomoku, joinerVersions: [2])
    older.startMatch()
    #expect(older.host.gameInProgress)
    #expect(GameJournal(of: older.host, myKey: Self.alice, peerKey: Self.bob) == nil)
  }

  @Test func anUntimedGameKeepsNoTimes() throws {
    let pair = try Self.pair(moves: 3, control: .none)
    let journal = try #require(GameJournal(of: pair.host, myKey: Self.alice, peerKey: Self.bob))
    #expect(journal.times.isEmpty && journal.timeControl == .none)
    let text = journal.text(sha256: testHash)
    #expect(text.contains("clock none\n"))
    #expect(try GameJournal(text: text, myKey: Self.alice, peerKey: Self.bob, sha256: testHash) == journal)
  }

  /// Another pair of keys' journal is never used: swapped, another opponent, another identity of this player.
  @Test func anotherKeysJournalIsRefused() throws {
    let pair = try Self.pair(moves: 3)
    let text = try #require(GameJournal(of: pair.joiner, myKey: Self.bob, peerKey: Self.alice)).text(sha256: testHash)
    for (me, peer) in [(Self.alice, Self.bob), (Self.bob, "carol"), ("bob2", Self.alice)] {
      #expect(throws: JournalError.otherKeys) {
        try GameJournal(text: text, myKey: me, peerKey: peer, sha256: testHash)
      }
    }
  }

  /// Every byte changed, a line lost or the file cut short is refused with a named error, never read in part.
  @Test func aDamagedJournalIsRefusedWithAClearError() throws {
    let pair = try Self.pair(moves: 4)
    let journal = try #require(GameJournal(of: pair.host, myKey: Self.alice, peerKey: Self.bob))
    let text = journal.text(sha256: testHash)
    let bytes = Array(text.utf8)
    for index in bytes.indices {
      var damaged = bytes
      damaged[index] ^= 0x01
      let error = #expect(throws: JournalError.self) {
        try GameJournal(
          text: String(decoding: damaged, as: UTF8.self), myKey: Self.alice, peerKey: Self.bob, sha256: testHash)
      }
      #expect(error?.reason.isEmpty == false && error?.hint != nil)
    }
    for length in [0, 1, 20, bytes.count / 2, bytes.count - 10] {
      #expect(throws: JournalError.self) {
        try GameJournal(
          text: String(decoding: bytes.prefix(length), as: UTF8.self), myKey: Self.alice, peerKey: Self.bob,
          sha256: testHash)
      }
    }
    #expect(throws: JournalError.notAJournal) {
      try GameJournal(text: "(;FF[4]GM[4])\n", myKey: Self.alice, peerKey: Self.bob, sha256: testHash)
    }
    #expect(throws: JournalError.unknownVersion("4")) {
      try GameJournal(
        text: text.replacingFirst("journal 2", with: "journal 4"), myKey: Self.alice, peerKey: Self.bob,
        sha256: testHash)
    }
  }

  /// Version 2 adds the score of the games before this one; a version-1 journal (written before 2026-12-02) still
  /// reads, with no score, and its game is checked without one.
  @Test func theScoreIsVersionTwosAndAVersionOneJournalStillReads() throws {
    let pair = try Self.pair(moves: 3)
    let journal = try #require(GameJournal(of: pair.joiner, myKey: Self.bob, peerKey: Self.alice))
    #expect(journal.score == MatchScore(hostWins: 0, joinerWins: 0, draws: 0))
    let text = journal.text(sha256: testHash)
    #expect(text.hasPrefix("tictactoe journal 2\n") && text.contains("\nx host\nscore 0 0 0\nmove 0 0 0 60000\n"))
    let old = GameJournal(
      myKey: journal.myKey, peerKey: journal.peerKey, role: journal.role, rules: journal.rules,
      timeControl: journal.timeControl, protocolVersion: journal.protocolVersion, gameNumber: journal.gameNumber,
      hostPlaysX: journal.hostPlaysX, moves: journal.moves, times: journal.times)
    let oldText = old.text(sha256: testHash)
    #expect(oldText.hasPrefix("tictactoe journal 1\n") && !oldText.contains("score"))
    let read = try GameJournal(text: oldText, myKey: Self.bob, peerKey: Self.alice, sha256: testHash)
    #expect(read == old && read.score == nil)
    let offered = KeptGame(
      rules: journal.rules, gameNumber: 1, hostPlaysX: true, moves: journal.moves,
      score: MatchScore(hostWins: 2, joinerWins: 0, draws: 0))
    #expect(read.kept.agreement(with: offered) == .same)
    #expect(!journal.kept.agreement(with: offered).agrees)
  }

  /// A journal whose SHA-256 matches but whose lines say what cannot be (hand-made, or from a broken program)
  /// is refused by the line at fault.
  @Test func aWellSealedJournalWithImpossibleLinesIsRefused() throws {
    let pair = try Self.pair(moves: 2, control: .none)
    let journal = try #require(GameJournal(of: pair.host, myKey: Self.alice, peerKey: Self.bob))
    let body = journal.text(sha256: testHash).split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
    let cases: [(String, String, Int)] = [
      ("move 0 1\n", "move 0 0\n", 12),  // the same cell twice
      ("rules 15 15 5", "rules 15 15 16", 5), ("protocol 4", "protocol 2", 7),
      ("rules 15 15 5", "rules 15 15 5 freestyle", 5), ("rules 15 15 5", "rules 15 15 5 gomoku", 5),
      ("game 1", "game 0", 8),
      ("x host", "x nobody", 9), ("clock none", "clock sundial 3", 6), ("move 0 1\n", "move 0 1 5 6\n", 12),
      ("score 0 0 0", "score 0 0", 10),
    ]
    for (old, new, line) in cases {
      let changed = body.replacingFirst(old, with: new)
      let sealed = changed + "sha256 \(GameJournal.hex(testHash(Array(changed.utf8))))\n"
      let error = #expect(throws: JournalError.self) {
        try GameJournal(text: sealed, myKey: Self.alice, peerKey: Self.bob, sha256: testHash)
      }
      guard case .badLine(let number, _) = error else {
        Issue.record("\(new): \(String(describing: error))")
        continue
      }
      #expect(number == line, "\(new)")
    }
  }

  static func kept(_ moves: [Position], game: Int = 2, hostPlaysX: Bool = true, rules: Rules = gomoku) -> KeptGame {
    KeptGame(rules: rules, gameNumber: game, hostPlaysX: hostPlaysX, moves: moves)
  }

  /// The returning side's journal against the game offered: the same, one move either way, or not the same game.
  @Test func theJournalAgreesWithTheOfferOnlyWhenItIsTheSameGame() throws {
    let moves = (0..<6).map { Position(row: 7, column: $0) }
    let offer = Self.kept(moves)
    #expect(Self.kept(moves).agreement(with: offer) == .same)
    #expect(Self.kept(moves + [Position(row: 9, column: 9)]).agreement(with: offer) == .keptOneMoreHere)
    #expect(Self.kept(Array(moves.dropLast())).agreement(with: offer) == .offeredOneMore)
    let different: [KeptGame] = [
      Self.kept(Array(moves.dropLast(2))),
      Self.kept(moves + [Position(row: 9, column: 9), Position(row: 9, column: 8)]),
      Self.kept(moves, game: 1), Self.kept(moves, hostPlaysX: false),
      Self.kept(moves, rules: try Rules(size: 15, k: 6)),
      Self.kept(Array(moves.dropLast()) + [Position(row: 8, column: 5)]), Self.kept([]),
    ]
    for journal in different {
      let agreement = journal.agreement(with: offer)
      #expect(!agreement.agrees, "\(journal)")
    }
    #expect(Self.kept([]).agreement(with: Self.kept([])).agrees)
  }
}

extension String {
  /// This text with the first `old` replaced by `new` (no Foundation here).
  fileprivate func replacingFirst(_ old: String, with new: String) -> String {
    let (text, old) = (Array(utf8), Array(old.utf8))
    guard old.count <= text.count,
      let start = (0...(text.count - old.count)).first(where: { Array(text[$0..<$0 + old.count]) == old })
    else { return self }
    return String(decoding: text[..<start] + Array(new.utf8) + text[(start + old.count)...], as: UTF8.self)
  }
}
