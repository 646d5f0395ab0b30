#if canImport(Glibc)
  import Glibc
#endif

/// TCP on 127.0.0.1 for the benchmark's own connections.
enum Loopback {
  /// 127.0.0.1:`port`.
  static func address(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }

  /// Starts a non-blocking connection to 127.0.0.1:`port`; the descriptor, or nil if the connect failed at once.
  static func connect(port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = address(port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 || errno == EINPROGRESS else {
      close(fd)
      return nil
    }
    return fd
  }
}
