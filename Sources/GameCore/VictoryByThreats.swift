/// Wins by threats (VCT, "victory by continuous threats"): a sequence of attacking moves each of which makes a
/// four or a three, a three being a move after which the attacker has a cell that makes two completions at once
/// (an open four, or a four and another four). A four's answer is forced; a three's answers are every move that
/// leaves the attacker no such cell, and every counter-four of the defender's (which the attacker must block,
/// after which the defender moves again). Any other answer loses to the cell that makes two completions.
///
/// Sound as the four search is: a reported first move wins against every defence, within the limits (a node count,
/// a deadline, `maximumThreats` attacking moves, `maximumCounterFours` counter-fours in a row); running out of any
/// of them counts as no win. A defender's counter-four past the limit is assumed to refute the attack.
extension ThreatSearch {
  /// A forced win by fours and threes for `mark` if `mark` were to move now, within `maximumThreats` attacking
  /// moves; the line holds the attacker's moves and one defence to each (the first tried), attacker first.
  mutating func victoryByThreats(
    for mark: UInt8, maximumThreats: Int = 7, deadline: ContinuousClock.Instant? = nil, nodeLimit: Int = 200_000
  ) -> Result? {
    search(deadline: deadline, nodeLimit: nodeLimit) { $0.attack(mark, threats: maximumThreats) }
  }

  /// Cells where `mark` would make a three (and no four): the attacker's quiet threats.
  mutating func threeMoves(for mark: UInt8) -> [Int] {
    board.threeCandidates(for: mark).filter { cell in
      guard !board.isForbidden(mark, at: cell) else { return false }
      board.place(mark, at: cell)
      defer { board.clear(cell) }
      return board.winningCells(for: mark, through: cell).isEmpty && board.hasDouble(for: mark, near: cell)
    }
  }

  /// Whether `mark`, to move, wins by fours and threes within `threats` attacking moves; the line is appended
  /// backwards when it does.
  private mutating func attack(_ mark: UInt8, threats: Int) -> Bool {
    if outOfTime() { return false }
    let opponent = 3 - mark
    // A line completed now wins whatever the opponent threatens.
    if let win = board.winningCells(for: mark).first {
      line.append(win)
      return true
    }
    let opponentWins = board.winningCells(for: opponent)
    if opponentWins.count >= 2 { return false }
    // A win by fours alone (including a win at once) is the shortest kind.
    if vcf(mark, fours: min(maximumFours, 10)) { return true }
    if gaveUp || threats == 0 { return false }
    let key = board.hash ^ UInt64(mark) ^ 0x5643_5400
    if let known = failedThreats[key], known >= threats { return false }
    var candidates = board.fourMoves(for: mark).sorted { $0.windows > $1.windows }.map(\.cell)
    candidates += threeMoves(for: mark).filter { !candidates.contains($0) }
    // An opponent's four must be blocked; the block keeps the initiative only if it leaves a threat (a four, or
    // a cell that makes two completions, new or standing), which `answers` checks.
    if let block = opponentWins.first { candidates = [block] }
    for cell in candidates where !board.isForbidden(mark, at: cell) {
      board.place(mark, at: cell)
      let won = answers(to: cell, by: mark, threats: threats - 1)
      board.clear(cell)
      if won {
        line.append(cell)
        return true
      }
      if gaveUp { return false }
    }
    if !gaveUp { failedThreats[key] = threats }
    return false
  }

  /// Whether `mark`'s threat just made at `cell` wins against every answer.
  private mutating func answers(to cell: Int, by mark: UInt8, threats: Int) -> Bool {
    let opponent = 3 - mark
    let made = board.winningCells(for: mark, through: cell)
    if made.count >= 2 { return true }
    if let reply = made.first {
      // A four: the answer is forced, unless it completes a line of the defender's.
      guard !board.completes(opponent, at: reply) else { return false }
      board.place(opponent, at: reply)
      let won = attack(mark, threats: threats)
      board.clear(reply)
      if won { line.append(reply) }
      return won
    }
    return defend(against: mark, threats: threats, counterFours: maximumCounterFours)
  }

  /// Whether `attacker`, whose three stands on the board with the defender to move, wins whatever the defender
  /// plays; the line of the first defence tried is appended backwards.
  private mutating func defend(against attacker: UInt8, threats: Int, counterFours: Int) -> Bool {
    if outOfTime() { return false }
    let defender = 3 - attacker
    if !board.winningCells(for: defender).isEmpty { return false }
    let fours = board.winningCells(for: attacker)
    if fours.count >= 2 { return true }
    if let block = fours.first {
      board.place(defender, at: block)
      let won = attack(attacker, threats: threats)
      board.clear(block)
      if won { line.append(block) }
      return won
    }
    let doubles = board.doubleCells(for: attacker)
    if doubles.isEmpty { return false }
    // Only the first defence's line is kept; a refuted attack leaves nothing in the line.
    let start = line.count
    for answer in board.defences(against: attacker, doubles: doubles) {
      if board.isForbidden(defender, at: answer) { continue }
      let before = line.count
      board.place(defender, at: answer)
      let won = attackerWins(after: answer, doubles: doubles, attacker: attacker, threats: threats, counterFours)
      board.clear(answer)
      guard won else {
        line.removeSubrange(start...)
        return false
      }
      if before > start { line.removeSubrange(before...) } else { line.append(answer) }
    }
    return true
  }

  /// Whether `attacker` still wins after the defender's `answer` to its three.
  private mutating func attackerWins(
    after answer: Int, doubles: [Int], attacker: UInt8, threats: Int, _ counterFours: Int
  ) -> Bool {
    let defender = 3 - attacker
    let made = board.winningCells(for: defender, through: answer)
    if made.count >= 2 { return false }
    if let block = made.first {
      // A counter-four: the attacker must block it, then the defender moves again.
      guard counterFours > 0, !board.isForbidden(attacker, at: block) else { return false }
      board.place(attacker, at: block)
      let won = defend(against: attacker, threats: threats, counterFours: counterFours - 1)
      board.clear(block)
      if won { line.append(block) }
      return won
    }
    // An answer that leaves a cell making two completions loses to it at once.
    if doubles.contains(where: { board.makesDouble(attacker, at: $0) }) { return true }
    return attack(attacker, threats: threats)
  }
}

extension ThreatBoard {
  /// Empty cells of windows holding k - 3 of `mark`'s marks and none of the other's: where a three may be made.
  func threeCandidates(for mark: UInt8) -> [Int] {
    var seen = Set<Int>()
    var order: [Int] = []
    for w in windows.indices where counts[w * 3 + Int(mark)] == k - 3 && counts[w * 3 + Int(3 - mark)] == 0 {
      for cell in windows[w] where cells[cell] == 0 && seen.insert(cell).inserted { order.append(cell) }
    }
    return order
  }

  /// Whether `mark` on the empty `cell` would threaten two completions at once (and is allowed there).
  mutating func makesDouble(_ mark: UInt8, at cell: Int) -> Bool {
    guard cells[cell] == 0, !isForbidden(mark, at: cell) else { return false }
    place(mark, at: cell)
    defer { clear(cell) }
    return winningCells(for: mark, through: cell).count >= 2
  }

  /// Whether some empty cell in a window through `cell` would give `mark` two completions at once.
  mutating func hasDouble(for mark: UInt8, near cell: Int) -> Bool {
    for w in windowsThrough[cell] where counts[w * 3 + Int(mark)] == k - 2 && counts[w * 3 + Int(3 - mark)] == 0 {
      for c in windows[w] where makesDouble(mark, at: c) { return true }
    }
    return false
  }

  /// Every empty cell where `mark` would threaten two completions at once.
  mutating func doubleCells(for mark: UInt8) -> [Int] {
    var result: [Int] = []
    for cell in fourMoves(for: mark).map(\.cell) where makesDouble(mark, at: cell) { result.append(cell) }
    return result
  }

  /// The answers worth trying to `attacker`'s three: the empty cells of the windows that would make each of its
  /// `doubles` a double, and every cell where the defender would make a four. Any other answer loses.
  func defences(against attacker: UInt8, doubles: [Int]) -> [Int] {
    var seen = Set<Int>()
    var order: [Int] = []
    for c in doubles {
      for w in windowsThrough[c] where counts[w * 3 + Int(attacker)] == k - 2 && counts[w * 3 + Int(3 - attacker)] == 0
      {
        for cell in windows[w] where cells[cell] == 0 && seen.insert(cell).inserted { order.append(cell) }
      }
    }
    for (cell, _) in fourMoves(for: 3 - attacker) where seen.insert(cell).inserted { order.append(cell) }
    return order
  }
}
