import ExplainedErrors

/// PCP (RFC 6887) MAP requests and responses, byte for byte: what the program sends a gateway to open a port,
/// and what it reads back. Pure: `MappingClients` sends them and reads the answers (over `Exchange.udp`).
public enum PCPMessage {
  public static let version: UInt8 = 2
  public static let mapOpcode: UInt8 = 1
  public static let tcp: UInt8 = 6
  /// A MAP request or response is 60 bytes; no PCP message is longer than 1100 (RFC 6887 §7).
  public static let mapLength = 60
  public static let maximumLength = 1100

  /// A MAP request: map TCP `internalPort` of `client` (IPv4, 4 bytes) for `lifetime` seconds (0 deletes it),
  /// suggesting `externalPort`, tagged with the 12-byte `nonce` that the answer must carry.
  public static func mapRequest(
    nonce: [UInt8], client: [UInt8], internalPort: UInt16, externalPort: UInt16, lifetime: UInt32
  ) -> [UInt8] {
    precondition(nonce.count == 12 && client.count == 4)
    var bytes: [UInt8] = [version, mapOpcode, 0, 0]
    bytes += bigEndian(lifetime)
    bytes += mapped(client)
    bytes += nonce
    bytes += [tcp, 0, 0, 0]
    bytes += bigEndian(internalPort) + bigEndian(externalPort)
    bytes += mapped([0, 0, 0, 0])  // any external IPv4 address
    return bytes
  }

  /// An ANNOUNCE request (opcode 0, RFC 6887 §14.1): asks nothing of the gateway but whether it speaks PCP.
  public static func announceRequest(client: [UInt8]) -> [UInt8] {
    precondition(client.count == 4)
    return [version, 0, 0, 0, 0, 0, 0, 0] + mapped(client)
  }

  /// Whether `bytes` answer an ANNOUNCE (any result code: a PCP server answered), and its epoch.
  public static func parseAnnounceResponse(_ bytes: [UInt8]) throws(PCPError) -> (result: ResultCode, epoch: UInt32) {
    guard let first = bytes.first else { throw .malformed("it is empty") }
    guard first == version else { throw first == 0 ? .natPMPOnly : .malformed("it is PCP version \(first), not 2") }
    guard bytes.count >= 24, bytes.count <= maximumLength, bytes[1] == 0x80 else {
      throw .malformed("it is not an ANNOUNCE response")
    }
    return (ResultCode(bytes[3]), uint32(bytes, 8))
  }

  /// What a gateway answered to a MAP request.
  public struct MapResponse: Sendable, Equatable {
    public var result: ResultCode
    /// Seconds the mapping lasts (the gateway may grant less than asked).
    public var lifetime: UInt32
    /// The gateway's epoch (seconds since its mapping state began): a smaller one than before means it lost its
    /// mappings (rebooted).
    public var epoch: UInt32
    public var externalPort: UInt16
    /// The external address, as text ("198.51.101.1").
    public var externalAddress: String
  }

  /// Reads a MAP response to the request with `nonce` for `internalPort`.
  public static func parseMapResponse(_ bytes: [UInt8], nonce: [UInt8], internalPort: UInt16) throws(PCPError)
    -> MapResponse
  {
    guard bytes.count <= maximumLength else { throw .malformed("it is \(bytes.count) bytes, over 1100") }
    guard let first = bytes.first else { throw .malformed("it is empty") }
    // A NAT-PMP gateway answers a PCP request with its own version, 0, and "unsupported version".
    guard first == version else {
      throw first == 0 ? .natPMPOnly : .malformed("it is PCP version \(first), not 2")
    }
    guard bytes.count >= 24 else { throw .malformed("it is \(bytes.count) bytes, shorter than a PCP header") }
    guard bytes[1] == 0x80 | mapOpcode else { throw .malformed("it is not a MAP response (opcode byte \(bytes[1]))") }
    let result = ResultCode(bytes[3])
    let lifetime = uint32(bytes, 4)
    let epoch = uint32(bytes, 8)
    guard result == .success else {
      return MapResponse(result: result, lifetime: lifetime, epoch: epoch, externalPort: 0, externalAddress: "")
    }
    guard bytes.count >= mapLength, bytes.count % 4 == 0 else {
      throw .malformed("a MAP response is at least 60 bytes in whole words, not \(bytes.count)")
    }
    guard Array(bytes[24..<36]) == nonce else { throw .malformed("its nonce is not the request's") }
    guard bytes[36] == tcp, uint16(bytes, 40) == internalPort else {
      throw .malformed("it answers another mapping (protocol \(bytes[36]), port \(uint16(bytes, 40)))")
    }
    let address = Array(bytes[44..<60])
    guard address[0..<10].allSatisfy({ $0 == 0 }), address[10] == 0xFF, address[11] == 0xFF else {
      throw .malformed("its external address is not an IPv4 one")
    }
    return MapResponse(
      result: result, lifetime: lifetime, epoch: epoch, externalPort: uint16(bytes, 42),
      externalAddress: address[12...].map(String.init).joined(separator: "."))
  }

  /// A PCP result code (RFC 6887 §7.4), in words for the player.
  public enum ResultCode: Sendable, Equatable, CustomStringConvertible {
    case success, unsupportedVersion, notAuthorized, malformedRequest, unsupportedOpcode, unsupportedOption
    case malformedOption, networkFailure, noResources, unsupportedProtocol, userExceededQuota
    case cannotProvideExternal, addressMismatch, excessiveRemotePeers
    /// A code RFC 6887 does not define.
    case other(UInt8)

    /// The codes in the RFC's order: each one's number is its place.
    private static let numbered: [ResultCode] = [
      .success, .unsupportedVersion, .notAuthorized, .malformedRequest, .unsupportedOpcode, .unsupportedOption,
      .malformedOption, .networkFailure, .noResources, .unsupportedProtocol, .userExceededQuota,
      .cannotProvideExternal, .addressMismatch, .excessiveRemotePeers,
    ]

    public init(_ value: UInt8) {
      self = Int(value) < Self.numbered.count ? Self.numbered[Int(value)] : .other(value)
    }

    /// The number on the wire.
    public var value: UInt8 {
      if case .other(let value) = self { return value }
      return UInt8(Self.numbered.firstIndex(of: self)!)
    }

    public var description: String {
      let words = [
        "success", "unsupported version", "not authorized", "malformed request", "unsupported opcode",
        "unsupported option", "malformed option", "network failure", "no resources", "unsupported protocol",
        "user exceeded quota", "cannot provide an external port", "address mismatch", "excessive remote peers",
      ]
      return Int(value) < words.count ? words[Int(value)] : "result code \(value)"
    }
  }

  /// `address` (IPv4) as an IPv4-mapped IPv6 address.
  static func mapped(_ address: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + address }

  static func bigEndian(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
  static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
  static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
  static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[at + $1]) }
  }
}

/// Why a PCP answer could not be used.
public enum PCPError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  case malformed(String)
  /// The gateway speaks NAT-PMP but not PCP.
  case natPMPOnly

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .malformed: "pcp.malformed"
    case .natPMPOnly: "pcp.nat-pmp-only"
    }
  }

  /// What the gateway's answer was.
  public var reason: String {
    switch self {
    case .malformed(let reason): "the gateway's PCP answer is malformed: \(reason)"
    case .natPMPOnly: "the gateway speaks NAT-PMP but not PCP"
    }
  }

  /// What follows: another protocol is tried, or the port is forwarded by hand.
  public var hint: String? {
    switch self {
    case .malformed: "forward the port on the router by hand if no other protocol maps it"
    case .natPMPOnly: "the NAT-PMP request, sent beside it, decides"
    }
  }

  public var description: String { reason }
}
