import GameCore
import UntrustedText

/// Why the host turned a joiner away.
public enum RefusalReason: UInt8, Sendable, Equatable {
  case busy = 1
  case declined = 2
  case versionMismatch = 3
  case untrusted = 4
  /// A spectator (version 4): this host's game may not be watched (its setting, no game yet, an older joiner).
  case notWatchable = 5
  /// A spectator whose key this host does not know, when only known keys may watch.
  case notKnown = 6
  /// A spectator beyond the most a game or an address may have.
  case tooManySpectators = 7
}

/// Why a peer said goodbye.
public enum ByeReason: UInt8, Sendable, Equatable {
  case quit = 1
  case timeout = 2
  case shuttingDown = 3
  /// Joiner, version 3's terms: its player declined the host's terms (the time control, ...).
  case termsDeclined = 4
}

/// Every message of the protocol (versions 1 to 3). docs/PROTOCOL.md is the normative description.
public enum Message: Sendable, Equatable {
  /// First message from each side: the protocol versions it speaks, the player's name, the software; from a
  /// host, its terms (skipped by peers older than the terms).
  /// `watch` (field 17, version 4): the sender is a spectator, asking to watch the host's game (0) or, at a host of
  /// several games, game `watch`. `batchSignatures` (field 18, any version): the sender checks record signatures
  /// in the batch form (PROTOCOL.md rule 12; docs/RECORDS.md), so a host may send it them.
  case hello(
    versions: [UInt16], name: String, software: String, terms: HostTerms? = nil, watch: UInt16? = nil,
    batchSignatures: Bool = false)
  /// Host to joiner: accepted; the chosen version and the rules. Until this arrives the game has not started.
  case welcome(version: UInt16, rules: Rules)
  /// Host to joiner: not accepted, and why.
  case refuse(RefusalReason, text: String)
  /// Host: SHA-256 of its secret, committing to it before seeing the joiner's share.
  case coinCommit(digest: [UInt8])
  /// Joiner: its random share, sent after the commitment arrived.
  case coinShare(bytes: [UInt8])
  /// Host: its secret, which must hash to the commitment.
  case coinReveal(secret: [UInt8])
  /// Host, from protocol version 2, instead of `coinCommit`: the joiner's key left a game here within the grace
  /// period, and the first player of that game is kept (no new toss), so leaving cannot re-roll the coin.
  case coinKept(hostPlaysX: Bool)
  /// A move: the ply it is (0 for the first move of a game) and the cell; in a timed version-3 game, the
  /// mover's thinking time and the echo of the charge for the receiver's last move.
  case move(ply: UInt16, position: Position, clock: MoveClock? = nil)
  case resign
  case rematchOffer
  case rematchAccept
  /// Version 3 (PROTOCOL.md rule 16): a draw offered, accepted or declined.
  case drawOffer
  case drawAccept
  case drawDecline
  /// Version 3 (rule 16): go back to ply `ply` (the moves that stay), the requester's turn; and the answers.
  case takebackRequest(ply: UInt16)
  case takebackAccept(ply: UInt16)
  case takebackDecline(ply: UInt16)
  /// Version 3 (rule 17): the game is void; `seen` moves (0 or 1) had reached the sender.
  case abort(seen: UInt16)
  /// Version 3 (rule 15): the mover's time ran out at ply `ply`: it had `timeLeft` ms and `observed` passed.
  case flagClaim(ply: UInt16, timeLeft: Int, observed: Int)
  /// Version 3 (rule 15): the mover's answer to a claim: its own thinking time, and whether it disputes.
  case flagAnswer(ply: UInt16, disputed: Bool, thinking: Int)
  case chat(String)
  case heartbeat
  /// Joiner, after TLS and before its hello: its player is deciding whether to trust the host's key, so the host
  /// waits for the hello longer (PROTOCOL.md rule 13). Sent again while the player decides; not counted. An older
  /// host ignores it as an unknown type.
  case deciding
  case bye(ByeReason, text: String)
  /// A protocol violation was seen; the sender closes after this.
  case error(text: String)
  /// On a new connection after a drop (the joiner first, then the host's answer): how many counted messages
  /// this side has received and sent in the whole match, and the game it holds (its number, its ply count and
  /// the digest of its move list). Each side then sends again what the other has not received.
  case resume(received: UInt32, sent: UInt32, game: UInt16, ply: UInt16, digest: [UInt8])
  /// Sent once this side has received everything the peer sent before the drop: the game it now holds. The
  /// two must be equal; then play goes on.
  case resumeCheck(game: UInt16, ply: UInt16, digest: [UInt8])
  /// The sender's signature over the record of game `game` (docs/RECORDS.md), signed with the UTC day `date`
  /// (`YYYY-MM-DD`, the host's). Not counted or sent again on resume; an older peer ignores it.
  case recordSignature(game: UInt16, date: String, signature: [UInt8])
  /// Version 3 (PROTOCOL.md rule 19): the side that kept a game offers it to the side that comes back after a
  /// restart: its number, who plays X, the moves, and in a timed game the time left of X and of O (ms) and each
  /// move's agreed times (empty from a program that does not send them); the score of the games before it: won by
  /// the host, won by the joiner, drawn (empty from a program that does not send it); version 4, in a game that
  /// opens with Swap2, the opening's choices so far (the stones are among the moves).
  case gameOffer(
    game: UInt16, hostPlaysX: Bool, moves: [Position], timeLeft: [UInt32], times: [OfferedTime] = [],
    score: [UInt16] = [], choices: [Swap2.Choice] = [])
  /// Version 3 (rule 19): the answer to `game offer`, and why when it is not taken.
  /// `readAll`: the answering program read the offer's move times and score (fields 5 and 6; a program of before
  /// 2026-12-02 does not say so, and the side that offered then takes neither up either).
  case gameTaken(GameTakenVerdict, text: String, readAll: Bool = false)
  /// Version 4, host to spectator: the game as it stands (PROTOCOL.md, "Version 4: watching").
  case watchSnapshot(WatchSnapshot)
  /// Version 4, host to spectator: a move of game `game`, with its charge and its mover's time left when timed.
  case watchMove(game: UInt16, ply: UInt16, position: Position, time: OfferedTime? = nil)
  /// Version 4, host to spectator: game `game` ended; the score after it.
  case watchEnd(game: UInt16, end: WatchedEnd, score: [UInt16])
  /// Version 4, host to joiner and spectators: how many spectators watch now.
  case watchers(count: UInt16)
  /// Version 4, host to spectators: what another spectator of the game said (`name` as its hello gave it). The
  /// players never see it.
  case watchChat(name: String, text: String)
  /// Version 4, a host of several games to a spectator that asked for none: a part of its list of games.
  case watchGames(GameListPart)
  /// Version 4, host to spectators: a part of the record of game `game`, signed by both players (rule 28).
  case watchRecord(game: UInt16, part: [UInt8], last: Bool)
  /// Version 4, the Swap2 opening (PROTOCOL.md, "Version 4"): a choice made when `ply` stones were on the board;
  /// in a timed game, a choice that ends its chooser's turn carries the clock fields a move does (rule 14).
  case openingChoice(ply: UInt16, choice: Swap2.Choice, clock: MoveClock? = nil)

  public static let maximumNameBytes = 64
  /// A name is also at most this many characters (grapheme clusters, as a screen shows them).
  public static let maximumNameCharacters = 32

  public static let maximumChatBytes = 500
  public static let maximumTextBytes = 500
  public static let coinBytes = 32
  public static let digestBytes = 32
  /// Room for any signature the accepted keys make (RSA 4096 is 512 bytes).
  public static let maximumSignatureBytes = 1024

  /// Message type codes on the wire.
  enum Kind: UInt8 {
    case hello = 0x01
    case welcome = 0x02
    case refuse = 0x03
    case coinCommit = 0x10
    case coinShare = 0x11
    case coinReveal = 0x12
    case coinKept = 0x13
    case move = 0x20
    case resign = 0x21
    case rematchOffer = 0x22
    case rematchAccept = 0x23
    case drawOffer = 0x24
    case drawAccept = 0x25
    case drawDecline = 0x26
    case takebackRequest = 0x27
    case takebackAccept = 0x28
    case takebackDecline = 0x29
    case abort = 0x2A
    case flagClaim = 0x2B
    case flagAnswer = 0x2C
    case openingChoice = 0x2D
    case chat = 0x30
    case heartbeat = 0x40
    case deciding = 0x41
    case bye = 0x50
    case error = 0x51
    case resume = 0x60
    case resumeCheck = 0x61
    case gameOffer = 0x62
    case gameTaken = 0x63
    case recordSignature = 0x70
    case watchSnapshot = 0x80
    case watchMove = 0x81
    case watchEnd = 0x82
    case watchers = 0x83
    case watchGames = 0x84
    case watchChat = 0x85
    case watchRecord = 0x86
  }

  var kind: Kind {
    switch self {
    case .hello: return .hello
    case .welcome: return .welcome
    case .refuse: return .refuse
    case .coinCommit: return .coinCommit
    case .coinShare: return .coinShare
    case .coinReveal: return .coinReveal
    case .coinKept: return .coinKept
    case .move: return .move
    case .resign: return .resign
    case .rematchOffer: return .rematchOffer
    case .rematchAccept: return .rematchAccept
    case .drawOffer: return .drawOffer
    case .drawAccept: return .drawAccept
    case .drawDecline: return .drawDecline
    case .takebackRequest: return .takebackRequest
    case .takebackAccept: return .takebackAccept
    case .takebackDecline: return .takebackDecline
    case .abort: return .abort
    case .flagClaim: return .flagClaim
    case .flagAnswer: return .flagAnswer
    case .chat: return .chat
    case .heartbeat: return .heartbeat
    case .deciding: return .deciding
    case .bye: return .bye
    case .error: return .error
    case .resume: return .resume
    case .resumeCheck: return .resumeCheck
    case .recordSignature: return .recordSignature
    case .gameOffer: return .gameOffer
    case .gameTaken: return .gameTaken
    case .watchSnapshot: return .watchSnapshot
    case .watchMove: return .watchMove
    case .watchEnd: return .watchEnd
    case .watchers: return .watchers
    case .watchChat: return .watchChat
    case .watchGames: return .watchGames
    case .watchRecord: return .watchRecord
    case .openingChoice: return .openingChoice
    }
  }

  /// The message as a frame.
  public var frame: Frame { Frame(type: kind.rawValue, payload: Array(bytes[3...])) }

  /// The frame's bytes, ready to send, written in one pass.
  public var bytes: [UInt8] {
    var writer = FrameWriter(type: kind.rawValue)
    switch self {
    case .hello(let versions, let name, let software, let terms, let watch, let batchSignatures):
      writer.field(1, u16s: versions)
      writer.field(2, string: name)
      writer.field(3, string: software)
      terms?.write(into: &writer)
      if let watch { writer.field(Self.watchTag, u16: watch) }
      if batchSignatures { writer.field(Self.batchSignaturesTag, u8: 1) }
    case .welcome(let version, let rules):
      writer.field(1, u16: version)
      writer.field(2, u8: UInt8(rules.rows))
      writer.field(3, u8: UInt8(rules.columns))
      writer.field(4, u8: UInt8(rules.k))
    case .refuse(let reason, let text):
      writer.field(1, u8: reason.rawValue)
      writer.field(2, string: text)
    case .coinCommit(let digest): writer.field(1, bytes: digest)
    case .coinShare(let bytes): writer.field(1, bytes: bytes)
    case .coinReveal(let secret): writer.field(1, bytes: secret)
    case .coinKept(let hostPlaysX): writer.field(1, u8: hostPlaysX ? 1 : 2)
    case .move(let ply, let position, let clock):
      writer.field(1, u16: ply)
      writer.field(2, u8: UInt8(clamping: position.row))
      writer.field(3, u8: UInt8(clamping: position.column))
      clock?.write(into: &writer)
    case .resign, .rematchOffer, .rematchAccept, .heartbeat, .deciding: break
    case .drawOffer, .drawAccept, .drawDecline, .takebackRequest, .takebackAccept, .takebackDecline, .abort,
      .flagClaim, .flagAnswer:
      writeGameFlow(into: &writer)
    case .chat(let text): writer.field(1, string: text)
    case .bye(let reason, let text):
      writer.field(1, u8: reason.rawValue)
      writer.field(2, string: text)
    case .error(let text): writer.field(1, string: text)
    case .resume(let received, let sent, let game, let ply, let digest):
      writer.field(1, u32: received)
      writer.field(2, u32: sent)
      writer.field(3, u16: game)
      writer.field(4, u16: ply)
      writer.field(5, bytes: digest)
    case .resumeCheck(let game, let ply, let digest):
      writer.field(1, u16: game)
      writer.field(2, u16: ply)
      writer.field(3, bytes: digest)
    case .recordSignature(let game, let date, let signature):
      writer.field(1, u16: game)
      writer.field(2, string: date)
      writer.field(3, bytes: signature)
    case .gameOffer, .gameTaken: writeKeptGame(into: &writer)
    case .watchSnapshot, .watchMove, .watchEnd, .watchers, .watchChat, .watchGames: writeWatching(into: &writer)
    case .watchRecord(let game, let part, let last): writeWatchRecord(game: game, part: part, last: last, into: &writer)
    case .openingChoice(let ply, let choice, let clock):
      writeOpeningChoice(ply: ply, choice: choice, into: &writer)
      clock?.write(into: &writer)
    }
    return writer.finish()
  }

  /// Decodes a frame: nil for a message type this version does not know (to be ignored), an error for a
  /// known type that is malformed.
  public static func decode(_ frame: Frame) throws(WireError) -> Message? {
    guard let kind = Kind(rawValue: frame.type) else { return nil }
    let f = try Fields(decoding: frame.payload, kind: kind)
    switch kind {
    case .hello: return try decodeHello(f)
    case .welcome: return try decodeWelcome(f)
    case .refuse:
      let code = try f.u8(1, "reason")
      let text = try f.string(2, "text", maximum: maximumTextBytes)
      return .refuse(RefusalReason(rawValue: code) ?? .declined, text: text)
    case .coinCommit: return .coinCommit(digest: try f.bytes(1, "commitment", count: coinBytes))
    case .coinShare: return .coinShare(bytes: try f.bytes(1, "coin share", count: coinBytes))
    case .coinReveal: return .coinReveal(secret: try f.bytes(1, "coin secret", count: coinBytes))
    case .coinKept:
      switch try f.u8(1, "first player") {
      case 1: return .coinKept(hostPlaysX: true)
      case 2: return .coinKept(hostPlaysX: false)
      case let other: throw .badValue("first player", reason: "it is \(other), not 1 (the host) or 2 (the joiner)")
      }
    case .move:
      let ply = try f.u16(1, "ply")
      let row = Int(try f.u8(2, "row"))
      let column = Int(try f.u8(3, "column"))
      return .move(ply: ply, position: Position(row: row, column: column), clock: try MoveClock(f))
    case .resign: return .resign
    case .rematchOffer: return .rematchOffer
    case .rematchAccept: return .rematchAccept
    case .drawOffer, .drawAccept, .drawDecline, .takebackRequest, .takebackAccept, .takebackDecline, .abort,
      .flagClaim, .flagAnswer:
      return try decodeGameFlow(kind, f)
    case .chat: return .chat(try f.string(1, "chat text", maximum: maximumChatBytes))
    case .heartbeat: return .heartbeat
    case .deciding: return .deciding
    case .bye:
      let code = try f.u8(1, "reason")
      let text = try f.string(2, "text", maximum: maximumTextBytes)
      return .bye(ByeReason(rawValue: code) ?? .quit, text: text)
    case .error: return .error(text: try f.string(1, "text", maximum: maximumTextBytes))
    case .resume:
      return .resume(
        received: try f.u32(1, "messages received"), sent: try f.u32(2, "messages sent"),
        game: try f.u16(3, "game number"), ply: try f.u16(4, "ply"),
        digest: try f.bytes(5, "move digest", count: digestBytes))
    case .resumeCheck:
      return .resumeCheck(
        game: try f.u16(1, "game number"), ply: try f.u16(2, "ply"),
        digest: try f.bytes(3, "move digest", count: digestBytes))
    case .recordSignature: return try decodeRecordSignature(f)
    case .gameOffer, .gameTaken: return try decodeKeptGame(kind, f)
    case .watchSnapshot, .watchMove, .watchEnd, .watchers, .watchChat, .watchGames: return try decodeWatching(kind, f)
    case .watchRecord: return try decodeWatchRecord(f)
    case .openingChoice: return try decodeOpeningChoice(f)
    }
  }

  private static func decodeWelcome(_ f: Fields) throws(WireError) -> Message {
    let version = try f.u16(1, "protocol version")
    let rows = Int(try f.u8(2, "rows"))
    let columns = Int(try f.u8(3, "columns"))
    let k = Int(try f.u8(4, "k"))
    do throws(RulesError) {
      return .welcome(version: version, rules: try Rules(rows: rows, columns: columns, k: k))
    } catch {
      throw .badValue("rules", reason: error.description)
    }
  }
}

extension Message {
  /// The message's name for error texts ("move", "welcome").
  public var name: String {
    switch kind {
    case .coinCommit: return "coin commitment"
    case .coinShare: return "coin share"
    case .coinReveal: return "coin reveal"
    case .coinKept: return "kept coin toss"
    case .rematchOffer: return "rematch offer"
    case .rematchAccept: return "rematch acceptance"
    case .drawOffer: return "draw offer"
    case .drawAccept: return "draw acceptance"
    case .drawDecline: return "draw refusal"
    case .takebackRequest: return "takeback request"
    case .takebackAccept: return "takeback acceptance"
    case .takebackDecline: return "takeback refusal"
    case .flagClaim: return "flag claim"
    case .flagAnswer: return "answer to a flag claim"
    case .resumeCheck: return "resume check"
    case .recordSignature: return "record signature"
    case .deciding: return "note that the player is deciding"
    case .gameOffer: return "offer of a kept game"
    case .gameTaken: return "answer to the offer of a kept game"
    case .watchSnapshot: return "position for spectators"
    case .watchMove: return "move for spectators"
    case .watchEnd: return "result for spectators"
    case .watchers: return "count of spectators"
    case .watchChat: return "spectators' chat"
    case .watchGames: return "list of games to watch"
    case .watchRecord: return "record for spectators"
    case .openingChoice: return "opening choice"
    default: return "\(kind)"
    }
  }
}
