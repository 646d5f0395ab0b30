/// The PROXY protocol version 2 header (HAProxy's `send-proxy-v2`): the binary block a proxy in TCP mode sends
/// before the client's bytes, naming the client's address, so a server behind the proxy can judge the client
/// and not the proxy. Read by a pure parser (`ProxyHeader.read`), bytes in, a header or a refusal out.
///
/// The layout: 12 bytes of signature, a byte of version (2) and command (0 LOCAL, 1 PROXY), a byte of address
/// family (0 unspecified, 1 IPv4, 2 IPv6, 3 Unix) and transport (1 stream), two bytes of length (big-endian) of
/// what follows: the source and destination addresses and ports (12 bytes for IPv4, 36 for IPv6, 216 for Unix),
/// then TLVs, which are skipped.
public struct ProxyHeader: Equatable, Sendable {
  /// What the connection is.
  public enum Command: Equatable, Sendable {
    /// The proxy's own connection, not a client's: HAProxy's health check.
    case local
    /// A client's connection relayed by the proxy.
    case proxy
  }

  public let command: Command
  /// The client's address and port as the sockets write a peer ("192.0.2.1:40000", "[2001:db8::1]:40000");
  /// nil when the header names no IPv4 or IPv6 TCP client (LOCAL, an unspecified family, a Unix socket, a
  /// datagram): the connection's own address stands then, as the protocol says.
  public let source: String?
  /// The address and port the client reached at the proxy, written the same way (nil as for `source`).
  public let destination: String?

  /// The 12 bytes every version 2 header begins with.
  public static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
  /// The fixed part: the signature, version and command, family and transport, length.
  public static let fixedLength = 16
  /// The longest the part after the fixed one may be: the addresses of any family (216 bytes for Unix) and
  /// room for a few TLVs. HAProxy sends 12 or 36 bytes without `proxy-v2-options`; a longer one is refused
  /// before it is read, so a peer cannot make the server hold much.
  public static let maximumLength = 512

  /// Where reading a header stands after some bytes.
  public enum Reading: Equatable, Sendable {
    /// Not enough bytes yet to decide.
    case more
    /// A whole header, and how many bytes it took (what follows belongs to the client).
    case header(ProxyHeader, length: Int)
    case refused(ProxyHeaderError)
  }

  /// Reads the header at the start of `bytes`, deciding as early as the bytes allow: a byte that cannot be
  /// a version 2 header's refuses it at once, without waiting for the rest.
  public static func read(_ bytes: [UInt8]) -> Reading {
    let prefix = min(bytes.count, signature.count)
    guard bytes.prefix(prefix).elementsEqual(signature.prefix(prefix)) else {
      return .refused(bytes.starts(with: Array("PROXY ".utf8).prefix(prefix)) ? .versionOne : .notAProxyHeader)
    }
    guard bytes.count >= fixedLength else { return .more }
    let (versionCommand, familyTransport) = (bytes[12], bytes[13])
    guard versionCommand >> 4 == 2 else { return .refused(.version(Int(versionCommand >> 4))) }
    let command: Command
    switch versionCommand & 0x0F {
    case 0: command = .local
    case 1: command = .proxy
    default: return .refused(.command(Int(versionCommand & 0x0F)))
    }
    let length = Int(bytes[14]) << 8 | Int(bytes[15])
    guard length <= maximumLength else { return .refused(.tooLong(length)) }
    let (family, transport) = (familyTransport >> 4, familyTransport & 0x0F)
    guard family <= 3 else { return .refused(.family(Int(family))) }
    guard transport <= 2 else { return .refused(.transport(Int(transport))) }
    let needed = [0: 0, 1: 12, 2: 36, 3: 216][Int(family)] ?? 0
    guard length >= needed else { return .refused(.addressesCut(family: Int(family), length: length)) }
    guard bytes.count >= fixedLength + length else { return .more }
    let body = Array(bytes[fixedLength..<(fixedLength + length)])
    // After the addresses of a known family come TLVs; an unspecified family's block is skipped whole.
    guard family == 0 || TLV.wellFormed(body[needed...]) else { return .refused(.badTLV) }
    var (source, destination): (String?, String?) = (nil, nil)
    // Only a client's TCP connection over IPv4 or IPv6 names an address to judge.
    if command == .proxy && transport == 1 && (family == 1 || family == 2) {
      let size = family == 1 ? 4 : 16
      let ports = 2 * size
      source = peer(Array(body[0..<size]), port: Int(body[ports]) << 8 | Int(body[ports + 1]))
      destination = peer(Array(body[size..<ports]), port: Int(body[ports + 2]) << 8 | Int(body[ports + 3]))
    }
    let header = ProxyHeader(command: command, source: source, destination: destination)
    return .header(header, length: fixedLength + length)
  }

  /// An address and port as the sockets write a peer.
  static func peer(_ address: [UInt8], port: Int) -> String {
    if address.count == 4 { return IPAddressText.dotted(address) + ":\(port)" }
    return "[\(IPAddressText.compressedIPv6(address))]:\(port)"
  }

  /// The TLVs after the addresses: each a type byte, two bytes of length and that many bytes of value. They
  /// are skipped, but they must fill the rest of the header exactly.
  enum TLV {
    static func wellFormed(_ bytes: ArraySlice<UInt8>) -> Bool {
      var index = bytes.startIndex
      while index < bytes.endIndex {
        guard bytes.endIndex - index >= 3 else { return false }
        let length = Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
        index += 3 + length
      }
      return index == bytes.endIndex
    }
  }
}

/// Why bytes from a trusted proxy are not a PROXY version 2 header; the connection is closed.
public enum ProxyHeaderError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text header of version 1 ("PROXY TCP4 ..."): the proxy must send version 2 (`send-proxy-v2`).
  case versionOne
  /// The first bytes are not the header's signature (a TLS hello straight from the proxy's address).
  case notAProxyHeader
  case version(Int)
  case command(Int)
  case family(Int)
  case transport(Int)
  /// The length given is past `ProxyHeader.maximumLength`.
  case tooLong(Int)
  /// The length given is too short for the family's addresses.
  case addressesCut(family: Int, length: Int)
  /// The TLVs after the addresses do not fill the rest of the header exactly.
  case badTLV
  /// The connection ended after `received` bytes, before a whole header (0: a TCP health check, or a probe).
  case ended(received: Int)
  /// No whole header within `seconds` of the connection.
  case timedOut(seconds: Int)

  public var description: String {
    switch self {
    case .versionOne: "a PROXY protocol version 1 header: configure the proxy with send-proxy-v2"
    case .notAProxyHeader: "no PROXY protocol header from an address trusted to send one (proxy_from)"
    case .version(let version): "a PROXY protocol header of version \(version), not 2"
    case .command(let command): "a PROXY protocol header with the unknown command \(command)"
    case .family(let family): "a PROXY protocol header with the unknown address family \(family)"
    case .transport(let transport): "a PROXY protocol header with the unknown transport \(transport)"
    case .tooLong(let length): "a PROXY protocol header of \(length) bytes, over \(ProxyHeader.maximumLength)"
    case .addressesCut(let family, let length):
      "a PROXY protocol header of \(length) bytes, too short for the addresses of family \(family)"
    case .badTLV: "a PROXY protocol header whose TLVs do not fill it"
    case .ended(let received): "closed after \(received) bytes of a PROXY protocol header"
    case .timedOut(let seconds): "no PROXY protocol header within \(seconds) s"
    }
  }
}
