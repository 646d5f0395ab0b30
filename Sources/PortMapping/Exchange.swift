import Glibc

/// One request and its answer over UDP or TCP to an IPv4 address, within a deadline and a size limit: the
/// only sockets this module opens. A gateway that never answers costs at most the time given.
enum Exchange {
  /// Seconds on a monotonic clock.
  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  static func address(_ host: String, _ port: UInt16) -> sockaddr_in? {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
    return address
  }

  /// A socket connected to `host:port` (non-blocking), or nil.
  static func connected(_ type: Int32, _ host: String, _ port: UInt16, until deadline: Double) -> Int32? {
    guard var address = address(host, port) else { return nil }
    let fd = socket(AF_INET, type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if status != 0 {
      guard errno == EINPROGRESS, wait(fd, Int16(POLLOUT), until: deadline) else {
        close(fd)
        return nil
      }
      var failure: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
      guard failure == 0 else {
        close(fd)
        return nil
      }
    }
    return fd
  }

  static func wait(_ fd: Int32, _ events: Int16, until deadline: Double) -> Bool {
    while true {
      let left = deadline - now()
      guard left > 0 else { return false }
      var poller = pollfd(fd: fd, events: events, revents: 0)
      let ready = poll(&poller, 1, Int32(max(1, min(left * 1000, 60_000))))
      if ready > 0 { return true }
      if ready < 0 && errno != EINTR { return false }
    }
  }

  /// The local address the kernel uses to reach `host` (the PCP client address), without sending anything.
  static func localAddress(toward host: String) -> [UInt8]? {
    guard let fd = connected(Int32(SOCK_DGRAM.rawValue), host, 5351, until: now() + 1) else { return nil }
    defer { close(fd) }
    var local = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let status = withUnsafeMutablePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard status == 0 else { return nil }
    return withUnsafeBytes(of: local.sin_addr.s_addr) { Array($0) }
  }

  /// Sends `request` to `host:port` over UDP, again at 0.25 s, 0.5 s, 1 s, …, and returns the first datagram
  /// that comes back from there, or nil at the deadline.
  static func udp(_ request: [UInt8], to host: String, port: UInt16, until deadline: Double, limit: Int) -> [UInt8]? {
    guard let fd = connected(Int32(SOCK_DGRAM.rawValue), host, port, until: deadline) else { return nil }
    defer { close(fd) }
    var interval = 0.25
    var nextSend = now()
    var buffer = [UInt8](repeating: 0, count: limit + 1)
    while now() < deadline {
      if now() >= nextSend {
        _ = send(fd, request, request.count, 0)
        nextSend = now() + interval
        interval *= 2
      }
      guard wait(fd, Int16(POLLIN), until: min(deadline, nextSend)) else { continue }
      let count = recv(fd, &buffer, buffer.count, 0)
      if count > 0 && count <= limit { return Array(buffer[0..<count]) }
    }
    return nil
  }

  /// Sends `request` over TCP to `host:port` and reads the reply until it is complete (HTTP), the other side
  /// closes, or the deadline; at most `limit` bytes are kept (more is refused).
  static func http(_ request: [UInt8], to host: String, port: UInt16, until deadline: Double, limit: Int)
    throws(HTTPError) -> HTTPReply
  {
    guard let fd = connected(Int32(SOCK_STREAM.rawValue), host, port, until: deadline) else {
      throw .malformed("no connection to \(host):\(port)")
    }
    defer { close(fd) }
    var sent = 0
    while sent < request.count {
      guard wait(fd, Int16(POLLOUT), until: deadline) else {
        throw .malformed("no answer from \(host):\(port) in time")
      }
      let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0 && errno != EAGAIN && errno != EINTR { throw .malformed("the request could not be sent") }
      if count > 0 { sent += count }
    }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      guard wait(fd, Int16(POLLIN), until: deadline) else {
        throw .malformed("no whole answer from \(host):\(port) in time")
      }
      let count = recv(fd, &chunk, chunk.count, 0)
      if count == 0 { return try HTTPReply.parse(received, ended: true, limit: limit) }
      if count < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        return try HTTPReply.parse(received, ended: true, limit: limit)
      }
      received += chunk[0..<count]
      if received.count > limit { throw .tooLarge(limit) }
      if HTTPReply.isComplete(received) { return try HTTPReply.parse(received, ended: false, limit: limit) }
    }
  }
}
