import GameCore
import WireProtocol

/// The Swap2 opening of a network game (protocol version 4, PROTOCOL.md "Version 4: rule variants and openings"):
/// while it runs the session holds a `NetSwap2`; this player's stones and choices go out through it, the peer's
/// are checked by it (a violation named by why), and once the colours are settled the game goes on as usual with
/// the chosen colours. Every game of the match opens so, the first (tentative) player alternating as X does. Pure.
extension NetSession {
  /// How the games of this match open: the host's terms say (the usual opening from a host older than them).
  public var opening: Opening { hostTerms?.opening ?? .standard }

  /// Whether the current game is in its Swap2 opening: stones and choices until the colours are settled.
  @inlinable @inline(__always) public var inOpening: Bool {
    phase == .playing && swap2.map { !$0.opening.isSettled } == true
  }

  /// The choices this player may make now (none while a stone is due, or when it is the peer's to act).
  public var openingChoices: [Swap2.Choice] {
    guard inOpening, let swap2, swap2.myTurn, !isResuming else { return [] }
    return swap2.opening.choices
  }

  /// Makes a choice of the Swap2 opening (take black, take white, or place two more), or throws why not (nothing
  /// is sent then). Once it settles the colours, the game goes on with them.
  public mutating func choose(_ choice: Swap2.Choice, now: Double) throws(PlayError) -> [SessionOutput] {
    guard !isResuming else { throw .reconnecting }
    guard inOpening, var opening = swap2 else { throw .noOpeningChoice }
    let turn = opening.turn
    guard clock?.myTimeIsUp(ply: turn, now: now) != true else { throw .outOfTime }
    let message: Message
    do {
      message = try opening.choose(choice)
    } catch {
      throw .opening(error)
    }
    swap2 = opening
    return [send(clocked(message, turn: turn, now), now)] + openingSettled()
  }

  /// Starts the opening of a game that begins now, this player in the place its usual mark gives it.
  mutating func beginOpening(usualMark: Mark) {
    swap2 = opening == .swap2 ? try? NetSwap2(rules: rules, usualMark: usualMark) : nil
  }

  /// This player places a stone of the opening.
  mutating func placeOpeningStone(_ position: Position, _ now: Double) throws(PlayError) -> [SessionOutput] {
    guard var opening = swap2 else { throw .illegal(.gameOver) }
    let turn = opening.turn
    guard clock?.myTimeIsUp(ply: turn, now: now) != true else { throw .outOfTime }
    let message: Message
    do {
      message = try opening.place(position)
    } catch {
      throw .opening(error)
    }
    swap2 = opening
    series.takeOpeningBoard(opening.opening.game)
    return [send(clocked(message, turn: turn, now), now)]
  }

  /// The peer's stone or choice in the opening (a choice out of the opening is out of place).
  mutating func peerOpening(_ message: Message, _ now: Double) -> [SessionOutput] {
    if phase == .betweenGames, case .resigned = lastResult { return [] }  // crossed with a resignation
    if flagClaimedAt != nil { return [] }  // crossed this side's flag claim: void (rule 15)
    guard inOpening, var opening = swap2 else { return unexpected(message, now) }
    let turn = opening.turn
    if let refused = opening.peer(message) { return violation(refused, now) }
    swap2 = opening
    series.takeOpeningBoard(opening.opening.game)
    if let refused = chargePeer(message, turn: turn, now) { return violation(refused, now) }
    peerMoved = true
    switch message {
    case .move(_, let position, _): return [.peerMoved(position)]
    case .openingChoice(_, let choice, _): return [.peerChose(choice)] + openingSettled()
    default: return []
    }
  }

  /// Once the colours are settled: this player's mark, and the game flow of version 3 with it.
  mutating func openingSettled() -> [SessionOutput] {
    guard let mark = swap2?.myMark else { return [] }
    series.settle(myMark: mark)
    flow = hasGameFlow ? GameFlow(myMark: mark) : nil
    return [.coloursSettled(myMark: mark)]
  }

  /// The choices of the current game's Swap2 opening so far: what a kept game carries (rule 19).
  public var openingChoicesMade: [Swap2.Choice] {
    (swap2?.opening.log ?? []).compactMap { if case .choice(let choice) = $0.action { choice } else { nil } }
  }

  /// The choices of the opening so far as `opening choice` numbers them (1 black, 2 white, 3 place two more):
  /// what the resume digest adds for a game that opens with Swap2.
  var openingChoiceNumbers: [UInt8] {
    (swap2?.opening.log ?? []).compactMap { entry -> UInt8? in
      guard case .choice(let choice) = entry.action else { return nil }
      switch choice {
      case .black: return 1
      case .white: return 2
      case .placeTwo: return 3
      }
    }
  }

  /// Why a version-3 offer, claim or abort of the peer's is a violation in a Swap2 game: any during the opening,
  /// and a takeback into the opening's stones. nil when it is not.
  func refusedInOpening(_ message: Message) -> String? {
    guard let swap2 else { return nil }
    switch message {
    case .flagClaim, .flagAnswer: if clock != nil { return nil }  // the clocks run in the opening (rule 15)
    default: break
    }
    if inOpening { return "\(NetSwap2.article(message)) \(message.name) during the Swap2 opening" }
    if case .takebackRequest(let ply) = message, ply < swap2.ply {
      return "a takeback request to ply \(ply), into the Swap2 opening's \(swap2.ply) stones"
    }
    return nil
  }

  /// Why the host's opening cannot be played on `rules` (Swap2 is five in a row on 9×9 and up), or nil.
  func openingUnplayable(on rules: Rules) -> String? {
    guard opening == .swap2, !Swap2.supports(rules) else { return nil }
    return "terms with the swap2 opening on \(rules), which Swap2 is not played on"
  }
}
