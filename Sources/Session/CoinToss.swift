import GameCore

/// The coin toss that decides who plays X in a match's first game, from one side: the host commits to a secret
/// (sends its digest), the joiner answers with its share, the host reveals the secret and the joiner checks it
/// against the commitment. The lowest bits of the secret's and the share's first bytes decide together, so
/// neither side chooses alone. A host may instead keep the first player of a game the joiner left (`coin
/// kept`). Pure: the session checks which message may come when.
struct CoinToss: Sendable {
  /// 32 fresh random bytes: the host's secret or the joiner's share.
  private let bytes: [UInt8]
  private let sha256: @Sendable ([UInt8]) -> [UInt8]
  /// Joiner: the host's commitment (the digest of its secret), once it arrived.
  private(set) var commitment: [UInt8]?
  /// Whether the host plays X in the first game.
  private(set) var hostFirst = true
  /// The first player came from the game the joiner left (`coin kept`), not from a toss.
  private(set) var wasKept = false

  init(bytes: [UInt8], sha256: @escaping @Sendable ([UInt8]) -> [UInt8]) {
    self.bytes = bytes
    self.sha256 = sha256
  }

  /// Host: what it commits to first, the digest of its secret.
  var digest: [UInt8] { sha256(bytes) }

  /// Joiner: the host committed to `digest`. The share to answer with.
  mutating func committed(to digest: [UInt8]) -> [UInt8] {
    commitment = digest
    return bytes
  }

  /// Host: the joiner's share arrived and decides the toss. The secret to reveal.
  mutating func shared(_ share: [UInt8]) -> [UInt8] {
    hostFirst = Self.hostFirst(bytes, share)
    return bytes
  }

  /// Joiner: the host revealed `secret`. False when it is not what the host committed to (nothing is decided
  /// then).
  mutating func revealed(_ secret: [UInt8]) -> Bool {
    guard sha256(secret) == commitment else { return false }
    hostFirst = Self.hostFirst(secret, bytes)
    return true
  }

  /// Keeps the first player of the game the joiner left instead of tossing (the host decides it, the joiner is
  /// told).
  mutating func keep(hostPlaysX: Bool) {
    hostFirst = hostPlaysX
    wasKept = true
  }

  /// The mark `role` plays in the first game.
  func firstMark(of role: Role) -> Mark { (role == .host) == hostFirst ? .x : .o }

  /// Whether the host plays X: the lowest bits of the two first bytes are equal.
  private static func hostFirst(_ secret: [UInt8], _ share: [UInt8]) -> Bool {
    ((secret.first ?? 0) ^ (share.first ?? 0)) & 1 == 0
  }
}
