import GameCore
import Testing
import WireProtocol

@testable import Session

/// Swap2 between two sides of a network game (protocol version 4): each side's stones and choices go across as
/// messages (through the codec) and the other side's opening follows; the wrong side acting, a stone on a taken
/// cell, a choice out of turn or not offered, and a ply out of order are violations named by why.
@Suite struct NetSwap2Tests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }
  static let rules = try! Rules(size: 15, k: 5)

  /// The host is the first (tentative) player: the coin made it X.
  static func sides() throws -> (host: NetSwap2, joiner: NetSwap2) {
    (try NetSwap2(rules: rules, usualMark: .x), try NetSwap2(rules: rules, usualMark: .o))
  }

  /// What the receiver reads of `message`: the bytes decoded again.
  static func across(_ message: Message) throws -> Message {
    try #require(try Message.decode(message.frame))
  }

  @Test func threeStonesThenTheSecondTakesWhite() throws {
    var (host, joiner) = try Self.sides()
    #expect(host.myTurn && !joiner.myTurn && host.me == .first)
    for cell in [p(7, 7), p(7, 8), p(8, 8)] {
      #expect(joiner.peer(try Self.across(try host.place(cell))) == nil)
    }
    #expect(joiner.myTurn && joiner.opening.choices == [.black, .white, .placeTwo])
    #expect(host.peer(try Self.across(try joiner.choose(.white))) == nil)
    #expect(joiner.myMark == .o && host.myMark == .x && joiner.myTurn, "white moves next, with 3 stones down")
    #expect(host.opening.log == joiner.opening.log)
  }

  @Test func placeTwoLeavesTheChoiceToTheFirst() throws {
    var (host, joiner) = try Self.sides()
    for cell in [p(7, 7), p(7, 8), p(8, 8)] { _ = joiner.peer(try host.place(cell)) }
    _ = host.peer(try joiner.choose(.placeTwo))
    for cell in [p(6, 6), p(9, 9)] { #expect(host.peer(try Self.across(try joiner.place(cell))) == nil) }
    #expect(host.myTurn && host.opening.choices == [.black, .white])
    #expect(joiner.peer(try Self.across(try host.choose(.white))) == nil)
    #expect(host.myMark == .o && joiner.myMark == .x && host.myTurn && host.ply == 5)
  }

  @Test func theWrongSideActingIsAViolation() throws {
    var (host, joiner) = try Self.sides()
    // The second player places a stone while the first places three.
    #expect(
      host.peer(.move(ply: 0, position: p(7, 7)))
        == "a move the Swap2 opening refuses: it is the first player's turn in the opening")
    // And may not act for the other side itself.
    #expect(throws: Swap2Error.notYourTurn(expected: .first)) { try joiner.place(p(7, 7)) }
    #expect(host.ply == 0 && joiner.ply == 0)
  }

  @Test func aStoneOnATakenCellIsAViolation() throws {
    var (host, joiner) = try Self.sides()
    _ = joiner.peer(try host.place(p(7, 7)))
    _ = joiner.peer(try host.place(p(7, 8)))
    _ = joiner.peer(try host.place(p(8, 8)))
    _ = host.peer(try joiner.choose(.placeTwo))
    let refused = host.peer(.move(ply: 3, position: p(7, 8)))
    #expect(refused == "a move the Swap2 opening refuses: row 8, column 9 is already taken by O")
  }

  @Test func choicesOutOfTurnOrNotOfferedAreViolations() throws {
    var (host, joiner) = try Self.sides()
    // A choice while stones are due.
    #expect(
      host.peer(.openingChoice(ply: 0, choice: .black))
        == "an opening choice the Swap2 opening refuses: a stone is due, not a choice (the first player places stone 1 of 3)"
        || host.peer(.openingChoice(ply: 0, choice: .black))?.hasPrefix(
          "an opening choice the Swap2 opening refuses: a stone is due") == true
    )
    for cell in [p(7, 7), p(7, 8), p(8, 8)] { _ = joiner.peer(try host.place(cell)) }
    // The first player choosing where the second does: its own program refuses, and the peer's is a violation.
    #expect(throws: Swap2Error.notYourTurn(expected: .second)) { try host.choose(.black) }
    #expect(
      joiner.peer(.openingChoice(ply: 3, choice: .black))
        == "an opening choice the Swap2 opening refuses: it is the second player's turn in the opening")
    _ = host.peer(try joiner.choose(.placeTwo))
    for cell in [p(6, 6), p(9, 9)] { _ = host.peer(try joiner.place(cell)) }
    // The first may not pass the choice back.
    let back = joiner.peer(.openingChoice(ply: 5, choice: .placeTwo))
    #expect(
      back?.hasPrefix("an opening choice the Swap2 opening refuses: \"place 2 more stones\" is not a choice now")
        == true, "\(back ?? "")")
  }

  @Test func aPlyOutOfOrderIsAViolation() throws {
    var (host, joiner) = try Self.sides()
    _ = joiner.peer(try host.place(p(7, 7)))
    #expect(
      joiner.peer(.move(ply: 0, position: p(1, 1)))
        == "a move for ply 0 when 1 stones are on the board (repeated or out of order)")
    #expect(joiner.peer(.heartbeat) == "a heartbeat in the Swap2 opening")
  }

  @Test func theChoiceRoundTripsAndABadValueIsRefused() throws {
    for choice in Swap2.Choice.allCases {
      #expect(try Self.across(.openingChoice(ply: 3, choice: choice)) == .openingChoice(ply: 3, choice: choice))
    }
    #expect(Message.openingChoice(ply: 5, choice: .white).bytes == [0, 10, 0x2D, 1, 0, 2, 0, 5, 2, 0, 1, 2])
    #expect(Message.openingChoice(ply: 3, choice: .black).minimumVersion == 4)
    #expect(throws: WireError.badValue("choice", reason: "it is 4, not 1 (black), 2 (white) or 3 (place two more)")) {
      try Message.decode(Frame(type: 0x2D, payload: [1, 0, 2, 0, 3, 2, 0, 1, 4]))
    }
  }
}
