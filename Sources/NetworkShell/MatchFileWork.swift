import EventLoop
import GameRecords
import MatchCoordination
import PeerTrust
import PlayerFiles
import Session

/// A networked match's file work, done for its coordinator off the event loop (the coordinator touches no file):
/// its game records written one at a time, each to the file its number names (`MatchCommand.keepRecord`: a record
/// signed by both sides replaces the file of the one first written), the journal of the game in progress kept and
/// removed (`MatchCommand.keepJournal`, `.endJournal`: in the same order as the records, so a game's journal goes
/// only after its record was written), and the record against an opponent looked up in the saved games
/// (`MatchCommand.lookUpRecord`). Without a worker (`worker` nil) work is done at once.
package final class MatchFileWork {
  /// Runs work on a worker thread and its completion on the loop; `MatchOnLoop` gives it the loop.
  var worker: EventLoop?
  /// Events of work finished later (the record against an opponent), for the front end; `MatchOnLoop` sets it.
  var report: ([MatchEvent]) -> Void = { _ in }
  private let profile: Profile
  private let log: Log
  /// The archive records go to (nil: not recorded).
  var archive: GameArchive?
  /// Where the journals of games in progress are kept (PROTOCOL.md rule 19).
  let journals: JournalDirectory
  /// This match's record files, by the numbers the coordinator gave them.
  private var paths: [Int: String] = [:]
  private var waiting: [Write] = []
  private var writing = false
  /// Look-ups of the record against an opponent still running (they read records and hash keys with OpenSSL:
  /// the program must not exit under them).
  private var lookingUp = 0

  /// One piece of file work, done in the order asked.
  private enum Write {
    case record(GameRecord, file: Int)
    case journal(GameJournal, peer: Fingerprint)
    case endJournal(peer: Fingerprint)
  }

  init(profile: Profile, log: Log) {
    self.profile = profile
    self.log = log
    journals = JournalDirectory(paths: profile.paths)
  }

  /// Record writes, journal work and look-ups not finished yet: a front end that is ending waits for them, as for
  /// its goodbyes (a worker still hashing with OpenSSL while the process exits crashed it).
  var pending: Int { waiting.count + (writing ? 1 : 0) + lookingUp }

  /// Writes `record` to this match's record file `file`, after the writes before it.
  func keep(_ record: GameRecord, file: Int) {
    waiting.append(.record(record, file: file))
    writeNext()
  }

  /// Writes the journal against `peer`, after the writes before it; one still waiting for the same peer is
  /// replaced (only the latest counts).
  func keepJournal(_ journal: GameJournal, peer: Fingerprint) {
    if case .journal(_, peer)? = waiting.last {
      waiting[waiting.count - 1] = .journal(journal, peer: peer)
    } else {
      waiting.append(.journal(journal, peer: peer))
    }
    writeNext()
  }

  /// Removes the journal against `peer`, after the writes before it (the game's record among them).
  func endJournal(peer: Fingerprint) {
    if case .journal(_, peer)? = waiting.last { waiting.removeLast() }
    waiting.append(.endJournal(peer: peer))
    writeNext()
  }

  private func writeNext() {
    guard !writing, !waiting.isEmpty else { return }
    switch waiting.removeFirst() {
    case .record(let record, let file): writeRecord(record, file: file)
    case .journal(let journal, let peer):
      let journals = self.journals
      run({ journals.keep(journal, peer: peer) }, then: journalFailed("not kept"))
    case .endJournal(let peer):
      let journals = self.journals
      run({ journals.remove(peer: peer) }, then: journalFailed("not removed"))
    }
  }

  /// Logs a journal's write or removal that failed (the game goes on).
  private func journalFailed(_ what: String) -> (FileError?) -> Void {
    { [log] error in if let error { log.write("game journal \(what): \(error)") } }
  }

  private func writeRecord(_ record: GameRecord, file: Int) {
    guard let archive, let path = archive.destination(replacing: paths[file]) else { return writeNext() }
    let (sgf, directory, cap, log) = (record.sgf, archive.directory, archive.cap, self.log)
    let write: @Sendable () -> Result<String, any Error> = {
      GameArchive.write(sgf, to: path, directory: directory, cap: cap, log: log)
    }
    run(write) { [weak self] result in
      archive.written(result, to: path)
      if case .success = result { self?.paths[file] = path }
    }
  }

  /// Runs `work` (on the worker, when there is one), then `done` and the next write.
  private func run<T: Sendable>(_ work: @escaping @Sendable () -> T, then done: @escaping (T) -> Void) {
    writing = true
    let finish: (T) -> Void = { [weak self] result in
      done(result)
      guard let self else { return }
      self.writing = false
      self.writeNext()
    }
    if let worker { worker.perform(work, then: finish) } else { finish(work()) }
  }

  /// Looks up the record against the opponent `key`, called `name`; the events to show now (without a worker),
  /// or none, with `report` called once the saved games were read.
  func lookUpRecord(against key: Fingerprint, name: String) -> [MatchEvent] {
    let profile = self.profile
    let lookUp: @Sendable () -> String? = { OpponentRecords.load(profile).greeting(key, name: name) }
    guard let worker else { return lookUp().map { [.opponentRecord($0)] } ?? [] }
    lookingUp += 1
    worker.perform(lookUp) { [weak self] line in
      self?.lookingUp -= 1
      if let line { self?.report([.opponentRecord(line)]) }
    }
    return []
  }
}
