/// Changes to the player's files (known_peers, with fsync) made off the event loop, one at a time so two never
/// race on the same file, each answering with a line for the log on the loop. Without a worker (`run` nil) a
/// change is made at once.
public final class SerialWrites {
  /// Runs work on a worker thread and its completion on the loop (`EventLoop.perform`).
  public var run: ((@escaping @Sendable () -> String, @escaping (String) -> Void) -> Void)?
  private let log: Log
  private var waiting: [@Sendable () -> String] = []
  private var writing = false

  public init(log: Log) { self.log = log }

  /// Writes not finished yet: a front end that is ending waits for them, as for its goodbyes.
  public var pending: Int { waiting.count + (writing ? 1 : 0) }

  public func add(_ job: @escaping @Sendable () -> String) {
    guard run != nil else { return log.write(job()) }
    waiting.append(job)
    startNext()
  }

  private func startNext() {
    guard !writing, !waiting.isEmpty, let run else { return }
    writing = true
    run(waiting.removeFirst()) { [weak self] line in
      guard let self else { return }
      self.log.write(line)
      self.writing = false
      self.startNext()
    }
  }
}
