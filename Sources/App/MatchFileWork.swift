import EventLoop
import GameRecords
import PeerTrust

/// A networked match's file work, done for its coordinator off the event loop (the coordinator touches no file):
/// its game records written one at a time, each to the file its number names (`MatchCommand.keepRecord`: a record
/// signed by both sides replaces the file of the one first written), and the record against an opponent looked up
/// in the saved games (`MatchCommand.lookUpRecord`). Without a worker (`worker` nil) work is done at once.
final class MatchFileWork {
  /// Runs work on a worker thread and its completion on the loop; `MatchOnLoop` gives it the loop.
  var worker: EventLoop?
  /// Events of work finished later (the record against an opponent), for the front end; `MatchOnLoop` sets it.
  var report: ([MatchEvent]) -> Void = { _ in }
  private let profile: Profile
  private let log: Log
  /// The archive records go to (nil: not recorded).
  var archive: GameArchive?
  /// This match's record files, by the numbers the coordinator gave them.
  private var paths: [Int: String] = [:]
  private var waiting: [(record: GameRecord, file: Int)] = []
  private var writing = false
  /// Look-ups of the record against an opponent still running (they read records and hash keys with OpenSSL:
  /// the program must not exit under them).
  private var lookingUp = 0

  init(profile: Profile, log: Log) {
    self.profile = profile
    self.log = log
  }

  /// Record writes and look-ups not finished yet: a front end that is ending waits for them, as for its
  /// goodbyes (a worker still hashing with OpenSSL while the process exits crashed it).
  var pending: Int { waiting.count + (writing ? 1 : 0) + lookingUp }

  /// Writes `record` to this match's record file `file`, after the writes before it.
  func keep(_ record: GameRecord, file: Int) {
    waiting.append((record, file))
    writeNext()
  }

  private func writeNext() {
    guard !writing, !waiting.isEmpty else { return }
    let (record, file) = waiting.removeFirst()
    guard let archive, let path = archive.destination(replacing: paths[file]) else { return writeNext() }
    let (sgf, directory, cap, log) = (record.sgf, archive.directory, archive.cap, self.log)
    let write: @Sendable () -> Result<String, any Error> = {
      GameArchive.write(sgf, to: path, directory: directory, cap: cap, log: log)
    }
    let done: (Result<String, any Error>) -> Void = { [weak self] result in
      archive.written(result, to: path)
      guard let self else { return }
      if case .success = result { self.paths[file] = path }
      self.writing = false
      self.writeNext()
    }
    writing = true
    if let worker { worker.perform(write, then: done) } else { done(write()) }
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
