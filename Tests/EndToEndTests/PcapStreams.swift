import Foundation

/// The TCP byte streams in a capture file (tcpdump -w): each direction of each connection put back together in
/// sequence order, retransmitted bytes once. For checking what a relay was given, not a general pcap reader:
/// IPv4 over Ethernet, Linux cooked capture v1 or v2 (`-i any`), little- or big-endian files.
struct PcapStreams {
  /// One direction of one TCP connection.
  struct Direction: Hashable {
    let source: String
    let sourcePort: UInt16
    let destination: String
    let destinationPort: UInt16
  }

  private(set) var streams: [Direction: [UInt8]] = [:]

  /// The bytes sent to `port` (all connections, one after another), and those sent from it.
  func bytes(toPort port: UInt16) -> [UInt8] {
    streams.filter { $0.key.destinationPort == port }.sorted { "\($0.key)" < "\($1.key)" }.flatMap(\.value)
  }
  func bytes(fromPort port: UInt16) -> [UInt8] {
    streams.filter { $0.key.sourcePort == port }.sorted { "\($0.key)" < "\($1.key)" }.flatMap(\.value)
  }

  init(file: String) throws {
    let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    guard data.count >= 24 else { throw Failure.tooShort }
    let little = data[0..<4] == [0xd4, 0xc3, 0xb2, 0xa1] || data[0..<4] == [0x4d, 0x3c, 0xb2, 0xa1]
    func u32(_ at: Int) -> Int {
      let bytes = data[at..<at + 4].map(Int.init)
      return little
        ? bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24
        : bytes[3] | bytes[2] << 8 | bytes[1] << 16 | bytes[0] << 24
    }
    let linkHeader: Int
    switch u32(20) {
    case 1: linkHeader = 14  // Ethernet
    case 113: linkHeader = 16  // Linux cooked v1
    case 276: linkHeader = 20  // Linux cooked v2
    case let other: throw Failure.linkType(other)
    }
    var segments: [Direction: [(sequence: UInt32, payload: ArraySlice<UInt8>)]] = [:]
    var offset = 24
    while offset + 16 <= data.count {
      let captured = u32(offset + 8)
      let packet = data[(offset + 16)..<min(data.count, offset + 16 + captured)]
      offset += 16 + captured
      if let (direction, sequence, payload) = Self.tcp(packet.dropFirst(linkHeader)) {
        segments[direction, default: []].append((sequence, payload))
      }
    }
    for (direction, parts) in segments {
      // Offsets from the first sequence number seen (the SYN's), so a wrap of the 32-bit counter does no harm.
      guard let base = parts.first?.sequence else { continue }
      var stream: [UInt8] = []
      var start: UInt32?
      for part in parts.sorted(by: { $0.sequence &- base < $1.sequence &- base }) where !part.payload.isEmpty {
        let first = start ?? part.sequence
        start = first
        let at = Int(part.sequence &- first)
        if at + part.payload.count > stream.count && at <= stream.count {
          stream += part.payload.dropFirst(stream.count - at)
        }
      }
      streams[direction] = stream
    }
  }

  /// An IPv4 TCP segment's direction, sequence number and payload; nil for anything else.
  private static func tcp(_ ip: ArraySlice<UInt8>) -> (Direction, UInt32, ArraySlice<UInt8>)? {
    let ip = Array(ip)
    guard ip.count >= 20, ip[0] >> 4 == 4, ip[9] == 6 else { return nil }
    let ipHeader = Int(ip[0] & 0x0f) * 4
    let total = min(ip.count, Int(ip[2]) << 8 | Int(ip[3]))
    guard total >= ipHeader + 20 else { return nil }
    let tcp = ipHeader
    let tcpHeader = Int(ip[tcp + 12] >> 4) * 4
    guard total >= tcp + tcpHeader else { return nil }
    let address = { (at: Int) in ip[at..<at + 4].map { "\($0)" }.joined(separator: ".") }
    let port = { (at: Int) in UInt16(ip[at]) << 8 | UInt16(ip[at + 1]) }
    let sequence = ip[(tcp + 4)..<(tcp + 8)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    // A SYN takes one sequence number: data starts after it.
    let syn = ip[tcp + 13] & 0x02 != 0
    let direction = Direction(
      source: address(12), sourcePort: port(tcp), destination: address(16), destinationPort: port(tcp + 2))
    return (direction, syn ? sequence &+ 1 : sequence, ArraySlice(ip[(tcp + tcpHeader)..<total]))
  }

  enum Failure: Error {
    case tooShort
    case linkType(Int)
  }
}
