import UntrustedText

/// The players this player has met, like OpenSSH's known_hosts: one peer per line,
/// `NAME SHA256:FINGERPRINT YYYY-MM-DD [at=ADDRESS ...]`, with blank lines and `#` comments kept as they are.
/// The key is the peer; the name is the label the player knows it by; each `at=` is an address (as typed,
/// host and port) where this key was met as a host.
///
/// Names are written with percent-escapes so that one never contains a field separator:
/// `%` followed by two uppercase hex digits stands for a byte, and every space, control
/// character, `#` and `%` in a name is escaped (so "Ann Lee" is written `Ann%20Lee`).
/// A name may be listed more than once (one line per accepted key).
public struct KnownPeers: Sendable, Equatable {
  /// A line of the file: kept text (comment or blank) or a peer.
  package enum Line: Sendable, Equatable {
    case text(String)
    case peer(name: String, fingerprint: Fingerprint, added: CalendarDay, addresses: [String] = [])
  }

  /// Changed only through `append`, `reindex` after a change, or `bind` (which keeps the index itself).
  private(set) var lines: [Line]
  /// Where each key, name and address is (line indices, in file order), so a lookup among 100,000 peers does
  /// not go through every line: the trust decision looks up every joiner.
  private var index = Index()
  /// An excerpt's line numbers in the file, one for each of `lines` (nil: the lines are the whole file).
  private var lineNumbers: [Int]?

  /// The first line of each key and of each address (a bot's file has one line per key; a joiner's few lines
  /// are searched in order for the rest).
  private struct Index: Sendable {
    var byFingerprint: [Fingerprint: Int] = [:]
    var byAddress: [String: Int] = [:]

    mutating func insert(_ line: Line, at position: Int) {
      guard case .peer(_, let fingerprint, _, let addresses) = line else { return }
      if byFingerprint[fingerprint] == nil { byFingerprint[fingerprint] = position }
      for address in addresses where byAddress[address] == nil { byAddress[address] = position }
    }
  }

  /// The line of the last load that was cut short and dropped: the file did not end with a newline and its
  /// last line did not read as an entry, as when a program is killed while appending it. Nil when none was.
  public internal(set) var droppedTornLine: Int?

  /// No peers.
  public init() {
    lines = []
  }

  public static func == (left: KnownPeers, right: KnownPeers) -> Bool { left.lines == right.lines }

  package mutating func append(_ line: Line) {
    lines.append(line)
    if let numbers = lineNumbers { lineNumbers?.append((numbers.last ?? 0) + 1) }
    index.insert(line, at: lines.count - 1)
  }

  private mutating func reindex() {
    index = Index()
    for (position, line) in lines.enumerated() { index.insert(line, at: position) }
  }

  private func entry(at position: Int) -> KnownPeer? {
    guard case .peer(let name, let fingerprint, let added, let addresses) = lines[position] else { return nil }
    return KnownPeer(
      name: name, fingerprint: fingerprint, added: added, line: lineNumber(at: position), addresses: addresses)
  }

  /// The line's number in the file.
  func lineNumber(at position: Int) -> Int { lineNumbers?[position] ?? position + 1 }

  /// Some of a file's lines, each at its number in the file (`KnownPeersQuery.excerpt`): every question about
  /// the keys, names and address they were chosen by is answered as the whole file would answer it. Never
  /// written back in place of the file (`isExcerpt`).
  package init(excerpt: [(line: Line, number: Int)]) {
    lines = []
    lineNumbers = []
    for (line, number) in excerpt.sorted(by: { $0.number < $1.number }) {
      lines.append(line)
      lineNumbers?.append(number)
      index.insert(line, at: lines.count - 1)
    }
  }

  /// Whether these are only some of the file's lines (`init(excerpt:)`), which must never replace the file.
  public var isExcerpt: Bool { lineNumbers != nil }

  /// The entries whose line matches, in file order, without making the others.
  private func entries(where matches: (String, Fingerprint) -> Bool) -> [KnownPeer] {
    lines.indices.compactMap { position in
      guard case .peer(let name, let fingerprint, _, _) = lines[position], matches(name, fingerprint) else {
        return nil
      }
      return entry(at: position)
    }
  }

  /// Parses the file's text. `path` is only used in error messages.
  public static func parse(_ text: String, path: String) throws(KnownPeersError) -> KnownPeers {
    try parse(bytes: Array(text.utf8), path: path)
  }

  /// Parses the file's bytes. A last line without its newline that is not valid UTF-8 or not an entry was cut
  /// short by a writer that was killed: it is dropped (`droppedTornLine`); any other bad line is refused.
  public static func parse(bytes: [UInt8], path: String) throws(KnownPeersError) -> KnownPeers {
    var reader = KnownPeersReader(path: path)
    try reader.feed(bytes[...])
    return try reader.finish()
  }

  /// The text of the file, ending with a newline unless it is empty.
  public func render() -> String {
    var output = ""
    for line in lines { output += KnownPeers.render(line) }
    return output
  }

  /// One line of the file, with its newline.
  package static func render(_ line: Line) -> String {
    switch line {
    case .text(let text):
      return text + "\n"
    case .peer(let name, let fingerprint, let added, let addresses):
      var output = "\(KnownPeers.escape(name)) \(fingerprint) \(added)"
      for address in addresses { output += " at=\(KnownPeers.escape(address))" }
      return output + "\n"
    }
  }

  /// Every peer, in file order, with its line number.
  public var entries: [KnownPeer] {
    lines.indices.compactMap(entry(at:))
  }

  /// The first entry for `name`.
  public func lookup(name: String) -> KnownPeer? {
    entries { known, _ in known == name }.first
  }

  /// Every entry for `name`.
  public func entries(named name: String) -> [KnownPeer] {
    entries { known, _ in known == name }
  }

  /// How many peers there are.
  public var count: Int { lines.reduce(0) { if case .peer = $1 { $0 + 1 } else { $0 } } }

  /// The entries whose name looks like `name` to a person: the same after case folding and without
  /// whitespace and invisible, bidirectional or control characters ("Alice", "alice\u{200B}", "a lice").
  public func lookalikes(of name: String) -> [KnownPeer] {
    let folded = KnownPeers.folded(name)
    return entries.filter { KnownPeers.folded($0.name) == folded }
  }

  /// `name` as `lookalikes` compares it.
  package static func folded(_ name: String) -> String {
    // Printable ASCII has nothing to leave out: only its capitals change (the index folds every name it holds).
    let utf8 = name.utf8
    if utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) {
      let isCapital = { (byte: UInt8) in byte >= 0x41 && byte <= 0x5A }
      guard utf8.contains(where: isCapital) else { return name }
      return String(decoding: utf8.map { isCapital($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
    return foldedByScalars(name)
  }

  /// `folded` for any text, a scalar at a time.
  package static func foldedByScalars(_ name: String) -> String {
    var kept = String.UnicodeScalarView()
    for scalar in name.lowercased().unicodeScalars
    where !VisibleText.isUnsafe(scalar) && !scalar.properties.isWhitespace {
      kept.append(scalar)
    }
    return String(kept)
  }

  /// The first entry with `fingerprint`.
  public func lookup(fingerprint: Fingerprint) -> KnownPeer? {
    index.byFingerprint[fingerprint].flatMap(entry(at:))
  }

  /// Whether `name` → `fingerprint` is an entry.
  public func contains(name: String, fingerprint: Fingerprint) -> Bool {
    guard let first = index.byFingerprint[fingerprint] else { return false }
    if case .peer(name, _, _, _) = lines[first] { return true }
    return lines[first...].contains { if case .peer(name, fingerprint, _, _) = $0 { true } else { false } }
  }

  /// A copy with `name` → `fingerprint` appended (unchanged if that exact pair is known).
  public func adding(name: String, fingerprint: Fingerprint, date: CalendarDay) -> KnownPeers {
    var copy = self
    copy.add(name: name, fingerprint: fingerprint, date: date)
    return copy
  }

  /// Appends `name` → `fingerprint` unless that exact pair is already known; `address` (where it was met as
  /// a host) is added to the entry for the key.
  public mutating func add(name: String, fingerprint: Fingerprint, date: CalendarDay, address: String? = nil) {
    if !contains(name: name, fingerprint: fingerprint) {
      append(.peer(name: name, fingerprint: fingerprint, added: date))
    }
    if let address { bind(fingerprint, to: address) }
  }

  /// Records that the key `fingerprint` was met as a host at `address` (on its first entry). An address another
  /// key holds is never taken from it: only `peers forget` frees it.
  public mutating func bind(_ fingerprint: Fingerprint, to address: String) {
    if let holder = lookup(address: address), holder.fingerprint != fingerprint { return }
    guard let position = index.byFingerprint[fingerprint],
      case .peer(let name, _, let added, var addresses) = lines[position], !addresses.contains(address)
    else { return }
    addresses.append(address)
    lines[position] = .peer(name: name, fingerprint: fingerprint, added: added, addresses: addresses)
    if (index.byAddress[address] ?? Int.max) > position { index.byAddress[address] = position }
  }

  /// The entry whose key was met as a host at `address`.
  public func lookup(address: String) -> KnownPeer? {
    index.byAddress[address].flatMap(entry(at:))
  }

  /// A copy without the entries whose name is `nameOrFingerprint`, or whose fingerprint it
  /// is (in `SHA256:` form), and how many entries were removed.
  public func removing(nameOrFingerprint: String) -> (peers: KnownPeers, removed: Int) {
    var copy = self
    let removed = copy.remove(nameOrFingerprint: nameOrFingerprint)
    return (copy, removed)
  }

  /// Gives the entries matching `nameOrFingerprint` (by name, or by fingerprint in `SHA256:` form) the name
  /// `newName`, the name the player knows that key by; returns how many were renamed. The keys, dates and
  /// addresses stay as they are.
  @discardableResult
  public mutating func rename(nameOrFingerprint: String, to newName: String) -> Int {
    let fingerprint = Fingerprint(parsing: nameOrFingerprint)
    var renamed = 0
    for index in lines.indices {
      guard case .peer(let name, let known, let added, let addresses) = lines[index],
        name == nameOrFingerprint || known == fingerprint
      else { continue }
      lines[index] = .peer(name: newName, fingerprint: known, added: added, addresses: addresses)
      renamed += 1
    }
    if renamed > 0 { reindex() }
    return renamed
  }

  /// Removes the entries matching `nameOrFingerprint` by name or fingerprint; returns how many.
  @discardableResult
  public mutating func remove(nameOrFingerprint: String) -> Int {
    let fingerprint = Fingerprint(parsing: nameOrFingerprint)
    let before = lines.count
    let kept = lines.indices.filter { position in
      guard case .peer(let name, let known, _, _) = lines[position] else { return true }
      return name != nameOrFingerprint && known != fingerprint
    }
    guard kept.count != before else { return 0 }
    lines = kept.map { lines[$0] }
    lineNumbers = lineNumbers.map { numbers in kept.map { numbers[$0] } }
    reindex()
    return before - lines.count
  }

  // MARK: parsing and escaping

  /// A reason a line is refused.
  package struct LineError: Error {
    let reason: String
  }

  /// Parses one line (valid UTF-8, without its line end), working on its bytes: a big file is mostly these.
  package static func parseLine(_ line: ArraySlice<UInt8>, dates: inout [ArraySlice<UInt8>: CalendarDay])
    throws(LineError) -> Line
  {
    let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    guard let first = line.firstIndex(where: { !isSpace($0) }), let end = line.lastIndex(where: { !isSpace($0) }),
      line[first] != UInt8(ascii: "#")
    else { return .text(String(decoding: line, as: UTF8.self)) }
    let fields = line[first...end].split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
    let text = { (field: ArraySlice<UInt8>) in String(decoding: field, as: UTF8.self) }
    guard fields.count >= 3 else {
      throw LineError(reason: "expected 3 fields (name, fingerprint, date) but found \(fields.count)")
    }
    var addresses: [String] = []
    for field in fields.dropFirst(3) {
      guard field.starts(with: Array("at=".utf8)), field.count > 3 else {
        throw LineError(
          reason: "expected name, fingerprint, date and at=ADDRESS fields, but found \"\(text(field))\" after the date")
      }
      addresses.append(try unescape(text(field.dropFirst(3))))
    }
    let name = fields[0].contains(UInt8(ascii: "%")) ? try unescape(text(fields[0])) : text(fields[0])
    guard let fingerprint = fingerprint(fields[1]) else {
      throw LineError(reason: "\"\(text(fields[1]))\" is not a fingerprint of the form SHA256:<43 base64 characters>")
    }
    guard let added = dates[fields[2]] ?? CalendarDay(parsing: text(fields[2])) else {
      throw LineError(reason: "\"\(text(fields[2]))\" is not a date of the form YYYY-MM-DD")
    }
    // A copy: the field is a slice of the piece of the file being read, which the key would keep alive.
    if dates.count < 10_000 { dates[ArraySlice(Array(fields[2]))] = added }
    return .peer(name: name, fingerprint: fingerprint, added: added, addresses: addresses)
  }

  /// `SHA256:` and 43 base64 characters, read from the bytes (as `Fingerprint(parsing:)` reads the text).
  private static func fingerprint(_ field: ArraySlice<UInt8>) -> Fingerprint? {
    let prefix = Array(Fingerprint.prefix.utf8)
    guard field.starts(with: prefix), let bytes = Base64.decode(symbols: Array(field.dropFirst(prefix.count))) else {
      return nil
    }
    return Fingerprint(bytes: bytes)
  }

  /// The name as written in the file (an empty name is written `%00`).
  package static func escape(_ name: String) -> String {
    if name.isEmpty { return "%00" }
    let hex = Array("0123456789ABCDEF".utf8)
    var output: [UInt8] = []
    for byte in name.utf8 {
      if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "#") {
        output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      } else {
        output.append(byte)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  package static func unescape(_ field: String) throws(LineError) -> String {
    var bytes: [UInt8] = []
    var iterator = Array(field.utf8).makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next(), let low = iterator.next(),
        let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
      else { throw LineError(reason: "the name \"\(field)\" has a % not followed by two hex digits") }
      bytes.append(value)
    }
    if bytes == [0] { return "" }
    return String(decoding: bytes, as: UTF8.self)
  }
}
