/// What a hosted game tells the LAN before anyone connects: rules, free or busy, the host's key fingerprint.
///
/// Encoded as the DNS-SD TXT record of the `_tictactoe._tcp` service (RFC 6763 §6): `txtvers=1`, `proto=1`
/// (comma-separated protocol versions), `rules=3x3k3`, `state=waiting|playing`, `fp=SHA256:…`, and optionally
/// `name=…`, `bot=LEVEL` (a practice bot; `bot=engine` when an outside engine plays for it, named in
/// `engine=PROGRAM`) and `clock=5+3` (the time control the host offers, in `--clock`'s
/// grammar; absent: none) and `rule=renju` (the rule of five in a row the host offers, `exact5` or `renju`, as
/// `--rule` names it; absent: freestyle), `opening=swap2` (absent: the usual opening) and `watch=N` (the game may
/// be watched, and N spectators watch it now, or all of a practice bot's games together; absent: it may not;
/// `AdvertPacing` changes it at most once every 10 s). The instance name is the game's main name; host and port
/// come from the SRV record, never from here.
/// Decoding another publisher's record never fails: fields that are missing or invalid are nil and listed in
/// `problems`.
public struct ServiceTXT: Sendable, Equatable {
  /// The TXT layout version this program writes.
  public static let currentTXTVersion = 1
  /// The value of `bot` when an outside engine plays for the bot (`host --bot --engine`): a word an older
  /// reader takes for a level.
  public static let engineBot = "engine"
  /// The most bytes `engine` holds.
  public static let engineNameBytes = 32

  /// Whether the host is waiting for an opponent or already playing.
  public enum GameState: String, Sendable, CaseIterable {
    case waiting
    case playing
  }

  /// The board and winning line length, written `3x3k3` (rows x columns k).
  ///
  /// Only the syntax is checked here (each number 1…999); whether the game supports the board is the lobby's call.
  public struct Rules: Sendable, Hashable, CustomStringConvertible {
    public let rows: Int
    public let columns: Int
    public let k: Int

    /// Nil unless each number is in 1…999.
    public init?(rows: Int, columns: Int, k: Int) {
      let range = 1...999
      guard range.contains(rows), range.contains(columns), range.contains(k) else { return nil }
      self.rows = rows
      self.columns = columns
      self.k = k
    }

    /// Parses `RxCkK`, e.g. `3x3k3` or `15x15k5`; nil for anything else.
    public init?(parsing text: String) {
      let parts = text.split(separator: "x", omittingEmptySubsequences: false)
      guard parts.count == 2 else { return nil }
      let tail = parts[1].split(separator: "k", omittingEmptySubsequences: false)
      guard tail.count == 2, let rows = Rules.number(parts[0]), let columns = Rules.number(tail[0]),
        let k = Rules.number(tail[1])
      else { return nil }
      self.init(rows: rows, columns: columns, k: k)
    }

    public var description: String { "\(rows)x\(columns)k\(k)" }

    private static func number(_ text: Substring) -> Int? {
      guard (1...3).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
        return nil
      }
      return Int(text)
    }
  }

  /// `txtvers`: the layout version of the record (1 for records this program writes).
  public var txtVersion: Int?
  /// `proto`: the wire protocol versions the host speaks, e.g. `[1]`.
  public var protocolVersions: [Int]?
  /// `rules`: the board the host offers.
  public var rules: Rules?
  /// `state`: free (waiting) or busy (playing).
  public var state: GameState?
  /// `fp`: the host's key fingerprint, `SHA256:` followed by 43 characters of unpadded base64.
  public var fingerprint: String?
  /// `name`: an optional display name; the service instance name is the main name.
  public var displayName: String?
  /// `bot`: the level of a practice bot that plays any number of joiners at once (`easy`, `normal`,
  /// `perfect`, or `engine` when an outside engine plays for it; 1 to 16 lowercase ASCII letters); nil for a
  /// player's game. A reader older than `engine` shows it as a level, which still says "a bot".
  public var bot: String?
  /// `engine`: the program an engine bot's moves come from (`bot=engine`), as the bot names it in its chat and
  /// records: 1 to 32 bytes of UTF-8 with no control or format character (checked here; shown only through the
  /// sanitiser all the same); nil for any other host.
  public var engine: String?
  /// `clock`: the time control the host offers (`5+3`, `30s+2`, `move:20s`: 1 to 24 characters of digits, `.`,
  /// `+`, `s` and `move:`; what they mean is the lobby's to read); nil for an untimed game.
  public var clock: String?
  /// `rule`: the rule of five in a row the host offers (`exact5`, `renju`: 1 to 16 lowercase ASCII letters and
  /// digits; what they mean is the lobby's to read); nil for freestyle.
  public var rule: String?
  /// `opening`: how the host's games open when not as usual (`swap2`; the same characters as `rule`, read by the
  /// lobby); nil for the usual opening.
  public var opening: String?
  /// `watch`: present, the game (or a practice bot's every game) may be watched, and this many spectators watch now
  /// (0 to 65535); nil: it may not be watched (or the host is older).
  public var watchers: Int?
  /// What was wrong with a received record; empty for a good one and for records built here.
  public var problems: [TXTProblem]

  /// A record to publish. `displayName` longer than fits in one TXT string is shortened (at a character boundary).
  public init(
    protocolVersions: [Int], rules: Rules, state: GameState, fingerprint: String, displayName: String? = nil,
    bot: String? = nil, engine: String? = nil, clock: String? = nil, rule: String? = nil, opening: String? = nil
  ) {
    self.txtVersion = ServiceTXT.currentTXTVersion
    self.protocolVersions = protocolVersions
    self.rules = rules
    self.state = state
    self.fingerprint = fingerprint
    self.displayName = displayName.map(ServiceTXT.fitting)
    self.bot = bot
    self.engine = engine.flatMap(ServiceTXT.engineName)
    self.clock = clock
    self.rule = rule
    self.opening = opening
    self.problems = []
  }

  /// Reads a received TXT record; never fails (see `problems`).
  public init(decoding bytes: [UInt8]) {
    self.problems = []
    let (strings, truncatedAt) = TXTRecordStrings.decode(bytes)
    let values = ServiceTXT.values(of: strings, problems: &problems)
    if let truncatedAt {
      problems.append(.truncated(offset: truncatedAt))
    }

    let versionText = text(for: "txtvers", in: values, required: true)
    if let versionText {
      if let version = Int(versionText), version == ServiceTXT.currentTXTVersion {
        txtVersion = version
      } else {
        problems.append(.unknownTXTVersion(versionText))
      }
    }
    if let protoText = text(for: "proto", in: values, required: true) {
      protocolVersions = ServiceTXT.versions(protoText)
      if protocolVersions == nil { problems.append(.invalidValue(key: "proto", value: protoText)) }
    }
    if let rulesText = text(for: "rules", in: values, required: true) {
      rules = Rules(parsing: rulesText)
      if rules == nil { problems.append(.invalidValue(key: "rules", value: rulesText)) }
    }
    if let stateText = text(for: "state", in: values, required: true) {
      state = GameState(rawValue: stateText.lowercased())
      if state == nil { problems.append(.invalidValue(key: "state", value: stateText)) }
    }
    if let fingerprintText = text(for: "fp", in: values, required: true) {
      if ServiceTXT.isFingerprint(fingerprintText) {
        fingerprint = fingerprintText
      } else {
        problems.append(.invalidValue(key: "fp", value: fingerprintText))
      }
    }
    if let nameText = text(for: "name", in: values, required: false) {
      displayName = nameText
    }
    readOptionalKeys(values)
  }

  /// The keys a record may leave out: `bot`, `engine`, `clock`, `rule`, `opening`, `watch`.
  private mutating func readOptionalKeys(_ values: [String: [UInt8]?]) {
    if let botText = text(for: "bot", in: values, required: false) {
      if ServiceTXT.isBotLevel(botText) {
        bot = botText
      } else {
        problems.append(.invalidValue(key: "bot", value: botText))
      }
    }
    if let engineText = text(for: "engine", in: values, required: false) {
      if ServiceTXT.engineName(engineText) == engineText {
        engine = engineText
      } else {
        problems.append(.invalidValue(key: "engine", value: engineText))
      }
    }
    if let clockText = text(for: "clock", in: values, required: false) {
      if ServiceTXT.isClock(clockText) {
        clock = clockText
      } else {
        problems.append(.invalidValue(key: "clock", value: clockText))
      }
    }
    if let ruleText = text(for: "rule", in: values, required: false) {
      if ServiceTXT.isRule(ruleText) {
        rule = ruleText
      } else {
        problems.append(.invalidValue(key: "rule", value: ruleText))
      }
    }
    if let openingText = text(for: "opening", in: values, required: false) {
      if ServiceTXT.isRule(openingText) {
        opening = openingText
      } else {
        problems.append(.invalidValue(key: "opening", value: openingText))
      }
    }
    if let watchText = text(for: "watch", in: values, required: false) {
      let digits = (1...5).contains(watchText.utf8.count) && watchText.utf8.allSatisfy { (0x30...0x39).contains($0) }
      if digits, let count = Int(watchText), count <= 65_535 {
        watchers = count
      } else {
        problems.append(.invalidValue(key: "watch", value: watchText))
      }
    }
  }

  /// 1 to 16 lowercase ASCII letters and digits (`renju`, `exact5`).
  static func isRule(_ text: String) -> Bool {
    (1...16).contains(text.utf8.count)
      && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
  }

  /// The characters of `--clock`'s grammar only, 1 to 24 of them.
  static func isClock(_ text: String) -> Bool {
    (1...24).contains(text.utf8.count)
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || Array("+.smove:".utf8).contains($0) }
  }

  /// The value of each known key in the record's strings, lowercased keys; nil for a key given without `=`.
  /// An empty or non-ASCII key and a key given twice are `problems`; unknown keys are left out.
  private static func values(of strings: [[UInt8]], problems: inout [TXTProblem]) -> [String: [UInt8]?] {
    var values: [String: [UInt8]?] = [:]
    for string in strings where !string.isEmpty {
      let keyBytes = string.prefix { $0 != UInt8(ascii: "=") }
      guard !keyBytes.isEmpty else {
        problems.append(.emptyKey)
        continue
      }
      guard keyBytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
        problems.append(.invalidKey)
        continue
      }
      let key = String(decoding: keyBytes, as: UTF8.self).lowercased()
      guard knownKeys.contains(key) else { continue }
      guard values[key] == nil else {
        problems.append(.duplicateKey(key))
        continue
      }
      let value: [UInt8]? = keyBytes.count == string.count ? nil : Array(string[(keyBytes.count + 1)...])
      values[key] = .some(value)
    }
    return values
  }

  /// The TXT record data to publish: one `key=value` string per field present, in a fixed order.
  public var encoded: [UInt8] {
    var strings: [String] = []
    if let txtVersion { strings.append("txtvers=\(txtVersion)") }
    if let protocolVersions {
      strings.append("proto=" + protocolVersions.map(String.init).joined(separator: ","))
    }
    if let rules { strings.append("rules=\(rules)") }
    if let state { strings.append("state=\(state.rawValue)") }
    if let fingerprint { strings.append("fp=\(fingerprint)") }
    if let displayName { strings.append("name=" + ServiceTXT.fitting(displayName)) }
    if let bot { strings.append("bot=\(bot)") }
    if let engine { strings.append("engine=\(engine)") }
    if let clock { strings.append("clock=\(clock)") }
    if let rule { strings.append("rule=\(rule)") }
    if let opening { strings.append("opening=\(opening)") }
    if let watchers { strings.append("watch=\(watchers)") }
    return TXTRecordStrings.encode(strings.map { Array($0.utf8) })
  }

  /// The keys this program reads; others are ignored as RFC 6763 asks.
  static let knownKeys: Set<String> = [
    "txtvers", "proto", "rules", "state", "fp", "name", "bot", "engine", "clock", "rule", "opening", "watch",
  ]

  /// The value of `key` as text, recording a problem when it is required and absent, has no value, or is not UTF-8.
  private mutating func text(for key: String, in values: [String: [UInt8]?], required: Bool) -> String? {
    guard let entry = values[key] else {
      if required { problems.append(.missingKey(key)) }
      return nil
    }
    guard let bytes = entry else {
      problems.append(.invalidValue(key: key, value: ""))
      return nil
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      problems.append(.notUTF8(key: key))
      return nil
    }
    return text
  }

  /// `1` or `1,2`: positive integers, no blanks; nil otherwise.
  private static func versions(_ text: String) -> [Int]? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    var versions: [Int] = []
    for part in parts {
      guard (1...4).contains(part.utf8.count), part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
        let version = Int(part), version > 0
      else { return nil }
      versions.append(version)
    }
    return versions
  }

  /// `SHA256:` followed by exactly 43 characters of the standard base64 alphabet (32 bytes, unpadded).
  private static func isFingerprint(_ text: String) -> Bool {
    let prefix = "SHA256:"
    guard text.hasPrefix(prefix) else { return false }
    let body = text.utf8.dropFirst(prefix.utf8.count)
    return body.count == 43
      && body.allSatisfy { byte in
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
          || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
      }
  }

  /// 1 to 16 lowercase ASCII letters.
  private static func isBotLevel(_ text: String) -> Bool {
    (1...16).contains(text.utf8.count) && text.utf8.allSatisfy { (0x61...0x7A).contains($0) }
  }

  /// An engine's name as `engine` holds it: its control, format and line-breaking characters (escapes,
  /// bidirectional marks, line and paragraph separators) left out, cut to `engineNameBytes` at a character boundary; nil when nothing is left.
  static func engineName(_ name: String) -> String? {
    var kept = String.UnicodeScalarView()
    kept.append(
      contentsOf: name.unicodeScalars.filter {
        ![.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
      })
    let cut = String(kept).prefix(utf8Bytes: engineNameBytes)
    return cut.isEmpty ? nil : cut
  }

  /// `name` cut so that `name=` plus the value fits in one TXT string, at a character boundary.
  private static func fitting(_ name: String) -> String {
    name.prefix(utf8Bytes: TXTRecordStrings.maximumStringLength - "name=".utf8.count)
  }
}
