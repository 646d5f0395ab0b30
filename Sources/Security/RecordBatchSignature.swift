import COpenSSL

/// A signature that covers several records at once: a practice bot whose games end together signs the root of
/// a Merkle tree over their signed bytes once, and each game's signature is the root's signature with the path
/// from that game's leaf to the root (docs/RECORDS.md, "Batch signatures"; the idea of
/// draft-ietf-tls-batch-signing, for records). One ECDSA signature costs about 20 µs; a hash, well under one.
///
/// The bytes of one game's batch signature: the form (0x01; a DER signature, the plain form, starts with 0x30),
/// the tree's depth D (1…`maximumDepth`), the leaf's index (u16, big-endian, below 2^D), the leaf's salt (16
/// random bytes), D sibling hashes from the leaf up (32 bytes each), then the DER signature over `signedRoot`.
/// The salt keeps a sibling's hash, which every other game of the batch is sent, from confirming a guess of that
/// game's record.
public enum RecordBatchSignature {
  /// The first byte of a batch signature.
  public static let form: UInt8 = 0x01
  /// At most 2^10 = 1,024 records a batch: a signature of at most 1 + 1 + 2 + 16 + 320 + 72 bytes, within the
  /// record signature message's 1,024.
  public static let maximumDepth = 10
  public static var maximumCount: Int { 1 << maximumDepth }
  static let saltBytes = 16
  /// What a batch adds to a plain signature at most: the form, the depth, the index, the salt and the deepest path.
  public static let maximumOverhead = 1 + 1 + 2 + saltBytes + 32 * maximumDepth

  /// A leaf: SHA-256 of 0x00, the leaf's salt and a record's signed bytes.
  static func leaf(_ signedBytes: [UInt8], salt: [UInt8]) -> [UInt8] { Digest.sha256([0x00] + salt + signedBytes) }
  /// A node: SHA-256 of 0x01, the left child and the right child.
  static func node(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] { Digest.sha256([0x01] + left + right) }
  /// A place in the tree no record fills (the tree is filled out to a power of two): SHA-256 of 0x02.
  static let filler = Digest.sha256([0x02])

  /// What the identity signs for a batch: lines of ASCII, as the records' signed bytes are, whose own first line
  /// keeps the root's signature from passing for a record's (or anything else's).
  static func signedRoot(_ root: [UInt8]) -> [UInt8] {
    let digits = Array("0123456789abcdef".utf8)
    var text = Array("tictactoe game record batch signature v1\nroot ".utf8)
    for byte in root { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
    return text + [0x0A]
  }

  /// The hash of a subtree of each height that holds no record: the filler, then a node of two such. A tree is
  /// worked out over its records only, these standing in for the rest (a batch of 33 in a tree of 64 hashes
  /// 33 leaves and 33 nodes, not 64 and 63).
  static let emptySubtrees: [[UInt8]] = {
    var hashes = [filler]
    for _ in 0..<maximumDepth { hashes.append(node(hashes[hashes.count - 1], hashes[hashes.count - 1])) }
    return hashes
  }()

  /// The tree over `leaves` (filled out to 2^depth): its levels from the leaves up, the root last, each holding
  /// the nodes with a record below them (`sibling` gives the others).
  static func levels(_ leaves: [[UInt8]], depth: Int) -> [[[UInt8]]] {
    var level = leaves
    var levels = [level]
    for height in 0..<depth {
      level = stride(from: 0, to: level.count, by: 2).map {
        node(level[$0], $0 + 1 < level.count ? level[$0 + 1] : emptySubtrees[height])
      }
      levels.append(level)
    }
    return levels
  }

  /// The node beside `position` at `height`.
  static func sibling(_ levels: [[[UInt8]]], height: Int, of position: Int) -> [UInt8] {
    let level = levels[height]
    return position ^ 1 < level.count ? level[position ^ 1] : emptySubtrees[height]
  }

  /// The depth of a tree with room for `count` leaves (at least 1).
  static func depth(for count: Int) -> Int {
    var depth = 1
    while (1 << depth) < count { depth += 1 }
    return depth
  }

  /// The signature of leaf `index`: the form, the depth, the index, its path and the root's signature.
  static func encode(index: Int, salt: [UInt8], levels: [[[UInt8]]], rootSignature: [UInt8]) -> [UInt8] {
    let depth = levels.count - 1
    var bytes: [UInt8] = [form, UInt8(depth), UInt8(index >> 8), UInt8(index & 0xFF)] + salt
    var position = index
    for height in 0..<depth {
      bytes += sibling(levels, height: height, of: position)
      position >>= 1
    }
    return bytes + rootSignature
  }

  /// For a batch signature: the bytes its DER signature is over (the root the path leads to from
  /// `signedBytes`' leaf) and that DER signature; nil for bytes that are not a well-formed batch signature.
  public static func opened(_ signature: [UInt8], signedBytes: [UInt8]) -> (signedRoot: [UInt8], der: [UInt8])? {
    guard signature.count > 4, signature[0] == form else { return nil }
    let depth = Int(signature[1])
    let index = Int(signature[2]) << 8 | Int(signature[3])
    let pathStart = 4 + saltBytes
    let pathEnd = pathStart + 32 * depth
    guard (1...maximumDepth).contains(depth), index < 1 << depth, signature.count > pathEnd else { return nil }
    var hash = leaf(signedBytes, salt: Array(signature[4..<pathStart]))
    var position = index
    for step in 0..<depth {
      let sibling = Array(signature[(pathStart + 32 * step)..<(pathStart + 32 * (step + 1))])
      hash = position & 1 == 0 ? node(hash, sibling) : node(sibling, hash)
      position >>= 1
    }
    return (signedRoot(hash), Array(signature[pathEnd...]))
  }
}

extension Identity {
  /// The longest plain signature this identity's key makes (72 bytes for P-256's DER; an RSA key's size).
  public var maximumSignatureBytes: Int { Int(EVP_PKEY_get_size(key.pointer)) }

  /// This identity's signatures over each of `records` (signed bytes), in order, with one signing: a batch of
  /// one gets the plain signature (`sign(_:)`), more get batch signatures (`RecordBatchSignature`). At most
  /// `RecordBatchSignature.maximumCount` records.
  public func sign(batch records: [[UInt8]]) throws(SecurityError) -> [[UInt8]] {
    precondition(records.count <= RecordBatchSignature.maximumCount, "too many records for one batch")
    if records.count <= 1 { return try records.map { (bytes) throws(SecurityError) in try sign(bytes) } }
    let depth = RecordBatchSignature.depth(for: records.count)
    let salts = try SecureRandom.bytes(RecordBatchSignature.saltBytes * records.count, for: "batch salts")
    let salt = { (index: Int) in Array(salts[(index * 16)..<((index + 1) * 16)]) }
    let leaves = records.indices.map { RecordBatchSignature.leaf(records[$0], salt: salt($0)) }
    let levels = RecordBatchSignature.levels(leaves, depth: depth)
    let rootSignature = try sign(RecordBatchSignature.signedRoot(levels[depth][0]))
    return records.indices.map {
      RecordBatchSignature.encode(index: $0, salt: salt($0), levels: levels, rootSignature: rootSignature)
    }
  }
}
