import ExplainedErrors
import Glibc
import NetworkFacts
import PeerTrust
import TransitRelay
import UntrustedText

/// An invitation to a hosted game in one line a player can copy: the host's key and the addresses to try (and
/// a transit relay where the host waits, with its token), with a check that catches a typo. Joining with it pins
/// the key: no question is asked, and any other key is refused. The grammar is in docs/PROTOCOL.md ("Invites"):
///
///     tictactoe:<key>@<host>/<port>[,<host>/<port>...][,relay:<host>/<port>/<token>]+<check>
///
/// `<key>` is the SHA-256 of the host's public key in unpadded base64url (43 characters), `<host>` an IPv4 or
/// IPv6 address (an IPv6 zone after `%`) or a DNS name, and `<check>` six lowercase hex digits: the first three
/// bytes of the SHA-256 of everything before the `+`. No character in it needs quoting in a POSIX shell or zsh.
public struct Invite: Sendable, Equatable, CustomStringConvertible {
  /// One place to try: an address or DNS name, and a port.
  public struct Address: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: UInt16

    public init(host: String, port: UInt16) {
      self.host = host
      self.port = port
    }

    public var description: String { "\(host)/\(port)" }
  }

  public static let scheme = "tictactoe:"
  /// Limits on what is parsed: a pasted text longer than this is not an invite this program wrote.
  public static let maximumLength = 1024
  public static let maximumAddresses = 16

  public let key: Fingerprint
  /// In the order to try them; never empty.
  public let addresses: [Address]
  /// The transit relay where the host waits, if it named one.
  public let relay: Relay?

  /// Nil when there is no address, too many, or one that `parse` would refuse.
  public init?(key: Fingerprint, addresses: [Address], relay: Relay? = nil) {
    guard !addresses.isEmpty, addresses.count <= Invite.maximumAddresses,
      addresses.allSatisfy({ $0.port > 0 && Invite.isHost($0.host) })
    else { return nil }
    self.key = key
    self.addresses = addresses
    self.relay = relay
  }

  /// The invite as printed: `tictactoe:47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU@192.0.2.7/7177+3c61a8`.
  public var description: String {
    let places = addresses.map(\.description) + (relay.map { [$0.description] } ?? [])
    let body = Invite.scheme + Invite.base64url(key.bytes) + "@" + places.joined(separator: ",")
    return body + "+" + Invite.check(body)
  }

  /// Whether `text` is meant as an invite (it starts with the scheme), so a join field can tell an invite with
  /// a typo from an address.
  public static func isInvite(_ text: String) -> Bool {
    stripped(text).hasPrefix(scheme)
  }

  /// Parses an invite; a leading `Invite:` (a line copied whole) and spaces and line breaks anywhere (a wrapped
  /// one) are ignored.
  public static func parse(_ text: String) throws(InviteError) -> Invite {
    guard text.utf8.count <= maximumLength else { throw .tooLong }
    let text = stripped(text)
    guard text.hasPrefix(scheme) else { throw .notAnInvite }
    guard let plus = text.lastIndex(of: "+") else { throw .noCheck }
    let body = String(text[..<plus])
    let check = String(text[text.index(after: plus)...])
    guard check.utf8.count == 6, check.utf8.allSatisfy({ isLowerHex($0) }) else { throw .noCheck }
    guard check == Invite.check(body) else { throw .checkFailed }
    let rest = body.dropFirst(scheme.count)
    guard let at = rest.firstIndex(of: "@") else { throw .noAddress }
    guard let bytes = decodeBase64url(String(rest[..<at])), let key = Fingerprint(bytes: bytes) else {
      throw .badKey
    }
    var list = rest[rest.index(after: at)...].split(separator: ",", omittingEmptySubsequences: false)
    // A relay is the last place, after the addresses.
    var relay: Relay?
    if let last = list.last, last.hasPrefix(Relay.prefix) {
      relay = try Relay.parse(last)
      list.removeLast()
    }
    guard !list.isEmpty, !(list.count == 1 && list[0].isEmpty) else { throw .noAddress }
    guard list.count <= maximumAddresses else { throw .tooManyAddresses }
    var addresses: [Address] = []
    for item in list {
      guard !item.hasPrefix(Relay.prefix) else { throw .badRelay(String(item)) }
      guard let slash = item.lastIndex(of: "/") else { throw .badAddress(String(item)) }
      let host = String(item[..<slash])
      if let problem = NumericAddress.problem(host) { throw .hiddenAddress(problem) }
      guard isHost(host) else { throw .badAddress(String(item)) }
      let portText = item[item.index(after: slash)...]
      guard (1...5).contains(portText.utf8.count), portText.utf8.allSatisfy({ (48...57).contains($0) }),
        let port = UInt16(portText), port > 0
      else { throw .badPort(String(item)) }
      addresses.append(Address(host: host, port: port))
    }
    guard let invite = Invite(key: key, addresses: addresses, relay: relay) else { throw .noAddress }
    return invite
  }

  /// The text without its `Invite:` label and without any space, tab or line break, wherever they are: an
  /// invite has none, and one copied from a screen that wrapped it has them where the lines broke.
  private static func stripped(_ text: String) -> String {
    var trimmed = text.trimmingASCIIWhitespace()
    if trimmed.hasPrefix("Invite:") { trimmed = String(trimmed.dropFirst("Invite:".count)) }
    return String(trimmed.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
  }

  /// Six lowercase hex digits: the first three bytes of SHA-256(`body`).
  static func check(_ body: String) -> String {
    let digits = Array("0123456789abcdef")
    return String(Digest.sha256(Array(body.utf8)).prefix(3).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }

  private static func isLowerHex(_ byte: UInt8) -> Bool {
    (48...57).contains(byte) || (97...102).contains(byte)
  }

  /// An IPv4 address as four decimal numbers, an IPv6 address (with an optional zone of letters, digits, `.`, `_`
  /// and `-`), or a DNS name; never a number the system would read as another address (`NumericAddress`).
  static func isHost(_ host: String) -> Bool {
    guard !host.isEmpty, host.utf8.count <= 253 else { return false }
    if host.contains(":") {
      let parts = host.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
      if parts.count == 2 {
        guard (1...15).contains(parts[1].utf8.count),
          parts[1].utf8.allSatisfy({ byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 46
              || byte == 95 || byte == 45
          })
        else { return false }
      }
      var address = in6_addr()
      return inet_pton(AF_INET6, String(parts[0]), &address) == 1
    }
    return HostName.isValid(host) && NumericAddress.problem(host) == nil
  }

  static func base64url(_ bytes: [UInt8]) -> String {
    String(Base64.encodeUnpadded(bytes).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
  }

  /// The 32 bytes `text` encodes, only when it is how they are written: 43 characters whose last carries no stray
  /// bits (of `A` to `D`, only `A` stands for the bytes that `B`, `C` and `D` would decode to as well), so one
  /// key has one invite.
  static func decodeBase64url(_ text: String) -> [UInt8]? {
    guard text.utf8.count == 43, !text.contains("+"), !text.contains("/") else { return nil }
    guard let bytes = Base64.decode(String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })),
      base64url(bytes) == text
    else { return nil }
    return bytes
  }
}

/// Why a text is not a usable invite, in words for the player.
public enum InviteError: ExplainedError, Equatable, Sendable, CustomStringConvertible {
  case tooLong
  case notAnInvite
  case noCheck
  case checkFailed
  case badKey
  case noAddress
  case tooManyAddresses
  case badAddress(String)
  /// An address in a form that means another address than it shows (`NumericAddress`), with why.
  case hiddenAddress(String)
  case badPort(String)
  /// A relay not written as `relay:HOST/PORT/TOKEN`, or not last.
  case badRelay(String)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .tooLong: "invite.too-long"
    case .notAnInvite: "invite.not-an-invite"
    case .noCheck: "invite.no-check"
    case .checkFailed: "invite.check-failed"
    case .badKey: "invite.bad-key"
    case .noAddress: "invite.no-address"
    case .tooManyAddresses: "invite.too-many-addresses"
    case .badAddress: "invite.bad-address"
    case .hiddenAddress: "invite.hidden-address"
    case .badPort: "invite.bad-port"
    case .badRelay: "invite.bad-relay"
    }
  }

  /// What is wrong with the text (what `description` says, after "that invite cannot be used: ").
  public var reason: String {
    switch self {
    case .tooLong: "it is longer than \(Invite.maximumLength) bytes"
    case .notAnInvite: "it does not start with \(Invite.scheme)"
    case .noCheck: "it does not end with + and six hex digits (the check); was it copied whole?"
    case .checkFailed: "its check does not match: a character was changed or lost when it was copied"
    case .badKey: "the key before @ is not 43 characters of base64url"
    case .noAddress: "it has no address after @"
    case .tooManyAddresses: "it has more than \(Invite.maximumAddresses) addresses"
    case .badAddress(let item): "\(VisibleText.escaping(item)) is not an address/port"
    case .hiddenAddress(let problem): VisibleText.escaping(problem)
    case .badPort(let item): "\(VisibleText.escaping(item)) has no port from 1 to 65535"
    case .badRelay(let item):
      "\(VisibleText.escaping(item)) is not a relay: one relay comes last, as relay:HOST/PORT/TOKEN with a port from 1"
        + " to 65535 and a token of 43 base64url characters"
    }
  }

  /// What the player can do: get the invite again.
  public var hint: String? { "Ask the host for the invite again (`tictactoe invite` prints it) and copy all of it." }

  public var description: String { reason }
}
