import Security
import UntrustedText

/// A match's changes to known_peers (a new peer remembered, an address bound to a key), made one at a time off
/// the loop (`SerialWrites`) and each said in the log once made.
final class KnownPeersWrites {
  private let profile: Profile
  /// The queue of writes; `MatchOnLoop` gives it a worker thread.
  let queue: SerialWrites

  init(profile: Profile, log: Log) {
    self.profile = profile
    queue = SerialWrites(log: log)
  }

  /// Writes not finished yet: a front end that is ending waits for them, as for its goodbyes.
  var pending: Int { queue.pending }

  func remember(name: String, key: Fingerprint, address: String?) {
    let profile = self.profile
    queue.add {
      do {
        try profile.remember(name: name, fingerprint: key, address: address)
        return "remembered new peer \(PeerText(name)) \(key)"
      } catch {
        return "could not remember \(PeerText(name)): \(error)"
      }
    }
  }

  func bind(_ key: Fingerprint, to address: String) {
    let profile = self.profile
    queue.add {
      do {
        try profile.bind(key, to: address)
        return "remembered \(address) for \(key)"
      } catch {
        return "could not remember \(address) for \(key): \(error)"
      }
    }
  }
}
