import EventLoop
import PeerTrust
import PlayerFiles
import Security

/// The known peers of a bot that lets new players in (`--accept-new`): held in memory (`shared`, which the
/// bot's TLS context judges with at each handshake), each new key appended
/// to the file off the event loop (those that come while a write is out go together, with one fsync), and the
/// file rewritten whole only now and then (after a torn last line, and every `compactEvery` new keys), so a
/// bot with 100,000 players pays for one line per new player, not for the whole file.
package final class BotKnownPeers {
  /// What the bot's TLS context judges joiners with.
  let shared: SharedKnownPeers
  var known: KnownPeers { shared.peers }
  private let file: KnownPeersFile
  private let loop: EventLoop
  private let log: Log
  private var queued: [(name: String, fingerprint: Fingerprint, added: CalendarDay)] = []
  private var writing = false
  /// Lines appended since the file was last written whole.
  private var appended = 0
  private var compactNext: Bool
  /// New keys appended between two rewrites of the whole file.
  static let compactEvery = 10_000

  /// Loads the file; a torn last line is dropped (logged, and the file rewritten before the next append).
  init(file: KnownPeersFile, loop: EventLoop, log: Log) throws(KnownPeersError) {
    self.file = file
    self.loop = loop
    self.log = log
    let loaded = try file.load()
    shared = SharedKnownPeers(loaded)
    compactNext = loaded.droppedTornLine != nil
    if let line = loaded.droppedTornLine {
      log.write("\(file.path):\(line): a line cut short (a write was interrupted) was dropped")
    }
  }

  /// Whether a write is still going out (the bot waits for it before it stops).
  var isWriting: Bool { writing || !queued.isEmpty }

  /// Remembers `name` → `fingerprint` (nothing to do when that pair is known): at once in memory, on disk
  /// soon after. Returns whether it was new.
  @discardableResult
  func remember(name: String, fingerprint: Fingerprint, today: CalendarDay = .today()) -> Bool {
    let added = shared.update { peers in
      guard !peers.contains(name: name, fingerprint: fingerprint) else { return false }
      peers.add(name: name, fingerprint: fingerprint, date: today)
      return true
    }
    guard added else { return false }
    queued.append((name, fingerprint, today))
    writeNext()
    return true
  }

  private func writeNext() {
    guard !writing, !queued.isEmpty else { return }
    writing = true
    let batch = queued
    queued = []
    let whole = compactNext || appended + batch.count >= BotKnownPeers.compactEvery ? known : nil
    let file = self.file
    let work: @Sendable () -> String? = {
      do {
        try file.locked {
          guard let whole else { return try file.append(batch) }
          // Rewritten from the file as it is now (another process's `peers forget` stays done), with this batch;
          // the bot's own copy only when the file does not load.
          var current = (try? file.load()) ?? whole
          for entry in batch { current.add(name: entry.name, fingerprint: entry.fingerprint, date: entry.added) }
          try file.save(current)
        }
        return nil
      } catch {
        return "\(error)"
      }
    }
    loop.perform(work) { [self] failure in
      writing = false
      if let failure {
        log.write("could not remember \(batch.count) new peers in \(file.path): \(failure)")
      } else if whole != nil {
        compactNext = false
        appended = 0
      } else {
        appended += batch.count
      }
      writeNext()
    }
  }
}
