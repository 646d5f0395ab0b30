/// A host and port to connect to, as a player types it: `host`, `host:port`, `[v6addr]:port`, or a bare IPv6
/// address.
public struct Endpoint: Sendable, Equatable, CustomStringConvertible {
  /// The port a host listens on unless told otherwise.
  public static let defaultPort: UInt16 = 7177

  public let host: String
  public let port: UInt16

  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// Parses what the player typed; nil (with no guessing) when it is not an address, or is a number the system
  /// would take for another address than it shows (`numericProblem` says which).
  public init?(parsing text: String, defaultPort: UInt16 = Endpoint.defaultPort) {
    guard let read = Endpoint(reading: text, defaultPort: defaultPort), NumericAddress.problem(read.host) == nil
    else { return nil }
    self = read
  }

  /// Why what the player typed is refused as an address when its host is a number in a form that means another
  /// address (`0177.0.0.1`, `2130706433`); nil otherwise.
  public static func numericProblem(_ text: String) -> String? {
    Endpoint(reading: text, defaultPort: defaultPort).flatMap { NumericAddress.problem($0.host) }
  }

  /// `host`, `host:port`, `[v6addr]:port` or a bare IPv6 address, read as written.
  private init?(reading text: String, defaultPort: UInt16) {
    let trimmed = text.filter { !$0.isWhitespace }
    guard !trimmed.isEmpty else { return nil }
    if trimmed.hasPrefix("[") {
      guard let close = trimmed.firstIndex(of: "]") else { return nil }
      let host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
      let rest = trimmed[trimmed.index(after: close)...]
      guard !host.isEmpty else { return nil }
      if rest.isEmpty {
        self.init(host: host, port: defaultPort)
        return
      }
      guard rest.hasPrefix(":"), let port = UInt16(rest.dropFirst()), port > 0 else { return nil }
      self.init(host: host, port: port)
      return
    }
    let colons = trimmed.filter { $0 == ":" }.count
    if colons >= 2 {
      // A bare IPv6 address: the port cannot be written without brackets.
      self.init(host: trimmed, port: defaultPort)
      return
    }
    if colons == 1, let colon = trimmed.firstIndex(of: ":") {
      guard let port = UInt16(trimmed[trimmed.index(after: colon)...]), port > 0 else { return nil }
      let host = String(trimmed[..<colon])
      guard !host.isEmpty else { return nil }
      self.init(host: host, port: port)
      return
    }
    self.init(host: trimmed, port: defaultPort)
  }

  /// "host:port", with brackets around IPv6 addresses.
  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
