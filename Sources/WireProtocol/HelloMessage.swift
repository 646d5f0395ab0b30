extension Message {
  /// `hello`'s fields (PROTOCOL.md, the message table): the versions, the name and software, a host's terms, a
  /// spectator's game (17) and the record signature forms a joiner checks (18).
  static func decodeHello(_ f: Fields) throws(WireError) -> Message {
    let versions = try f.u16s(1, "protocol versions")
    let name = try f.string(2, "player name", maximum: maximumNameBytes)
    guard !name.isEmpty else { throw .badValue("player name", reason: "it is empty") }
    try checkShownText(name, "player name", maximumCharacters: maximumNameCharacters)
    let software = try f.string(3, "software version", maximum: 64)
    try checkShownText(software, "software version", maximumCharacters: 64)
    let watch = f.has(watchTag) ? try f.u16(watchTag, "game to watch") : nil
    // Bit 0 clear says no: a later form may be told by another bit.
    let batch = f.has(batchSignaturesTag) ? try f.u8(batchSignaturesTag, "signature forms") & 1 == 1 : false
    return .hello(
      versions: versions, name: name, software: software, terms: try HostTerms(f), watch: watch,
      batchSignatures: batch)
  }

  /// Tag 17 of `hello`: the sender is a spectator (version 4).
  static let watchTag: UInt8 = 17
  /// Tag 18 of `hello`: the record signature forms the sender checks (u8, bit 0: the batch form).
  static let batchSignaturesTag: UInt8 = 18
}
