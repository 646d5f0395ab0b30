import Glibc
import NetworkFacts

/// Thin wrappers over the BSD socket calls: non-blocking TCP, IPv4 and IPv6.
public enum Sockets {
  /// Listens on `bind` (nil: every address, IPv6 and IPv4 through one dual-stack socket) and `port` (0: any
  /// free port), with room for `backlog` connections waiting to be accepted. Returns the listening descriptors.
  public static func listen(bind: String?, port: UInt16, backlog: Int32 = 16) throws(NetworkError) -> [Int32] {
    let label = "\(bind ?? "*"):\(port)"
    if bind == nil {
      if let fd = try? listenOne(family: AF_INET6, address: "::", port: port, dualStack: true, backlog: backlog) {
        return [fd]
      }
      return [try listenOne(family: AF_INET, address: "0.0.0.0", port: port, dualStack: false, backlog: backlog)]
    }
    var hints = addrinfo()
    hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var result: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(bind, String(port), &hints, &result)
    guard status == 0, let first = result else {
      throw .cannotListen(label, reason: "\(bind ?? "") is not an IP address of this machine")
    }
    defer { freeaddrinfo(result) }
    return [
      try listenOne(
        family: first.pointee.ai_family, address: bind ?? "", port: port, dualStack: false, backlog: backlog)
    ]
  }

  private static func listenOne(
    family: Int32, address: String, port: UInt16, dualStack: Bool, backlog: Int32
  ) throws(NetworkError) -> Int32 {
    let label = family == AF_INET6 ? "[\(address)]:\(port)" : "\(address):\(port)"
    let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw .cannotListen(label, reason: errorText()) }
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    if family == AF_INET6 {
      var v6only: Int32 = dualStack ? 0 : 1
      setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &v6only, socklen_t(MemoryLayout<Int32>.size))
    }
    var storage = sockaddr_storage()
    let length = fill(&storage, family: family, address: address, port: port)
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
      let reason = errno == EADDRINUSE ? "the port is already in use" : errorText()
      close(fd)
      throw .cannotListen(label, reason: reason)
    }
    setNonBlocking(fd)
    return fd
  }

  private static func fill(_ storage: inout sockaddr_storage, family: Int32, address: String, port: UInt16) -> socklen_t
  {
    if family == AF_INET6 {
      return withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
          sin6.pointee.sin6_family = sa_family_t(AF_INET6)
          sin6.pointee.sin6_port = port.bigEndian
          inet_pton(AF_INET6, address, &sin6.pointee.sin6_addr)
          return socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
      }
    }
    return withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
        sin.pointee.sin_family = sa_family_t(AF_INET)
        sin.pointee.sin_port = port.bigEndian
        inet_pton(AF_INET, address, &sin.pointee.sin_addr)
        return socklen_t(MemoryLayout<sockaddr_in>.size)
      }
    }
  }

  /// The port a listening socket got (when asked for port 0).
  public static func localPort(_ fd: Int32) -> UInt16 {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return describe(storage).port
  }

  /// Accepts one waiting connection: its descriptor (non-blocking) and the peer's address.
  public static func accept(_ listener: Int32) -> (fd: Int32, peer: String)? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let fd = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
    }
    guard fd >= 0 else { return nil }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    setNonBlocking(fd)
    setNoDelay(fd)
    let (host, port) = describe(storage)
    return (fd, host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
  }

  /// Why a connection started without waiting failed (nil while it is fine or still connecting). Reading it
  /// clears it: call it when poll reports the socket ready.
  public static func connectFailure(_ fd: Int32, _ endpoint: Endpoint) -> NetworkError? {
    var code: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0, code != 0 else { return nil }
    return classify(code, endpoint, 0)
  }

  /// The numeric address and port a connected socket reaches (nil when it is not connected).
  public static func remoteEndpoint(_ fd: Int32) -> Endpoint? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let status = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
    }
    guard status == 0 else { return nil }
    let (host, port) = describe(storage)
    var scope: UInt32 = 0
    if Int32(storage.ss_family) == AF_INET6 {
      scope = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_scope_id }
      }
    }
    // A link-local address needs its interface to be reached again (fe80::1%2).
    return Endpoint(host: scope != 0 ? "\(host)%\(scope)" : host, port: port)
  }

  /// One address a name resolved to, ready to connect to (IPv6 link-local ones carry their interface): a pure
  /// value, so the deciding parts can carry it.
  public typealias Address = ResolvedAddress

  /// The address held in `storage`, as the sockets' `Address`.
  static func address(
    _ storage: sockaddr_storage, length: socklen_t, source: (storage: sockaddr_storage, length: socklen_t)? = nil
  ) -> Address {
    let (host, port) = describe(storage)
    return Address(
      bytes: bytes(of: storage, length: length), source: source.map { bytes(of: $0.storage, length: $0.length) },
      family: Int32(storage.ss_family), description: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
  }

  private static func bytes(of storage: sockaddr_storage, length: socklen_t) -> [UInt8] {
    withUnsafeBytes(of: storage) { Array($0.prefix(Int(length))) }
  }

  /// Runs `body` with `bytes` as a `sockaddr` and its length.
  private static func withSockaddr<T>(_ bytes: [UInt8], _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var storage = sockaddr_storage()
    withUnsafeMutableBytes(of: &storage) { target in
      bytes.prefix(target.count).withUnsafeBytes { target.copyMemory(from: $0) }
    }
    let length = socklen_t(min(bytes.count, MemoryLayout<sockaddr_storage>.size))
    return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
  }

  /// Every address `endpoint` names, in getaddrinfo's order. This may block on DNS: call it off the event
  /// loop (`EventLoop.perform`), or with `numericOnly`, which reads a numeric address without any lookup and
  /// refuses a name (`hostNotFound`).
  public static func resolve(_ endpoint: Endpoint, numericOnly: Bool = false) throws(NetworkError) -> [Address] {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_ADDRCONFIG | (numericOnly ? AI_NUMERICHOST : 0)
    var result: UnsafeMutablePointer<addrinfo>?
    var host = endpoint.host
    var scope: UInt32 = 0
    if let percent = host.firstIndex(of: "%") {  // fe80::1%eth0 or fe80::1%2
      let zone = String(host[host.index(after: percent)...])
      scope = UInt32(zone) ?? if_nametoindex(zone)
      host = String(host[..<percent])
    }
    let status = getaddrinfo(host, String(endpoint.port), &hints, &result)
    guard status == 0, result != nil else {
      throw .hostNotFound(endpoint.host, reason: String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(result) }
    var addresses: [Address] = []
    var entry = result
    while let info = entry {
      entry = info.pointee.ai_next
      if scope != 0 && info.pointee.ai_family == AF_INET6 {
        info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_scope_id = scope }
      }
      var storage = sockaddr_storage()
      let length = min(info.pointee.ai_addrlen, socklen_t(MemoryLayout<sockaddr_storage>.size))
      withUnsafeMutableBytes(of: &storage) { target in
        target.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(length)))
      }
      addresses.append(address(storage, length: length))
    }
    guard !addresses.isEmpty else { throw .unreachable(endpoint, reason: "no usable address") }
    return addresses
  }

  /// Starts connecting to `address` without waiting: the socket returned is non-blocking and may still be
  /// connecting. Poll it for POLLOUT, then `connectFailure` says whether it worked.
  public static func startConnect(_ address: Address, endpoint: Endpoint) throws(NetworkError) -> Int32 {
    let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw .unreachable(endpoint, reason: String(cString: strerror(errno))) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    setNonBlocking(fd)
    setNoDelay(fd)
    if let source = address.source {
      guard withSockaddr(source, { bind(fd, $0, $1) }) == 0 else {
        let failure = NetworkError.unreachable(endpoint, reason: String(cString: strerror(errno)))
        close(fd)
        throw failure
      }
    }
    let status = withSockaddr(address.bytes) { Glibc.connect(fd, $0, $1) }
    if status == 0 || errno == EINPROGRESS { return fd }
    let failure = classify(errno, endpoint, 0)
    close(fd)
    throw failure
  }

  /// Resolves `endpoint` and connects to the first address that answers, waiting at most `timeout` seconds
  /// per address; the socket returned is non-blocking. This blocks: for tests, tools and the benchmark only
  /// (the game resolves off its loop and connects with `startConnect`).
  public static func connect(_ endpoint: Endpoint, timeout: Int = 10) throws(NetworkError) -> Int32 {
    var lastError: NetworkError = .unreachable(endpoint, reason: "no usable address")
    for address in try resolve(endpoint) {
      let fd: Int32
      do {
        fd = try startConnect(address, endpoint: endpoint)
      } catch {
        lastError = error
        continue
      }
      var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      var ready: Int32
      repeat { ready = poll(&pfd, 1, Int32(timeout * 1000)) } while ready < 0 && errno == EINTR
      if ready == 0 {
        lastError = .timedOut(endpoint, seconds: timeout)
        close(fd)
        continue
      }
      guard let failure = connectFailure(fd, endpoint) else { return fd }
      lastError = failure
      close(fd)
    }
    throw lastError
  }

  private static func classify(_ code: Int32, _ endpoint: Endpoint, _ timeout: Int) -> NetworkError {
    switch code {
    case ECONNREFUSED: return .connectionRefused(endpoint)
    case ETIMEDOUT: return .timedOut(endpoint, seconds: timeout)
    default: return .unreachable(endpoint, reason: String(cString: strerror(code)))
    }
  }

  static func setNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }

  /// Sends each write at once (no Nagle delay). Every write is a whole message in its own TLS record, so
  /// holding a small one back until the previous is acknowledged only adds latency: a move sent right after
  /// another message (the coin toss's last step, a heartbeat, a chat line) waited for the peer's delayed
  /// acknowledgement, 40 ms.
  static func setNoDelay(_ fd: Int32) {
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Turns TCP keepalive on for `fd` with `settings`; false if the system refused any of them.
  @discardableResult
  public static func setKeepAlive(_ fd: Int32, _ settings: KeepAlive) -> Bool {
    let size = socklen_t(MemoryLayout<Int32>.size)
    var one: Int32 = 1
    var idle = settings.idle
    var interval = settings.interval
    var count = settings.count
    return setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, size) == 0
      && setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, size) == 0
      && setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &interval, size) == 0
      && setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, &count, size) == 0
  }

  static func errorText() -> String { String(cString: strerror(errno)) }

  private static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func describe(_ storage: sockaddr_storage) -> (host: String, port: UInt16) {
    if Int32(storage.ss_family) == AF_UNIX { return MemoryNetwork.describe(storage) }
    var storage = storage
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    if Int32(storage.ss_family) == AF_INET6 {
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
          var address = sin6.pointee.sin6_addr
          inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
          var host = text(buffer)
          if host.hasPrefix("::ffff:") && host.contains(".") { host = String(host.dropFirst(7)) }
          return (host, UInt16(bigEndian: sin6.pointee.sin6_port))
        }
      }
    }
    return withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
        var address = sin.pointee.sin_addr
        inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        return (text(buffer), UInt16(bigEndian: sin.pointee.sin_port))
      }
    }
  }

  /// This machine's addresses a friend could connect to: loopback left out, link-local (fe80::) ones last and
  /// with their zone, the interface they are on (`fe80::1%eth0`).
  public static func localAddresses() -> [String] {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return [] }
    defer { freeifaddrs(list) }
    var result: [String] = []
    var linkLocal: [String] = []
    var entry = list
    while let item = entry {
      entry = item.pointee.ifa_next
      guard let address = item.pointee.ifa_addr else { continue }
      let family = Int32(address.pointee.sa_family)
      guard family == AF_INET || family == AF_INET6 else { continue }
      var storage = sockaddr_storage()
      let size = family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size
      withUnsafeMutableBytes(of: &storage) { target in
        target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: size))
      }
      let host = describe(storage).host
      if host == "127.0.0.1" || host == "::1" { continue }
      if host.hasPrefix("fe80") {
        linkLocal.append(host + "%" + String(cString: item.pointee.ifa_name))
      } else {
        result.append(host)
      }
    }
    return result + linkLocal
  }
}
