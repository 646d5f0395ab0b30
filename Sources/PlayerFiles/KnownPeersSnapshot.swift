import Glibc
import PeerTrust
import Security
import Synchronization

/// The known peers last read from a file, kept while the file is unchanged on disk (same device, inode, size,
/// modification and change times), for the commands that take the whole file (`peers`, `doctor`, `games`, `list`
/// and the lobby's LAN list), so that asking again does not read it again. A host or joiner does not use it: each
/// decision looks up the lines it needs through the index (`KnownPeersIndexFile`, `Profile.knownPeersExcerpt`). The
/// bot keeps its own copy (`SharedKnownPeers`).
public enum KnownPeersSnapshot {
  /// What identifies one version of a file.
  public struct Stamp: Equatable, Sendable {
    public let device: UInt
    public let inode: UInt
    public let size: Int
    public let modified: Int64
    public let changed: Int64

    public init?(_ path: String) {
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
    public let path: String
    public let stamp: Stamp
    public let peers: KnownPeers
  }

  private static let kept = Mutex<Kept?>(nil)
  /// How many times each file was read whole, for the tests.
  private static let readsByPath = Mutex<[String: Int]>([:])

  public static func reads(of path: String) -> Int { readsByPath.withLock { $0[path] ?? 0 } }

  /// Which version of the file at `path` is there now (nil: none), for what was made from its peers.
  public static func stamp(of path: String) -> Stamp? { Stamp(path) }

  /// The peers in the file at `path`: the kept ones while the file is the one they were read from, else read.
  public static func load(_ path: String) throws(KnownPeersError) -> KnownPeers {
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

  private static func keep(_ peers: KnownPeers, path: String, stamp: Stamp) {
    kept.withLock { $0 = Kept(path: path, stamp: stamp, peers: peers) }
  }
}
