import PeerTrust
import Security
import UntrustedText

/// A match's changes to known_peers (a new peer remembered, an address bound to a key), made one at a time off
/// the loop (`SerialWrites`) and each said in the log once made.
public final class KnownPeersWrites {
  private let profile: Profile
  /// The queue of writes; `MatchOnLoop` gives it a worker thread.
  public let queue: SerialWrites

  public init(profile: Profile, log: Log) {
    self.profile = profile
    queue = SerialWrites(log: log)
  }

  /// Writes not finished yet: a front end that is ending waits for them, as for its goodbyes.
  public var pending: Int { queue.pending }

  public func remember(name: String, key: Fingerprint, address: String?) {
    write(done: "remembered new peer \(PeerText(name)) \(key)", failed: "could not remember \(PeerText(name))") {
      try $0.remember(name: name, fingerprint: key, address: address)
    }
  }

  public func bind(_ key: Fingerprint, to address: String) {
    write(done: "remembered \(address) for \(key)", failed: "could not remember \(address) for \(key)") {
      try $0.bind(key, to: address)
    }
  }

  /// Queues `change`; the log says `done`, or `failed` and why.
  private func write(done: String, failed: String, _ change: @escaping @Sendable (Profile) throws -> Void) {
    let profile = self.profile
    queue.add {
      do {
        try change(profile)
        return done
      } catch {
        return "\(failed): \(error)"
      }
    }
  }
}
