import GameCore

extension GameRecord {
  /// Every game in an SGF collection (a file may hold one game or, for the bot, a day of them).
  public static func parseCollection(_ text: String, limits: SGFLimits = .standard) throws(SGFError) -> [GameRecord] {
    try SGFParser.parse(text, limits: limits).map { (tree) throws(SGFError) in try GameRecord(tree: tree) }
  }

  /// The one game of an SGF file; a collection of several is refused (replay and verify read one game).
  public static func parse(_ text: String, limits: SGFLimits = .standard) throws(SGFError) -> GameRecord {
    let trees = try SGFParser.parse(text, limits: limits)
    guard trees.count == 1 else {
      throw SGFError("the file holds \(trees.count) games; one was expected", at: trees[1].location)
    }
    return try GameRecord(tree: trees[0])
  }

  /// Reads a game of five in a row (GM[4]) or of this program: the rules from SZ and TTK (five, or the shorter
  /// side, when TTK is missing), the players, the result and every move, each checked to be legal.
  public init(tree: SGFGameTree) throws(SGFError) {
    let root = tree.nodes[0]
    func single(_ identifier: String) throws(SGFError) -> String? {
      guard let property = root[identifier] else { return nil }
      guard property.values.count == 1 else {
        throw SGFError("\(identifier) has \(property.values.count) values; it takes one", at: property.location)
      }
      return property.values[0]
    }
    guard let game = root["GM"] else {
      throw SGFError("the game has no GM property: GM[4] (five in a row) is what this program plays", at: root.location)
    }
    guard try single("GM")?.trimmed == "4" else {
      throw SGFError("GM[\(game.values[0])] is not five in a row (GM[4])", at: game.location)
    }
    guard let size = root["SZ"], let sizeText = try single("SZ") else {
      throw SGFError("the game has no board size (SZ)", at: root.location)
    }
    let (columns, rows) = try Self.size(sizeText, at: size.location)
    var k = Self.defaultK(rows: rows, columns: columns)
    if let kText = try single(RecordProperty.k) {
      guard let value = Int(kText.trimmed) else {
        throw SGFError(
          "\(RecordProperty.k)[\(kText)] is not a number", at: root[RecordProperty.k]?.location ?? root.location)
      }
      k = value
    }
    var variant = RuleVariant.freestyle
    if let text = try single("RU") {
      guard let named = SGFRule.variant(text) else {
        throw SGFError(
          "RU[\(text)] is not a rule this program plays (Freestyle, Standard or Renju)",
          at: root["RU"]?.location ?? root.location)
      }
      variant = named
    }
    do throws(RulesError) {
      rules = try Rules(rows: rows, columns: columns, k: k, variant: variant)
    } catch {
      throw SGFError("the rules are not playable: \(error)", at: (root[RecordProperty.k] ?? size).location)
    }
    black = Player(
      name: try single("PB") ?? "", level: try single(RecordProperty.blackLevel),
      publicKey: try single(RecordProperty.blackKey), signature: try single(RecordProperty.blackSignature))
    white = Player(
      name: try single("PW") ?? "", level: try single(RecordProperty.whiteLevel),
      publicKey: try single(RecordProperty.whiteKey), signature: try single(RecordProperty.whiteSignature))
    date = try single("DT") ?? ""
    result = try Self.result(re: try single("RE"), end: try single(RecordProperty.end), root: root)
    moves = try Self.moves(tree.nodes, rules: rules)
    try readClock(tree.nodes, single: single)
    opening = try Self.opening(try single(RecordProperty.opening), root: root, rules: rules, moves: moves)
  }

  /// The time control (TM, OT), each move's times, the flag claim and the version of the signed bytes.
  private mutating func readClock(_ nodes: [SGFNode], single: (String) throws(SGFError) -> String?)
    throws(SGFError)
  {
    let root = nodes[0]
    timeControl = SGFTimeControl.control(tm: try single("TM"), ot: try single("OT")) ?? .none
    times = timeControl.isTimed ? try Self.times(nodes) : []
    if let text = try single(RecordProperty.flag) {
      guard let flag = FlagClaim(sgf: text) else {
        throw SGFError(
          "\(RecordProperty.flag)[\(text)] is not a flag claim (a side, B or W, then three times in seconds)",
          at: root[RecordProperty.flag]?.location ?? root.location)
      }
      self.flag = flag
    }
    if let text = try single(RecordProperty.signedVersion) {
      guard let version = Int(text.trimmed), version == 1 || version == 2 else {
        throw SGFError(
          "\(RecordProperty.signedVersion)[\(text)] is not a version of the signed bytes this program knows (1 or 2)",
          at: root[RecordProperty.signedVersion]?.location ?? root.location)
      }
      signedVersion = version
    }
  }

  /// Each move's time left (BL or WL) and charge (TTQ), when every move has both; none otherwise (a record from
  /// elsewhere with only some times).
  static func times(_ nodes: [SGFNode]) throws(SGFError) -> [MoveTime] {
    var times: [MoveTime] = []
    for node in nodes {
      guard let move = node["B"] ?? node["W"] else { continue }
      guard let left = node[move.identifier + "L"], let charge = node[RecordProperty.charge] else { return [] }
      var milliseconds: [Int] = []
      for property in [left, charge] {
        guard property.values.count == 1, let value = SGFSeconds.milliseconds(property.values[0]) else {
          let value = property.values.joined(separator: "][")
          throw SGFError("\(property.identifier)[\(value)] is not a time in seconds", at: property.location)
        }
        milliseconds.append(value)
      }
      times.append(MoveTime(charged: milliseconds[1], left: milliseconds[0]))
    }
    return times
  }

  /// `SZ[n]` or `SZ[columns:rows]`, each from 3 to 15.
  static func size(_ text: String, at location: SGFLocation) throws(SGFError) -> (columns: Int, rows: Int) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int(String($0).trimmed) }
    guard (1...2).contains(parts.count), let columns = parts[0], let rows = parts.last ?? nil else {
      throw SGFError("SZ[\(text)] is not a board size (SZ[15] or SZ[columns:rows])", at: location)
    }
    guard Rules.sideRange.contains(columns), Rules.sideRange.contains(rows) else {
      throw SGFError("SZ[\(text)]: this program plays boards from 3×3 to 15×15", at: location)
    }
    return (columns, rows)
  }

  static func result(re: String?, end: String?, root: SGFNode) throws(SGFError) -> RecordResult {
    let location = root["RE"]?.location ?? root.location
    let text = (re ?? "?").trimmed
    let stated: RecordResult
    if text == "?" || text.isEmpty {
      stated = .unknown
    } else if text.lowercased() == "void" {
      stated = .void
    } else if text == "0" || text.lowercased() == "draw" || text.lowercased() == "jigo" {
      stated = .drawn(.full)
    } else if let first = text.first, first == "B" || first == "W", text.dropFirst().first == "+" {
      let mark: Mark = first == "B" ? .x : .o
      switch text.dropFirst(2).lowercased() {
      case "r", "resign": stated = .won(mark, .resignation)
      case "t", "time": stated = .won(mark, .time)
      case "f", "forfeit": stated = .won(mark, .left)
      default: stated = .won(mark, .line)
      }
    } else {
      throw SGFError("RE[\(text)] is not a result (B+, W+R, 0, ? ...)", at: location)
    }
    guard let end else { return stated }
    let endLocation = root[RecordProperty.end]?.location ?? location
    switch (stated, end) {
    case (.drawn, let token):
      guard let reason = DrawReason(rawValue: token) else {
        throw SGFError("\(RecordProperty.end)[\(end)] does not agree with RE[\(text)]", at: endLocation)
      }
      return .drawn(reason)
    case (.void, "aborted"): return .void
    case (.unknown, "disputed"): return .disputed
    case (.won(let mark, _), let token):
      // Records before version 2 of the signed bytes wrote an abandonment (TTE[claim]) as B+T.
      guard let reason = EndReason(rawValue: token),
        (reason == .claim ? ["F", "T"] : [reason.sgfSuffix]).contains(where: {
          "\(mark == .x ? "B" : "W")+\($0)" == text
        })
      else {
        throw SGFError("\(RecordProperty.end)[\(end)] does not agree with RE[\(text)]", at: endLocation)
      }
      return .won(mark, reason)
    default:
      throw SGFError("\(RecordProperty.end)[\(end)] does not agree with RE[\(text)]", at: endLocation)
    }
  }

  /// TTO: the opening, checked to fit the moves (nil when there is none).
  static func opening(_ text: String?, root: SGFNode, rules: Rules, moves: [Position]) throws(SGFError)
    -> RecordOpening?
  {
    guard let text else { return nil }
    let location = root[RecordProperty.opening]?.location ?? root.location
    guard let opening = RecordOpening(sgf: text) else {
      throw SGFError(
        "\(RecordProperty.opening)[\(text)] is not an opening this program plays (swap2 and its choices)",
        at: location)
    }
    do throws(Swap2Error) {
      _ = try opening.replay(rules: rules, moves: moves)
    } catch {
      throw SGFError("the Swap2 opening does not fit the moves: \(error)", at: location)
    }
    return opening
  }

  /// The moves of the main line, black first and alternating, each legal on the board so far.
  static func moves(_ nodes: [SGFNode], rules: Rules) throws(SGFError) -> [Position] {
    var game = Game(rules: rules)
    for node in nodes {
      for setup in ["AB", "AW", "AE"] {
        if let property = node[setup] {
          throw SGFError("\(setup) places stones without moves; a replay needs every move", at: property.location)
        }
      }
      let black = node["B"]
      let white = node["W"]
      if let black, white != nil {
        throw SGFError("one node holds both a black and a white move", at: black.location)
      }
      guard let move = black ?? white else { continue }
      let mark: Mark = black != nil ? .x : .o
      let number = game.history.count + 1
      guard move.values.count == 1, let position = SGFPoint.position(move.values[0]) else {
        let value = move.values.joined(separator: "][")
        throw SGFError(
          "move \(number), \(move.identifier)[\(value)], is not a point (a pass is no move here)", at: move.location)
      }
      do throws(MoveError) {
        try game.play(position, by: mark)
      } catch {
        throw SGFError(
          "move \(number), \(move.identifier)[\(move.values[0])], is not legal: \(error)", at: move.location)
      }
    }
    return game.history
  }
}

extension String {
  var trimmed: String {
    var scalars = Substring(self).unicodeScalars
    while scalars.first == " " { scalars.removeFirst() }
    while scalars.last == " " { scalars.removeLast() }
    return String(scalars)
  }
}
