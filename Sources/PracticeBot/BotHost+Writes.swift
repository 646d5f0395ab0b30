import Transport

/// The round's sends: every connection's answers go out in a row before the loop waits (`WriteBatch`).
extension BotHost {
  /// Writes what the round's reactions queued, and watches for writing each connection whose socket did not
  /// take it all.
  func writeBatch() {
    for connection in writes.flush() {
      if let link = links[connection.fd], link.connection === connection { watch(link) }
    }
  }
}
