import Testing

@testable import GameCore

/// The computer in a Swap2 opening: its choices by the search's value, its answers legal at every step and within
/// its time, and its choice on positions where one colour is clearly ahead.
@Suite struct Swap2ComputerTests {
  static let rules = try! Rules(size: 15, k: 5)

  /// An opening with `cells` (row, column) as its stones: three by the first player, and two more by the second.
  static func opening(_ cells: [(Int, Int)]) throws -> Swap2 {
    var opening = try Swap2(rules: rules)
    for (index, (row, column)) in cells.enumerated() {
      if index == 3 { try opening.choose(.placeTwo, by: .second) }
      try opening.place(Position(row: row, column: column), by: index < 3 ? .first : .second)
    }
    return opening
  }

  @Test func theChoicesFollowTheValue() {
    let margin = Swap2Computer.closeMargin
    #expect(Swap2Computer.secondChoice(white: margin + 1, afterTwo: nil) == .white)
    #expect(Swap2Computer.secondChoice(white: -margin - 1, afterTwo: nil) == .black)
    #expect(Swap2Computer.secondChoice(white: margin, afterTwo: nil) == .placeTwo)
    #expect(Swap2Computer.secondChoice(white: -margin, afterTwo: nil) == .placeTwo)
    #expect(Swap2Computer.secondChoice(white: 10, afterTwo: margin) == .placeTwo)
    #expect(Swap2Computer.secondChoice(white: 10, afterTwo: -margin - 1) == .white)
    #expect(Swap2Computer.secondChoice(white: -10, afterTwo: margin + 1) == .black)
    #expect(Swap2Computer.firstChoice(white: 0) == .white && Swap2Computer.firstChoice(white: -1) == .black)
  }

  @Test func everyAnswerIsLegalAndInTime() throws {
    var rng = SystemRandomNumberGenerator()
    let budget = Duration.milliseconds(250)
    for _ in 0..<3 {
      var opening = try Swap2(rules: Self.rules)
      var answers = 0
      // Both sides played by the computer until the colours are settled.
      while !opening.isSettled, answers < 4 {
        let start = ContinuousClock.now
        let actions = Swap2Computer(budget: budget).answer(to: opening, using: &rng)
        #expect(ContinuousClock.now - start < budget + .milliseconds(60))
        #expect(!actions.isEmpty)
        let actor = try #require(opening.actor)
        for action in actions { try opening.apply(Swap2.Entry(actor, action)) }
        answers += 1
      }
      #expect(opening.isSettled && opening.step == .playing)
      // A choice of white comes with white's move: the other player is then to move.
      if case .choice(.white) = opening.log.last(where: { if case .choice = $0.action { true } else { false } })?
        .action
      {
        #expect(opening.game.turn == .x)
      }
      #expect(Swap2Computer().answer(to: opening, using: &rng).isEmpty)
    }
  }

  @Test func theOpeningStonesAreNearTheCentreAndNotFarFromEven() throws {
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<3 {
      let actions = Swap2Computer().answer(to: try Swap2(rules: Self.rules), using: &rng)
      var opening = try Swap2(rules: Self.rules)
      for action in actions { try opening.apply(Swap2.Entry(.first, action)) }
      #expect(opening.step == .secondChooses)
      for position in opening.game.history {
        #expect(abs(position.row - 7) <= 2 && abs(position.column - 7) <= 2)
      }
      // Judged again with more time, the opening is within a few close margins of even.
      let value = Swap2Computer.whiteValue(of: opening.game, until: .now + .milliseconds(300))
      #expect(abs(value) <= 4 * Swap2Computer.closeMargin, "\(opening.game.history): \(value)")
    }
  }

  @Test func withFiveStonesItTakesTheColourAhead() throws {
    var rng = SystemRandomNumberGenerator()
    let computer = Swap2Computer(budget: .milliseconds(1000))
    // Black has an open three in the middle, white two stones in the corners.
    let blackAhead = try Self.opening([(7, 6), (0, 0), (7, 7), (14, 14), (7, 8)])
    #expect(computer.answer(to: blackAhead, using: &rng) == [.choice(.black)])
    // White has two in the middle, black three in the corners: it takes white and moves.
    let whiteAhead = try Self.opening([(0, 0), (7, 7), (14, 14), (7, 8), (0, 14)])
    let answer = computer.answer(to: whiteAhead, using: &rng)
    #expect(answer.first == .choice(.white) && answer.count == 2)
  }

  @Test func withThreeStonesItTakesBlackWhenBlackIsWellAhead() throws {
    var rng = SystemRandomNumberGenerator()
    // Two black stones on a diagonal, white beside them: black is well ahead by the search.
    let opening = try Self.opening([(7, 7), (7, 8), (8, 8)])
    #expect(Swap2Computer(budget: .milliseconds(1000)).answer(to: opening, using: &rng) == [.choice(.black)])
  }
}
