import GameCore
import UntrustedText

/// The keys of the join screen and of a networked match: the address field, the match (moves, chat and its
/// scrolling, resign, rematch, leave), the trust question and the confirmations.
extension UIController {
  mutating func joinAddress(_ key: Key) -> [Effect] {
    switch key {
    case .escape:
      state.page = .lobby
    case .enter:
      let address = state.addressDraft.trimmingSpaces()
      guard !address.isEmpty else { return [] }
      state.joiningAddress = address
      return [.join(address)]
    case .function(1):
      // `?` is typed into the field here: F1 is the help.
      state.helpVisible = true
    case .up, .down:
      let recent = state.recentAddresses
      guard !recent.isEmpty else { return [] }
      let index = recent.firstIndex(of: state.addressDraft) ?? -1
      let next = key == .down ? index + 1 : index - 1
      state.addressDraft = recent[(next + recent.count) % recent.count]
    default:
      state.addressField.handle(key)
    }
    return []
  }

  /// The network key handler: a key during a networked match. The trust question and a confirmation take the key
  /// first, then the chat's scrolling and its field, then the match's own letters, then the board.
  mutating func network(_ key: Key) -> [Effect] {
    guard var net = state.net else { return [] }
    if key == .resize { return [] }
    if net.ended != nil { return key == .character("r") && net.canRejoin ? [.netRejoin] : [.netLeave] }
    net.notice = nil
    defer { state.net = net }
    if var question = net.question {
      defer { net.question = question }
      return trustAnswer(key, &question)
    }
    if net.terms != nil {
      switch key {
      case .character("y"), .character("Y"):
        net.terms = nil
        return [.netAnswer(true)]
      case .character("n"), .character("N"), .escape:
        net.terms = nil
        return [.netAnswer(false)]
      default: return []
      }
    }
    if let confirming = net.confirming {
      return confirmationAnswer(key, confirming, &net)
    }
    if net.isWatching, net.chatField == nil { return watchingKey(key, &net) }
    if var goTo = net.goTo, let rules = net.game?.rules {
      let (cursor, open) = goTo.handle(key, rules: rules)
      net.goTo = open ? goTo : nil
      if let cursor { net.cursor = cursor }
      return []
    }
    if key == .pageUp || key == .pageDown {
      scrollChat(key, &net)
      return []
    }
    if let field = net.chatField {
      return chatFieldKey(key, field, &net)
    }
    if let effects = matchLetter(key, &net) {
      return effects
    }
    return boardKey(key, &net)
  }

  /// A key while leaving, resigning or a new invite waits for a yes or a no: `y` does it (a resignation only while
  /// the game is still on, a new invite only while none is), `n`, Esc or `q` drops the question, anything else is ignored.
  private mutating func confirmationAnswer(
    _ key: Key, _ confirming: NetGameState.Confirmation, _ net: inout NetGameState
  ) -> [Effect] {
    switch key {
    case .character("y"), .character("Y"):
      net.confirming = nil
      switch confirming {
      case .leave: return [.netLeave]
      case .resign: return net.gameInProgress ? [.netResign] : []
      case .newInvite: return net.canMakeNewInvite && net.game == nil ? [.netNewInvite] : []
      case .mapPort(let open): return net.mapOffer == nil ? [] : mapPort(open, &net)
      }
    case .character("n"), .character("N"), .escape, .character("q"):
      net.confirming = nil
    default: break
    }
    return []
  }

  /// The router question answered yes: open the port (`open`) or never ask, and save the answer.
  private mutating func mapPort(_ open: Bool, _ net: inout NetGameState) -> [Effect] {
    net.mapOffer = nil
    var settings = state.settings
    settings.mapPort = open
    state.settings = settings
    return [.netMapPort(open), .saveSettings(settings)]
  }

  /// PgUp or PgDn: the chat scrolls by a page, no further back than its oldest message in the box on the screen,
  /// and down no further than the messages that come into view fit in it (none skipped unseen, so the count of
  /// new ones below stays true).
  private mutating func scrollChat(_ key: Key, _ net: inout NetGameState) {
    state.net = net
    let box = NetPanelView.chatBox(state)
    let deepest = box.map { ChatPane.deepestBack(net, box: $0) }
    let down = box.map { ChatPane.pageDown(net, box: $0, most: Self.chatPage) } ?? Self.chatPage
    net.scrollChat(by: key == .pageUp ? Self.chatPage : -down, deepest: deepest)
  }

  /// A key while the chat field is open: Esc closes it, Enter sends what is in it (unless it is blank), any other
  /// key edits it.
  private func chatFieldKey(_ key: Key, _ field: TextField, _ net: inout NetGameState) -> [Effect] {
    var field = field
    switch key {
    case .escape: net.chatField = nil
    case .enter:
      net.chatField = nil
      if !field.text.trimmingSpaces().isEmpty { return [.netChat(field.text)] }
    default:
      field.handle(key)
      net.chatField = field
      if field.wasCut, case .paste = key {
        net.notice = "Cut to fit: a message holds at most \(NetGameState.chatLimit) bytes; the rest was left out."
      }
    }
    return []
  }

  /// The match's own letters (chat, resign, draw, takeback, decline, abort, verification code, claim, port
  /// mapping, rematch, a new invite, help): their effects, or nil when the key is not one of them here and goes to the board.
  private mutating func matchLetter(_ key: Key, _ net: inout NetGameState) -> [Effect]? {
    switch key {
    case .character("c"), .character("t"):
      var field = TextField(limit: NetGameState.chatLimit)
      field.breaksAsSpaces = true  // a pasted message's lines are one message's words
      net.chatField = field
      return []
    case .character("R"):
      if net.gameInProgress { net.confirming = .resign }
      return []
    case .character("D") where net.hasGameFlow && net.gameInProgress:
      return [.netDraw]
    case .character("u") where net.hasGameFlow && net.gameInProgress:
      return [.netTakeback]
    case .character("x") where net.peerOffer != nil:
      return [.netDecline]
    case .character("b"), .character("o"), .character("p"):
      // Swap2's choice (the same keys as in a local game); nothing when no choice is this player's now.
      let choice: Swap2.Choice = key == .character("b") ? .black : key == .character("o") ? .white : .placeTwo
      guard net.openingChoices.contains(choice) else {
        if net.opening?.isSettled == false { net.notice = "Not a choice now." }
        return []
      }
      return [.netChoose(choice)]
    case .character("A") where net.canAbort:
      return [.netAbort]
    case .character("v"):
      net.notice =
        net.verificationCode.map { "Verification code: \($0) (the same on both screens)" }
        ?? "No verification code yet: not connected."
      return []
    case .character("w") where net.dropped?.claimable == true && net.result == nil:
      return [.netClaim]
    case .character("m") where net.mapOffer != nil, .character("M") where net.mapOffer != nil:
      // Asked first: the answer reaches the router and is saved for every later game.
      net.confirming = .mapPort(open: key == .character("m"))
      return []
    case .character("n"):
      return net.result != nil ? [.netRematch] : []
    case .character("i") where net.canMakeNewInvite && net.game == nil:
      // Asked first: a stray key must not stop the invites already sent from working.
      net.confirming = .newInvite
      return []
    case .character("?"), .function(1):
      state.helpVisible = true
      return []
    default:
      return nil
    }
  }

  /// A key on the board: the cursor moves, a move is placed (by the cursor, a cell number or a click), or Esc
  /// leaves (asked first while a game is in progress).
  private mutating func boardKey(_ key: Key, _ net: inout NetGameState) -> [Effect] {
    let digits = net.game?.rules == .standard
    let action = KeyMap.action(for: key, in: .game(digitsPlace: digits))
    // No move and no cursor step on a board that is not on the screen (too small a terminal): nothing unseen.
    state.net = net
    if NetGameView.boardLayout(for: state) == nil, action?.isOnTheBoard == true { return [] }
    switch action {
    case .moveCursor(let rows, let columns):
      guard let rules = net.game?.rules else { return [] }
      net.cursor.row = min(max(net.cursor.row + rows, 0), rules.rows - 1)
      net.cursor.column = min(max(net.cursor.column + columns, 0), rules.columns - 1)
    case .goTo:
      if net.game != nil { net.goTo = GoToField() }
    case .place:
      return placeNetwork(net.cursor, &net)
    case .placeNumber(let number):
      guard let rules = net.game?.rules, let position = Position(cellNumber: number, rules: rules) else { return [] }
      net.cursor = position
      return placeNetwork(position, &net)
    case .click(let row, let column):
      state.net = net
      guard let position = NetGameView.boardLayout(for: state)?.position(atRow: row, column: column) else { return [] }
      net.cursor = position
      return placeNetwork(position, &net)
    case .back:
      // Leaving a game in progress loses it: asked first, so that one Esc too many (after chat) ends nothing.
      if net.gameInProgress && net.dropped == nil {
        net.confirming = .leave
        return []
      }
      return [.netLeave]
    default:
      break
    }
    return []
  }

  /// A key at the trust question. Only a lone `y` or `n` answers; anything else printable (or pasted) goes into
  /// the fingerprint field, and Enter there accepts only the exact key shown.
  func trustAnswer(_ key: Key, _ question: inout NetGameState.TrustPrompt) -> [Effect] {
    guard var field = question.entryField else {
      switch key {
      case .character("y"), .character("Y"): return [.netAnswer(true)]
      case .character("n"), .character("N"), .escape: return [.netAnswer(false)]
      case .character(let c) where !c.isWhitespace && !c.isNewline:
        question.entry = String(c)
        question.problem = nil
      case .paste(let text):
        question.entry = text
        question.problem = nil
      default: break
      }
      return []
    }
    switch key {
    case .escape:
      question.entryField = nil
    case .enter:
      if question.matches(field.text) { return [.netAnswer(true)] }
      question.entryField = nil
      question.problem = "That does not match the key shown: nothing was accepted or stored."
    default:
      field.handle(key)
      question.entryField = field
    }
    return []
  }

  /// A cell chosen in a networked game: asked of the match, whose session alone judges it (the game over, the
  /// turn, the cell, the opening, the clock); a refusal comes back as the notice (`NetworkPresenter.refusal`).
  func placeNetwork(_ position: Position, _ net: inout NetGameState) -> [Effect] {
    guard net.game != nil else { return [] }
    return [.netPlay(position)]
  }

  /// A spectator's key: q or Esc leaves at once (there is no game of its own to lose), c opens the chat among
  /// spectators, PgUp and PgDn scroll it, ? is the help; nothing reaches the board.
  private mutating func watchingKey(_ key: Key, _ net: inout NetGameState) -> [Effect] {
    switch key {
    case .character("q"), .character("Q"), .escape: return [.netLeave]
    case .pageUp, .pageDown: scrollChat(key, &net)
    case .character("c"), .character("t"):
      var field = TextField(limit: NetGameState.chatLimit)
      field.breaksAsSpaces = true
      net.chatField = field
    case .character("?"), .function(1): state.helpVisible = true
    default: break
    }
    return []
  }

  /// PgUp and PgDn scroll the chat by this many messages.
  static let chatPage = 5
}
