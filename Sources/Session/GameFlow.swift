import GameCore

/// The offers of one game (PROTOCOL.md rule 16): draw offers and takeback requests from each side, what stands,
/// and the limit of one of each per side for each move of its own. The session asks it what a peer's message
/// means and whether this player may offer; it keeps no board (the session gives the game). Pure.
struct GameFlow: Sendable, Equatable {
  /// What a peer's offer or answer comes to.
  enum Verdict: Sendable, Equatable {
    /// The peer offers a draw, or asks to go back to `ply`: the player is asked.
    case drawOffered
    case takebackRequested(ply: Int)
    /// Offers crossed: a draw by agreement.
    case drawAgreed
    /// The peer declined this player's draw offer or takeback request.
    case drawDeclined
    case takebackDeclined
    /// The peer accepted this player's takeback request: back to `ply`.
    case takeBack(ply: Int)
    /// Takeback requests crossed: each side declines the other's (this one answers the peer's at once).
    case takebackRequestsCrossed(ply: Int)
    /// Repeated beyond the limit: changes nothing (counted towards the flood, rule 8).
    case changedNothing
    /// A protocol violation, in these words.
    case violation(String)
  }

  let myMark: Mark
  /// Moves made in this game by each side (never less after a takeback: the limit is per move made).
  private var movesMade = ByMark(x: 0, o: 0)
  /// At how many moves of its own each side last offered a draw, or asked for a takeback.
  private var drawOfferedAt = ByMark<Int?>(x: nil, o: nil)
  private var takebackAskedAt = ByMark<Int?>(x: nil, o: nil)
  /// The offers standing.
  private(set) var drawOffer: Set<Mark> = []
  /// A takeback request standing: the ply it goes back to, by requester.
  private(set) var takeback = ByMark<Int?>(x: nil, o: nil)

  /// A takeback went back after both sides had moved: the game can no longer be aborted (rule 17, as lichess:
  /// abort is for a game nobody has begun, and one both sides began stays begun whatever is taken back).
  private(set) var begun = false

  /// The offers of a game `plies` moves into it (0 for a new one; a game taken up after a restart, rule 19).
  init(myMark: Mark, plies: Int = 0) {
    self.myMark = myMark
    movesMade = ByMark(x: (plies + 1) / 2, o: plies / 2)
  }

  /// Whether both sides have made a move in this game (a takeback does not undo it).
  var bothHaveMoved: Bool { movesMade.x > 0 && movesMade.o > 0 }

  /// A takeback was accepted (by either side).
  mutating func tookBack() { begun = begun || bothHaveMoved }

  var peer: Mark { myMark.opponent }

  /// A move was made by `mark`.
  mutating func moved(_ mark: Mark) { movesMade[mark] += 1 }

  /// Whether `mark` may offer a draw now (its offer does not stand and it has moved since its last one).
  func mayOfferDraw(_ mark: Mark) -> Bool {
    !drawOffer.contains(mark) && drawOfferedAt[mark] != movesMade[mark]
  }

  /// Whether `mark` may ask for a takeback now (none of its stands and it has moved since its last one).
  func mayAskTakeback(_ mark: Mark) -> Bool {
    takeback[mark] == nil && takebackAskedAt[mark] != movesMade[mark]
  }

  /// `mark` offers a draw (checked with `mayOfferDraw`).
  mutating func offerDraw(by mark: Mark) {
    drawOfferedAt[mark] = movesMade[mark]
    drawOffer.insert(mark)
  }

  /// `mark`'s draw offer is answered (declined).
  mutating func drawAnswered(offeredBy mark: Mark) { drawOffer.remove(mark) }

  /// The ply `mark` goes back to with a takeback in `game`: its own last move undone, and the reply after it;
  /// nil when it has no move to take back.
  static func takebackTarget(for mark: Mark, in game: Game) -> Int? {
    let count = game.history.count
    let target = game.turn == mark ? count - 2 : count - 1
    return target >= 0 ? target : nil
  }

  /// `mark` asks to go back to `ply`.
  mutating func askTakeback(by mark: Mark, ply: Int) {
    takebackAskedAt[mark] = movesMade[mark]
    takeback[mark] = ply
  }

  /// `mark`'s takeback request is answered.
  mutating func takebackAnswered(askedBy mark: Mark) { takeback[mark] = nil }

  /// The peer offers a draw.
  mutating func peerOffersDraw() -> Verdict {
    guard mayOfferDraw(peer) else { return .changedNothing }
    offerDraw(by: peer)
    return drawOffer.contains(myMark) ? .drawAgreed : .drawOffered
  }

  /// The peer answers this player's draw offer.
  mutating func peerAnswersDraw(accept: Bool) -> Verdict {
    guard drawOffer.contains(myMark) else {
      return .violation("a draw \(accept ? "acceptance" : "refusal") when no draw was offered")
    }
    drawAnswered(offeredBy: myMark)
    return accept ? .drawAgreed : .drawDeclined
  }

  /// The peer asks to go back to `ply` in `game`.
  mutating func peerAsksTakeback(ply: Int, in game: Game) -> Verdict {
    let count = game.history.count
    let moverAtPly: Mark = ply.isMultiple(of: 2) ? .x : .o
    guard ply < count, count - ply <= 2, moverAtPly == peer else {
      return .violation("a takeback to ply \(ply) of \(count), which is not the requester's own move of the last two")
    }
    guard mayAskTakeback(peer) else { return .changedNothing }
    askTakeback(by: peer, ply: ply)
    guard takeback[myMark] == nil else {
      takebackAnswered(askedBy: peer)
      return .takebackRequestsCrossed(ply: ply)
    }
    return .takebackRequested(ply: ply)
  }

  /// The peer answers this player's takeback request for `ply`.
  mutating func peerAnswersTakeback(ply: Int, accept: Bool) -> Verdict {
    guard takeback[myMark] == ply else {
      return .violation("a takeback \(accept ? "acceptance" : "refusal") for ply \(ply), which was not asked for")
    }
    takebackAnswered(askedBy: myMark)
    return accept ? .takeBack(ply: ply) : .takebackDeclined
  }
}

/// One value for each side: two fields, where a dictionary keyed by mark cost a game an allocation and each move a
/// hash (a practice bot plays thousands of moves a second).
struct ByMark<Value: Sendable & Equatable>: Sendable, Equatable {
  var x: Value
  var o: Value

  subscript(mark: Mark) -> Value {
    get { mark == .x ? x : o }
    set {
      if mark == .x { x = newValue } else { o = newValue }
    }
  }
}
