import Glibc
import PeerTrust
import Security
import Synchronization

/// The known peers last read from a file, kept while the file is unchanged on disk (same device, inode, size,
/// modification and change times), so the steps of one connection (the trust check, the lookalike warning, the
/// name shown, what to remember) do not each read the whole file again: a known_peers of 150 MB takes seconds
/// to read, which on the event loop stalled a join past the peer's patience. A change made by this process is
/// put in as it is written (off the loop), so the next step does not read the file either. The bot keeps its
/// own copy (`SharedKnownPeers`) and does not use this one.
enum KnownPeersSnapshot {
  /// What identifies one version of a file.
  struct Stamp: Equatable, Sendable {
    let device: UInt
    let inode: UInt
    let size: Int
    let modified: Int64
    let changed: Int64

    init?(_ path: String) {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      device = UInt(info.st_dev)
      inode = UInt(info.st_ino)
      size = Int(info.st_size)
      modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
      changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
  }

  private struct Kept: Sendable {
    let path: String
    let stamp: Stamp
    let peers: KnownPeers
  }

  private static let kept = Mutex<Kept?>(nil)
  /// How many times each file was read whole, for the tests.
  private static let readsByPath = Mutex<[String: Int]>([:])

  static func reads(of path: String) -> Int { readsByPath.withLock { $0[path] ?? 0 } }

  /// Which version of the file at `path` is there now (nil: none), for what was made from its peers.
  static func stamp(of path: String) -> Stamp? { Stamp(path) }

  /// The peers in the file at `path`: the kept ones while the file is the one they were read from, else read.
  static func load(_ path: String) throws(KnownPeersError) -> KnownPeers {
    let before = Stamp(path)
    if let before, let peers = kept.withLock({ $0?.path == path && $0?.stamp == before ? $0?.peers : nil }) {
      return peers
    }
    readsByPath.withLock { $0[path, default: 0] += 1 }
    let peers = try KnownPeersFile(path: path).load()
    // Kept only when the file did not change while it was read.
    if let before, Stamp(path) == before { keep(peers, path: path, stamp: before) }
    return peers
  }

  /// After this process wrote `peers` to `path`: they are what the file now holds.
  static func wrote(_ peers: KnownPeers, to path: String) {
    guard let stamp = Stamp(path) else { return }
    keep(peers, path: path, stamp: stamp)
  }

  private static func keep(_ peers: KnownPeers, path: String, stamp: Stamp) {
    kept.withLock { $0 = Kept(path: path, stamp: stamp, peers: peers) }
  }
}
