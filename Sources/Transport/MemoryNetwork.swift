import Glibc
import NetworkFacts
import Synchronization

/// A network inside one machine for tests: Unix-domain stream sockets with abstract names (nothing on disk, no
/// IPv4 or IPv6 socket), which epoll, non-blocking connects, accepts and TLS treat as they treat TCP. A name is
/// `tictactoe-net/<network>/<host>/<port>`: a listener's host is `hostAddress`, and a connecting side binds a
/// name of its own first, with `joinerAddress` as its host, so the listener sees that address and a port, as
/// over TCP. Every host name reaches the one listener on its port, except names ending in `.invalid`, which are
/// not found (RFC 2606); `numericOnly` refuses a name that is not an IP address.
public struct MemoryNetwork: Sendable {
  /// Tells this network's names apart from another's (another test, another process).
  public let name: String
  /// The address a listener has, as its peers see it.
  public var hostAddress = "127.0.0.1"
  /// The address a connecting side has, as the listener sees it.
  public var joinerAddress = "127.0.0.1"

  private static let counter = Atomic<Int>(0)
  private static let prefix = "tictactoe-net/"

  /// A network of its own: its name holds this process's id and a number never used before in it.
  public init() {
    name = "\(getpid())-\(MemoryNetwork.counter.add(1, ordering: .relaxed).newValue)"
  }

  /// The calls the game makes, over this network.
  public var network: Network {
    let memory = self
    return Network(
      resolve: { endpoint, numericOnly throws(NetworkError) in try memory.resolve(endpoint, numericOnly: numericOnly) },
      listen: { _, port, backlog throws(NetworkError) in [try memory.listen(port: port, backlog: backlog)] })
  }

  func resolve(_ endpoint: Endpoint, numericOnly: Bool) throws(NetworkError) -> [Sockets.Address] {
    if endpoint.host.hasSuffix(".invalid") || (numericOnly && !IPAddressText.isNumeric(endpoint.host)) {
      throw .hostNotFound(endpoint.host, reason: "no such name in the in-memory network")
    }
    let (storage, length) = address(host: hostAddress, port: endpoint.port)
    let source = address(host: joinerAddress, port: Self.freePort())
    return [Sockets.address(storage, length: length, source: source)]
  }

  func listen(port: UInt16, backlog: Int32) throws(NetworkError) -> Int32 {
    let port = port == 0 ? Self.freePort() : port
    let label = "\(hostAddress):\(port) (in memory)"
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw .cannotListen(label, reason: Sockets.errorText()) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    var (storage, length) = address(host: hostAddress, port: port)
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
      let reason = errno == EADDRINUSE ? "the port is already in use" : Sockets.errorText()
      close(fd)
      throw .cannotListen(label, reason: reason)
    }
    Sockets.setNonBlocking(fd)
    return fd
  }

  /// A port number no other listener or connection of this process has had (the same sequence for all
  /// networks: names differ by network anyway).
  private static func freePort() -> UInt16 {
    UInt16(20_000 + ports.add(1, ordering: .relaxed).newValue % 40_000)
  }
  private static let ports = Atomic<Int>(0)

  /// The abstract socket address of `host` and `port` on this network.
  private func address(host: String, port: UInt16) -> (sockaddr_storage, socklen_t) {
    var storage = sockaddr_storage()
    let path = Array("\(Self.prefix)\(name)/\(host)/\(port)".utf8)
    let length = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { un -> Int in
        un.pointee.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &un.pointee.sun_path) { bytes in
          // The first byte stays 0: an abstract name, in no directory.
          for (index, byte) in path.prefix(bytes.count - 1).enumerated() { bytes[index + 1] = byte }
        }
        return MemoryLayout<sa_family_t>.size + 1 + min(path.count, 107)
      }
    }
    return (storage, socklen_t(length))
  }

  /// The host and port an in-memory socket address names (from `tictactoe-net/<network>/<host>/<port>`);
  /// ("", 0) for any other Unix-domain address.
  static func describe(_ storage: sockaddr_storage) -> (host: String, port: UInt16) {
    var storage = storage
    let path = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { un in
        withUnsafeBytes(of: un.pointee.sun_path) { bytes in Array(bytes.dropFirst().prefix { $0 != 0 }) }
      }
    }
    let parts = String(decoding: path, as: UTF8.self).split(separator: "/")
    guard parts.count == 4, "\(parts[0])/" == prefix, let port = UInt16(parts[3]) else { return ("", 0) }
    return (String(parts[2]), port)
  }
}
