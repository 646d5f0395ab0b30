import Transport
import WireProtocol

/// The round's sends: the records of the games that end in a round are signed in one batch (`sendHeld`), and
/// every connection's answers go out in a row before the loop waits (`WriteBatch`).
extension BotHost {
  /// Sends `reaction` on `link`, with its games' signatures: at once, or held for the round's batch when a game's
  /// record waits for it (and behind anything already held for the link, so the order stays the reactions').
  func send(_ link: BotLink, _ reaction: BotReaction, reported: BotGameReports.Reported) {
    guard reported.waiting.isEmpty && link.held == nil else {
      if link.held == nil { holding.append(link) }
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
    guard !holding.isEmpty else { return }
    let signatures = reports.signWaiting()
    let links = holding
    holding.removeAll(keepingCapacity: true)
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

  /// Writes what the round's reactions queued, and watches for writing each connection whose socket did not
  /// take it all.
  func writeBatch() {
    for connection in writes.flush() {
      if let link = links[connection.fd], link.connection === connection { watch(link) }
    }
  }
}
