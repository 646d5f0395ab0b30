import Transport
import WireProtocol

/// The round's sends: the records of the games that end in a round are signed in one batch (`sendHeld`), and
/// every connection's answers go out in a row before the loop waits (`WriteBatch`).
extension BotHost {
  /// Sends `reaction` on `link`, with its games' signatures: at once, or held for the round's batch when a game's
  /// record waits for it (and behind anything already held for the link, so the order stays the reactions').
  func send(_ link: BotLink, _ reaction: BotReaction, reported: BotGameReports.Reported) {
    guard reported.waiting.isEmpty && link.held == nil else {
      if link.held == nil { holding.links.append(link) }
      link.held =
        (link.held ?? []) + [.messages(reaction.messages + reported.signatures)]
        + reported.waiting.map(BotWirePart.signature) + [.messages(reaction.afterRecords)]
      return
    }
    send(reaction.wire(signatures: reported.signatures), on: link)
  }

  private func send(_ messages: [Message], on link: BotLink) {
    do {
      try link.connection.send(messages)
    } catch {
      log.write("send failed to \(link.connection.peerAddress): \(error)")
    }
  }

  /// Signs the records waiting for the batch with one signature and sends each held link what it was held, its
  /// games' signatures in their places.
  func sendHeld() {
    guard !holding.links.isEmpty else { return }
    let signatures = reports.signWaiting()
    let links = holding.links
    holding = BotHolding()
    for link in links {
      guard let parts = link.held else { continue }
      link.held = nil
      guard !link.connection.isClosed else { continue }
      let messages = parts.flatMap { part -> [Message] in
        switch part {
        case .messages(let messages): messages
        case .signature(let place): signatures[place].map { [$0] } ?? []
        }
      }
      send(messages, on: link)
      watch(link)
    }
  }

  /// At the end of a turn: signs the waiting records and sends what their links hold, unless the bot is busy (its
  /// last wait found at least `BotHolding.busyTurn` connections ready), fewer than `BotHolding.full` records wait
  /// and the first has waited less than `BotHolding.window`: then the turns that follow add theirs to the same
  /// batch, and one signature covers more games. A quiet bot's games never wait past their turn.
  func signWhenDue() {
    guard !holding.links.isEmpty else { return }
    let now = clock()
    let since = holding.since ?? now
    holding.since = since
    guard loop.lastReadyCount >= BotHolding.busyTurn, reports.waitingCount < BotHolding.full,
      now - since < BotHolding.window
    else { return sendHeld() }
    if !holding.wakeSet {
      holding.wakeSet = true
      // The loop wakes when the window is over, whatever else happens (the hook then signs).
      loop.schedule(at: since + BotHolding.window) {}
    }
  }

  /// Writes what the round's reactions queued, and watches for writing each connection whose socket did not
  /// take it all.
  func writeBatch() {
    for connection in writes.flush() {
      if let link = links[connection.fd], link.connection === connection { watch(link) }
    }
  }
}

/// The links whose sends wait for a batch of signatures, and since when.
struct BotHolding {
  /// A wait that found this many connections ready: the bot is busy, and its games may wait for a fuller batch.
  static let busyTurn = 8
  /// At most this long (seconds) from the first held game, or until this many records wait.
  static let window = 0.002
  static let full = 64
  var links: [BotLink] = []
  var since: Double?
  var wakeSet = false
}
