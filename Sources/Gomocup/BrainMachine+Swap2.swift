import GameCore

/// SWAP2BOARD, the Swap2 opening as the Gomocup protocol asks a brain about it: the stones so far, one "X,Y" a
/// line, in the order placed (black, white, black, then white, black), then DONE. With none the brain places three
/// ("X1,Y1 X2,Y2 X3,Y3"); with three it answers SWAP (it takes black), one move (it takes white and places the
/// fourth stone) or two ("X4,Y4 X5,Y5": two more, the choice left to the other); with five it answers SWAP (it
/// takes black) or one move (it takes white and places the sixth stone).
extension BrainMachine {
  /// The number of stones SWAP2BOARD may give.
  public static let swap2Counts: Set<Int> = [0, 3, 5]

  /// The Swap2 answer the brain chose (`Swap2Computer.answer`): written out, and the board kept for the game
  /// that follows once the colours are settled.
  public mutating func answered(_ actions: [Swap2.Action]) -> [Output] {
    guard case .answeringSwap2(var opening) = phase, let brain = opening.actor else { return [] }
    phase = .ready
    let step = opening.step
    for action in actions {
      do {
        try opening.apply(Swap2.Entry(opening.actor ?? brain, action))
      } catch {
        return [.reply("ERROR this brain could not answer the Swap2 opening: \(error)")]
      }
    }
    let cells = actions.compactMap { action -> String? in
      if case .stone(let position) = action { ProtocolText.cell(position) } else { nil }
    }
    stones = BrainStones()
    if let mark = opening.mark(of: brain) {
      for (index, position) in opening.game.history.enumerated() {
        if (index.isMultiple(of: 2) ? Mark.x : .o) == mark {
          stones.own.append(position)
        } else {
          stones.opponent.append(position)
        }
      }
    }
    let swapped = actions.first == .choice(.black) && step != .placeThree
    return [.reply(swapped ? "SWAP" : cells.joined(separator: " "))]
  }

  /// One line between SWAP2BOARD and DONE.
  mutating func swap2Line(
    _ line: Substring, keyword: String, read: (lines: Int, stones: [Position]), fault: String?
  ) -> [Output] {
    guard let rules else { return [] }
    var stones = read.stones
    if keyword == "DONE" { return swap2Done(stones: stones, fault: fault, rules: rules) }
    // A manager that never says DONE is stopped after more lines than Swap2 has stones (and some).
    guard read.lines < 5 + 8 else {
      phase = .ready
      return [.reply("ERROR SWAP2BOARD refused: more lines than Swap2 has stones, and no DONE")]
    }
    var fault = fault
    if fault == nil {
      switch ProtocolText.cell(line, on: rules) {
      case .failure(let error): fault = "\(error)"
      case .success(let position) where stones.contains(position):
        fault = "\(ProtocolText.cell(position)) is given twice"
      case .success(let position): stones.append(position)
      }
    }
    phase = .swap2(lines: read.lines + 1, stones: stones, fault: fault)
    return []
  }

  /// DONE after SWAP2BOARD: an answer asked for, or one ERROR saying why none can be given.
  private mutating func swap2Done(stones: [Position], fault: String?, rules: Rules) -> [Output] {
    phase = .ready
    if let fault { return [.reply("ERROR SWAP2BOARD refused: \(fault)")] }
    guard Self.swap2Counts.contains(stones.count) else {
      return [.reply("ERROR SWAP2BOARD refused: \(stones.count) stones; Swap2 asks about 0, 3 or 5")]
    }
    var log = stones.prefix(3).map { Swap2.Entry(.first, .stone($0)) }
    if stones.count == 5 {
      log += [Swap2.Entry(.second, .choice(.placeTwo))] + stones.suffix(2).map { Swap2.Entry(.second, .stone($0)) }
    }
    let opening: Swap2
    do {
      opening = try Swap2(rules: rules, log: log)
    } catch {
      return [.reply("ERROR SWAP2BOARD refused: \(error)")]
    }
    phase = .answeringSwap2(opening)
    let empty = rules.cellCount - stones.count
    return [.swap2(opening, milliseconds: limits.searchMilliseconds(emptyCells: empty))]
  }
}
