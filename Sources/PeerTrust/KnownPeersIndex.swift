/// The index of a known_peers file (`known_peers.index` beside it), so a decision about one peer reads a few
/// blocks and lines of the file instead of all of it: for every entry, a record for its key, one for its name
/// (folded, as lookalikes are compared) and one for each address, each record a 64-bit hash of what it answers
/// to and the line's byte offset and number, sorted by hash in blocks of 4 KiB, each block with its number and
/// a checksum. The header block names the version of known_peers the index was made from (device, inode, size,
/// modification and change times). Pure: the file is read and written by Security's `KnownPeersIndexFile`.
///
/// The index is never believed over known_peers: it is used only while known_peers is the version it names;
/// a block that fails its checksum or is out of order stops the search (the file is then read instead); and
/// every line it points to is read from known_peers and kept only when it says what was asked. A hash shared by
/// two names only costs a line read for nothing.
public enum KnownPeersIndex {
  public static let blockSize = 4096
  static let recordSize = 24
  /// A block: its checksum (8 bytes), the number of records (4), its own number (4), then the records.
  public static let recordsPerBlock = (blockSize - 16) / recordSize
  static let magic = Array("KPINDEX3".utf8)
  /// How many parts records are sorted in when the index is made (by the top bits of the hash), so that only
  /// one part is held in memory at a time.
  public static let partitions = 64

  /// One key of one line.
  public struct Record: Sendable, Equatable, Comparable {
    public var key: UInt64
    /// The byte offset of the line in known_peers.
    public var offset: UInt64
    /// The line's number (1-based).
    public var line: UInt64

    public init(key: UInt64, offset: UInt64, line: UInt64) {
      self.key = key
      self.offset = offset
      self.line = line
    }

    public static func < (left: Record, right: Record) -> Bool {
      (left.key, left.offset) < (right.key, right.offset)
    }

    /// The part this record is sorted in when the index is made.
    public var partition: Int { Int(key >> 58) }
  }

  /// Which version of known_peers an index was made from.
  public struct SourceStamp: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64
    public var changed: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
      self.device = device
      self.inode = inode
      self.size = size
      self.modified = modified
      self.changed = changed
    }
  }

  /// What the header block says.
  public struct Header: Sendable, Equatable {
    public var source: SourceStamp
    /// Entries (peer lines) in known_peers.
    public var entries: Int
    public var records: Int
    /// The last line, cut short and left out of the index, as `KnownPeers.droppedTornLine`.
    public var droppedTornLine: Int?
    /// Lines in known_peers (the next one appended is line `lines + 1`).
    public var lines: Int

    public init(source: SourceStamp, entries: Int, records: Int, droppedTornLine: Int?, lines: Int = 0) {
      self.source = source
      self.entries = entries
      self.records = records
      self.droppedTornLine = droppedTornLine
      self.lines = lines
    }

    /// Blocks of records after the header.
    public var blocks: Int { (records + KnownPeersIndex.recordsPerBlock - 1) / KnownPeersIndex.recordsPerBlock }
    /// The size of an index file with this header.
    public var fileSize: Int { (blocks + 1) * KnownPeersIndex.blockSize }
  }

  /// The hashes records are found by: what they answer to, with its kind, so a name and an address never share
  /// one by being spelled alike.
  public enum Key {
    /// A key's first eight bytes (of a SHA-256 digest), mixed (splitmix64's finalizer): keys made to share
    /// their first bits do not all land in one part when the index is made.
    public static func fingerprint(_ fingerprint: Fingerprint) -> UInt64 {
      var mixed = (fingerprint.leadingWord ^ 1) &+ 0x9E37_79B9_7F4A_7C15
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed >> 31)
    }
    /// `name` as `KnownPeers.folded` leaves it.
    public static func foldedName(_ name: String) -> UInt64 { hash(kind: 2, name.utf8) }
    public static func address(_ address: String) -> UInt64 { hash(kind: 3, address.utf8) }

    /// FNV-1a, 64 bits, of the kind and the bytes: the same in every process (Swift's own hash is seeded per
    /// process).
    static func hash<Bytes: Sequence<UInt8>>(kind: UInt8, _ bytes: Bytes) -> UInt64 {
      checksum(bytes, from: (offsetBasis ^ UInt64(kind)) &* prime)
    }
  }

  /// The keys a line is found by: its key, its folded name, each of its addresses.
  package static func keys(of line: KnownPeers.Line) -> [UInt64] {
    guard case .peer(let name, let fingerprint, _, let addresses) = line else { return [] }
    var keys = [Key.fingerprint(fingerprint), Key.foldedName(KnownPeers.folded(name))]
    for address in addresses {
      let key = Key.address(address)
      if !keys.contains(key) { keys.append(key) }
    }
    return keys
  }

  static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01b3

  /// FNV-1a over `bytes` (continuing from `hash`).
  static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes, from hash: UInt64 = offsetBasis) -> UInt64 {
    var hash = hash
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* prime
    }
    return hash
  }
}
