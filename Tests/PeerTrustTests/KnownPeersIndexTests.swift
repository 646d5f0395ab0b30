import Testing

@testable import PeerTrust

/// The pure parts of known_peers' index: an excerpt answers a decision's questions as the whole file does, the
/// scanner's offsets are where the lines are, and the blocks refuse damage instead of answering.
@Suite struct KnownPeersIndexTests {
  static func key(_ byte: UInt8) -> Fingerprint { Fingerprint(bytes: [UInt8](repeating: byte, count: 32))! }
  static let day = CalendarDay(year: 2026, month: 11, day: 29)!
  /// Names that fold alike ("Alice", "a lice", "alice\u{200B}") beside ones that do not.
  static let names = ["alice", "Alice", "a lice", "alice\u{200B}", "bob", "carol", "Bob", "dave"]
  static let addresses = ["alice.example:7177", "[::1]:7392", "bob.example:7177", "10.0.0.1:7177"]

  /// A replayable file of `count` entries: a few keys, names and addresses drawn again and again, with comments.
  static func file(seed: UInt64, count: Int) -> KnownPeers {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var peers = KnownPeers()
    for _ in 0..<count {
      if next(7) == 0 { peers.append(.text("# a comment")) }
      peers.add(name: names[next(names.count)], fingerprint: key(UInt8(1 + next(9))), date: day)
      if next(3) == 0 { peers.bind(key(UInt8(1 + next(9))), to: addresses[next(addresses.count)]) }
    }
    return peers
  }

  @Test func anExcerptAnswersEveryQuestionOfItsQueryAsTheWholeFile() {
    for seed in UInt64(1)...40 {
      let whole = Self.file(seed: seed, count: 30)
      for keyByte in UInt8(1)...10 {
        for name in Self.names {
          for address in Self.addresses + [nil] {
            let key = Self.key(keyByte)
            let part = whole.excerpt(for: KnownPeersQuery(key: key, names: [name], address: address))
            #expect(part.isExcerpt)
            #expect(part.lookup(fingerprint: key) == whole.lookup(fingerprint: key))
            #expect(part.entries(named: name) == whole.entries(named: name))
            #expect(part.lookalikes(of: name) == whole.lookalikes(of: name))
            #expect(part.contains(name: name, fingerprint: key) == whole.contains(name: name, fingerprint: key))
            if let address { #expect(part.lookup(address: address) == whole.lookup(address: address)) }
          }
        }
      }
    }
  }

  @Test func aDecisionOnTheLookedUpLinesIsTheDecisionOnTheWholeFile() {
    for seed in UInt64(1)...20 {
      let whole = Self.file(seed: seed, count: 25)
      let lookup = KnownPeersLookup { query in whole.excerpt(for: query) }
      for keyByte in UInt8(1)...10 {
        for name in Self.names {
          for address in Self.addresses + [nil] {
            let certificate = PeerCertificate(
              fingerprint: Self.key(keyByte), commonName: name, dnsNames: [], notBefore: 0, notAfter: 10,
              issuerCommonName: name, isSelfSigned: true, chainDER: [], publicKeyBase64: nil)
            let policy = TrustPolicy.trustOnFirstUse(known: whole, file: "kp", acceptNew: false)
            var looked = TrustOptions(policy: .trustOnFirstUse(known: KnownPeers(), file: "kp", acceptNew: false))
            looked.boundAddress = address
            looked.knownPeersLookup = lookup
            let direct = TrustEvaluator(
              options: TrustOptions(policy: policy, boundAddress: address), verifier: nil)
            let viaLookup = TrustEvaluator(options: looked, verifier: nil)
            #expect(
              viaLookup.evaluate(peer: certificate, peerName: name, now: 5)
                == direct.evaluate(peer: certificate, peerName: name, now: 5))
            #expect(
              viaLookup.evaluateSelfNamed(peer: certificate, now: 5, judgingJoiner: true)
                == direct.evaluateSelfNamed(peer: certificate, now: 5, judgingJoiner: true))
          }
        }
      }
    }
  }

  @Test func aLookupThatFailsRejectsThePeer() {
    var options = TrustOptions(policy: .trustOnFirstUse(known: KnownPeers(), file: "kp", acceptNew: true))
    options.knownPeersLookup = KnownPeersLookup { _ throws(KnownPeersError) in
      throw .unreadable(path: "kp", reason: "gone")
    }
    let certificate = PeerCertificate(
      fingerprint: Self.key(1), commonName: "bob", dnsNames: [], notBefore: 0, notAfter: 10,
      issuerCommonName: "bob", isSelfSigned: true, chainDER: [], publicKeyBase64: nil)
    guard
      case .rejected(.knownPeersUnusable) = TrustEvaluator(options: options, verifier: nil)
        .evaluate(peer: certificate, peerName: "bob", now: 5)
    else {
      Issue.record("a peer judged by known peers that cannot be read was not refused")
      return
    }
  }

  @Test func theScannerGivesEachLineItsNumberAndOffsetWhereverThePiecesEnd() throws {
    let text = "# known\nbob \(Self.key(2)) 2026-11-29\r\n\nalice \(Self.key(1)) 2026-11-29 at=a.example:1\ncut"
    let bytes = Array(text.utf8)
    let starts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
    for size in 1...bytes.count {
      var scanner = KnownPeersScanner(path: "kp")
      var places: [KnownPeersScanner.Place] = []
      var position = 0
      while position < bytes.count {
        try scanner.feed(bytes[position..<min(position + size, bytes.count)]) { _, place in places.append(place) }
        position += size
      }
      try scanner.finish { _, place in places.append(place) }
      #expect(places.map(\.line) == [1, 2, 3, 4], "pieces of \(size)")
      #expect(places.map(\.offset) == Array(starts.prefix(4)), "pieces of \(size)")
      #expect(scanner.droppedTornLine == 5)
    }
  }

  static func records(_ keys: [UInt64]) -> [KnownPeersIndex.Record] {
    keys.enumerated().map { KnownPeersIndex.Record(key: $1, offset: UInt64($0 * 10), line: UInt64($0 + 1)) }.sorted()
  }

  /// `records` as blocks, read back by number (`damage` changes one block's bytes first).
  static func blocks(_ records: [KnownPeersIndex.Record], damage: (Int, inout [UInt8]) -> Void = { _, _ in })
    -> [Int: [UInt8]]
  {
    var blocks: [Int: [UInt8]] = [:]
    var number = 1
    var start = 0
    while start < records.count {
      let end = min(start + KnownPeersIndex.recordsPerBlock, records.count)
      var bytes = KnownPeersIndex.encodeBlock(records[start..<end], number: number)
      damage(number, &bytes)
      blocks[number] = bytes
      number += 1
      start = end
    }
    return blocks
  }

  @Test func theSearchFindsEveryRecordOfAKeyAcrossBlocks() throws {
    // 500 records of key 42 span four blocks among others below and above it.
    let keys =
      (0..<300).map { UInt64($0) } + Array(repeating: UInt64(42), count: 500) + (0..<300).map { 1000 + UInt64($0) }
    let records = Self.records(keys)
    let blocks = Self.blocks(records)
    let read = { (number: Int) in blocks[number].flatMap { KnownPeersIndex.decodeBlock($0, number: number) } }
    for key in [UInt64(0), 41, 42, 43, 500, 1000, 1299, 5000] {
      let found = try #require(KnownPeersIndex.search(key, blocks: blocks.count, read: read))
      #expect(found == records.filter { $0.key == key }, "key \(key)")
    }
    #expect(KnownPeersIndex.search(1, blocks: 0, read: read) == [])
  }

  @Test func aDamagedOrMisplacedBlockIsRefusedNotAnswered() {
    let records = Self.records((0..<1000).map { UInt64($0) * 3 })
    let good = Self.blocks(records)
    // Any one byte changed anywhere in a block fails its checksum.
    for offset in stride(from: 0, to: KnownPeersIndex.blockSize, by: 97) {
      var bytes = good[2]!
      bytes[offset] ^= 0x20
      #expect(KnownPeersIndex.decodeBlock(bytes, number: 2) == nil, "byte \(offset)")
    }
    // A whole block in another's place.
    #expect(KnownPeersIndex.decodeBlock(good[3]!, number: 2) == nil)
    #expect(KnownPeersIndex.decodeBlock(Array(good[2]!.dropLast()), number: 2) == nil)
    // The search stops at a damaged block instead of saying the key is not there.
    let damaged = Self.blocks(records) { number, bytes in if number == 3 { bytes[100] ^= 1 } }
    let key = records[KnownPeersIndex.recordsPerBlock * 2 + 5].key
    let found = KnownPeersIndex.search(key, blocks: damaged.count) { number in
      damaged[number].flatMap { KnownPeersIndex.decodeBlock($0, number: number) }
    }
    #expect(found == nil)
    // Two whole blocks swapped in the file: each is refused where it lies, and the search with it.
    let reordered = KnownPeersIndex.search(records[0].key, blocks: 2) { number in
      KnownPeersIndex.decodeBlock(good[3 - number]!, number: number)
    }
    #expect(reordered == nil)
  }

  @Test func theHeaderSaysWhichFileItWasMadeFromAndRefusesDamage() throws {
    let source = KnownPeersIndex.SourceStamp(device: 3, inode: 99, size: 151_000_000, modified: -5, changed: 1 << 60)
    let header = KnownPeersIndex.Header(source: source, entries: 7, records: 400, droppedTornLine: 12, lines: 12)
    var bytes = KnownPeersIndex.encode(header)
    #expect(KnownPeersIndex.decodeHeader(bytes) == header)
    #expect(header.blocks == 3 && header.fileSize == 4 * KnownPeersIndex.blockSize)
    bytes[20] ^= 1
    #expect(KnownPeersIndex.decodeHeader(bytes) == nil)
    #expect(KnownPeersIndex.decodeHeader(KnownPeersIndex.encodeBlock(Self.records([1])[...], number: 0)) == nil)
  }

  @Test func printableASCIIIsFoldedAsEveryOtherTextIs() {
    var state: UInt64 = 7
    for length in 0..<400 {
      let bytes = (0..<(length % 23)).map { _ -> UInt8 in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(0x20 + (state >> 33) % 0x60)  // 0x20 ... 0x7F: a space and DEL among them
      }
      let name = String(decoding: bytes, as: UTF8.self)
      #expect(KnownPeers.folded(name) == KnownPeers.foldedByScalars(name), "\(bytes)")
    }
    #expect(KnownPeers.folded("Alice") == "alice" && KnownPeers.folded("A lice\u{200B}") == "alice")
  }

  @Test func eachEntryIsFoundByItsKeyItsFoldedNameAndEachAddress() {
    let line = KnownPeers.Line.peer(
      name: "A lice", fingerprint: Self.key(1), added: Self.day, addresses: ["a.example:1", "[::1]:2"])
    let keys = KnownPeersIndex.keys(of: line)
    #expect(keys.contains(KnownPeersIndex.Key.fingerprint(Self.key(1))))
    #expect(keys.contains(KnownPeersIndex.Key.foldedName("alice")))
    #expect(keys.contains(KnownPeersIndex.Key.address("[::1]:2")))
    #expect(keys.count == 4)
    #expect(KnownPeersIndex.Key.foldedName("a.example:1") != KnownPeersIndex.Key.address("a.example:1"))
    #expect(KnownPeersIndex.keys(of: .text("# a comment")).isEmpty)
    let query = KnownPeersQuery(key: Self.key(9), names: ["ALICE"], address: nil)
    #expect(query.matches(line) && Set(query.indexKeys).intersection(keys).count == 1)
  }
}
