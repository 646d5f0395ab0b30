import Testing

@testable import GameCore

/// The Swap2 opening's state machine: every path, every wrong action at every step, the side to move after each
/// choice, and undo.
@Suite struct Swap2Tests {
  static let rules = try! Rules(size: 15, k: 5)
  static func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }
  /// Three stones and two more, all different cells.
  static let three = [p(7, 7), p(7, 8), p(8, 8)]
  static let two = [p(6, 6), p(9, 9)]

  /// An opening after the first player's three stones.
  static func afterThree() throws -> Swap2 {
    var opening = try Swap2(rules: rules)
    for stone in three { try opening.place(stone, by: .first) }
    return opening
  }

  /// An opening after the second player's two more stones.
  static func afterFive() throws -> Swap2 {
    var opening = try afterThree()
    try opening.choose(.placeTwo, by: .second)
    for stone in two { try opening.place(stone, by: .second) }
    return opening
  }

  @Test func refusesBoardsBelowNineAndOtherLines() throws {
    for (rows, columns, k) in [(8, 15, 5), (15, 8, 5), (8, 8, 5), (15, 15, 4), (15, 15, 6), (9, 9, 3)] {
      let rules = try Rules(rows: rows, columns: columns, k: k)
      #expect(throws: Swap2Error.unsupportedRules(rules)) { try Swap2(rules: rules) }
      #expect(!Swap2.supports(rules))
    }
    for (rows, columns) in [(9, 9), (9, 15), (15, 9), (15, 15), (12, 10)] {
      let opening = try Swap2(rules: Rules(rows: rows, columns: columns, k: 5))
      #expect(opening.step == .placeThree && opening.actor == .first)
    }
  }

  @Test func theThreeStonesAreBlackWhiteBlackByTheFirstPlayer() throws {
    var opening = try Swap2(rules: Self.rules)
    for (index, stone) in Self.three.enumerated() {
      #expect(opening.placing?.placed == index && opening.placing?.of == 3)
      #expect(opening.actor == .first && opening.choices.isEmpty && !opening.isSettled)
      #expect(throws: Swap2Error.notYourTurn(expected: .first)) { try opening.place(Self.p(0, 0), by: .second) }
      try opening.place(stone, by: .first)
    }
    #expect(opening.game.board[Self.three[0]] == .x)
    #expect(opening.game.board[Self.three[1]] == .o)
    #expect(opening.game.board[Self.three[2]] == .x)
    #expect(opening.step == .secondChooses && opening.actor == .second && opening.placing == nil)
    #expect(opening.choices == [.black, .white, .placeTwo])
  }

  @Test func secondTakesBlackAndTheFirstMovesAsWhite() throws {
    var opening = try Self.afterThree()
    try opening.choose(.black, by: .second)
    #expect(opening.step == .playing && opening.isSettled)
    #expect(opening.mark(of: .second) == .x && opening.mark(of: .first) == .o)
    #expect(opening.actor == .first && opening.game.turn == .o)
    #expect(throws: Swap2Error.notYourTurn(expected: .first)) { try opening.place(Self.p(0, 0), by: .second) }
    try opening.place(Self.p(0, 0), by: .first)
    #expect(opening.actor == .second && opening.game.board[Self.p(0, 0)] == .o)
  }

  @Test func secondTakesWhiteAndMovesNext() throws {
    var opening = try Self.afterThree()
    try opening.choose(.white, by: .second)
    #expect(opening.mark(of: .second) == .o && opening.mark(of: .first) == .x)
    #expect(opening.player(playing: .x) == .first && opening.player(playing: .o) == .second)
    #expect(opening.actor == .second)
    try opening.place(Self.p(0, 0), by: .second)
    #expect(opening.actor == .first && opening.game.board[Self.p(0, 0)] == .o)
  }

  @Test func twoMoreThenTheFirstChooses() throws {
    var opening = try Self.afterThree()
    try opening.choose(.placeTwo, by: .second)
    #expect(opening.step == .placeTwo && opening.actor == .second && opening.placing! == (0, 2))
    #expect(throws: Swap2Error.notYourTurn(expected: .second)) { try opening.place(Self.p(0, 0), by: .first) }
    try opening.place(Self.two[0], by: .second)
    #expect(opening.placing! == (1, 2) && opening.game.board[Self.two[0]] == .o)
    try opening.place(Self.two[1], by: .second)
    #expect(opening.game.board[Self.two[1]] == .x)
    #expect(opening.step == .firstChooses && opening.actor == .first && opening.choices == [.black, .white])
    #expect(!opening.isSettled && opening.mark(of: .first) == nil)
  }

  @Test(arguments: [Swap2.Choice.black, .white])
  func afterFiveWhiteMovesWhoeverItIs(choice: Swap2.Choice) throws {
    var opening = try Self.afterFive()
    try opening.choose(choice, by: .first)
    let white: Swap2.Player = choice == .white ? .first : .second
    #expect(opening.mark(of: white) == .o && opening.mark(of: white.other) == .x)
    #expect(opening.actor == white && opening.game.turn == .o && opening.game.history.count == 5)
  }

  @Test func wrongActionsAtEachStep() throws {
    var opening = try Swap2(rules: Self.rules)
    #expect(throws: Swap2Error.stoneDue(.placeThree)) { try opening.choose(.black, by: .first) }
    opening = try Self.afterThree()
    #expect(throws: Swap2Error.choiceDue(.secondChooses)) { try opening.place(Self.p(0, 0), by: .second) }
    #expect(throws: Swap2Error.notYourTurn(expected: .second)) { try opening.choose(.black, by: .first) }
    try opening.choose(.placeTwo, by: .second)
    #expect(throws: Swap2Error.stoneDue(.placeTwo)) { try opening.choose(.white, by: .second) }
    opening = try Self.afterFive()
    #expect(throws: Swap2Error.choiceDue(.firstChooses)) { try opening.place(Self.p(0, 0), by: .first) }
    #expect(throws: Swap2Error.choiceNotOffered(.placeTwo, .firstChooses)) { try opening.choose(.placeTwo, by: .first) }
    #expect(throws: Swap2Error.notYourTurn(expected: .first)) { try opening.choose(.black, by: .second) }
    try opening.choose(.black, by: .first)
    #expect(throws: Swap2Error.stoneDue(.playing)) { try opening.choose(.white, by: .second) }
    #expect(opening.log.count == 7)
  }

  @Test func stonesOnTakenOrMissingCellsAreRefusedAndChangeNothing() throws {
    var opening = try Swap2(rules: Self.rules)
    try opening.place(Self.p(7, 7), by: .first)
    let before = opening
    #expect(throws: Swap2Error.move(.occupied(Self.p(7, 7), by: .x))) { try opening.place(Self.p(7, 7), by: .first) }
    #expect(throws: Swap2Error.move(.outOfRange(Self.p(15, 0), Self.rules))) {
      try opening.place(Self.p(15, 0), by: .first)
    }
    #expect(opening == before)
    opening = try Self.afterThree()
    try opening.choose(.placeTwo, by: .second)
    #expect(throws: Swap2Error.move(.occupied(Self.three[1], by: .o))) { try opening.place(Self.three[1], by: .second) }
    #expect(opening.placing! == (0, 2))
    opening = try Self.afterFive()
    try opening.choose(.white, by: .first)
    #expect(throws: Swap2Error.move(.occupied(Self.two[1], by: .x))) { try opening.place(Self.two[1], by: .first) }
  }

  @Test func theGameGoesOnToAWinAndThenNothingIsAccepted() throws {
    var opening = try Self.afterThree()
    try opening.choose(.black, by: .second)
    // First (white) and second (black) alternate; black, who has 7,7 and 8,8, plays the diagonal.
    let moves: [(Swap2.Player, Position)] = [
      (.first, Self.p(0, 0)), (.second, Self.p(9, 9)), (.first, Self.p(0, 1)), (.second, Self.p(10, 10)),
      (.first, Self.p(0, 2)), (.second, Self.p(6, 6)),
    ]
    for (player, cell) in moves { try opening.place(cell, by: player) }
    #expect(opening.game.outcome?.winner == .x && opening.actor == nil)
    #expect(throws: Swap2Error.move(.gameOver)) { try opening.place(Self.p(1, 1), by: .first) }
  }

  @Test func undoStepsBackOneActionAtATime() throws {
    var opening = try Self.afterFive()
    try opening.choose(.white, by: .first)
    try opening.place(Self.p(0, 0), by: .first)
    var snapshots: [Swap2] = []
    var replay = try Swap2(rules: Self.rules)
    snapshots.append(replay)
    for entry in opening.log {
      try replay.apply(entry)
      snapshots.append(replay)
    }
    #expect(replay == opening)
    for expected in snapshots.dropLast().reversed() {
      #expect(opening.undo() != nil)
      #expect(opening == expected)
    }
    #expect(opening.undo() == nil && opening.step == .placeThree)
  }

  @Test func aLogReplaysToTheSameOpeningAndABadOneIsRefused() throws {
    var opening = try Self.afterFive()
    try opening.choose(.black, by: .first)
    #expect(try Swap2(rules: Self.rules, log: opening.log) == opening)
    var bad = opening.log
    bad[3] = Swap2.Entry(.first, .choice(.placeTwo))
    #expect(throws: Swap2Error.notYourTurn(expected: .second)) { try Swap2(rules: Self.rules, log: bad) }
  }

  @Test func errorsSayWhatToDo() throws {
    var opening = try Self.afterFive()
    do {
      try opening.choose(.placeTwo, by: .first)
      Issue.record("placeTwo accepted from the first player")
    } catch {
      #expect(error.code == "swap2.choice-not-offered")
      #expect(error.description.contains("choose: black or white"))
    }
  }
}
