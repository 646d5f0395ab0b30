import COpenSSL
import EventLoop
import PeerTrust
import Security
import Transport

#if canImport(Glibc)
  import Glibc
#endif

/// The load benchmark's baseline server: a minimal TLS echo written straight against OpenSSL's C API (the
/// `BaselineContext` settings: TLS 1.3, client certificate pinned, the same ALPN), on one event loop (the
/// project's epoll-based `PollSet`, as the bot host uses) with OpenSSL's own socket BIOs. It sends back every byte it reads and keeps no other state. Run as a child
/// process (`--echo-server DIR`) so its memory and CPU time are its own.
enum EchoServer {
  /// The argument that makes this program serve as the echo baseline instead of benchmarking.
  static let argument = "--echo-server"

  /// Where the parent leaves the server's identity and the client's pin for the child.
  struct Files {
    let directory: String
    var certificate: String { directory + "/echo-certificate.pem" }
    var key: String { directory + "/echo-key.pem" }
    var clientPin: String { directory + "/client-pin.txt" }
  }

  /// Runs in the child: listens on 127.0.0.1 (a free port), prints `port N`, and echoes until killed.
  static func serve(_ files: Files) throws -> Never {
    OpenFiles.raiseLimit()
    guard let certificate = ProcFile.read(files.certificate), let key = ProcFile.read(files.key),
      let pinText = ProcFile.read(files.clientPin),
      let pin = pinText.split(whereSeparator: \.isWhitespace).first.flatMap({ Fingerprint(parsing: String($0)) })?.bytes
    else { throw BenchError("the echo server's files in \(files.directory) are missing or unreadable") }
    let context = try BaselineContext(
      server: true, certificatePEM: certificate, privateKeyPEM: key, pinnedSPKISHA256: pin)
    let listener = try listen()
    print("port \(localPort(listener))")
    fflush(nil)
    let pollSet = PollSet()
    pollSet.insert(listener, events: Int16(POLLIN))
    var connections: [Int32: OpaquePointer] = [:]
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      for (fd, _) in pollSet.wait(timeout: -1) {
        if fd == listener {
          while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { break }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            guard let ssl = SSL_new(context.pointer) else {
              close(fd)
              continue
            }
            SSL_set_fd(ssl, fd)
            SSL_set_accept_state(ssl)
            connections[fd] = ssl
            pollSet.insert(fd, events: Int16(POLLIN))
          }
        } else if let ssl = connections[fd], !echo(ssl, &buffer) {
          pollSet.remove(fd)
          connections.removeValue(forKey: fd)
          SSL_free(ssl)
          close(fd)
        }
      }
    }
  }

  /// Reads what the connection has (finishing the handshake first) and writes it back. False when it is over.
  private static func echo(_ ssl: OpaquePointer, _ buffer: inout [UInt8]) -> Bool {
    while true {
      let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
      if count > 0 {
        let written = buffer.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, count) }
        if written != count { return false }
        continue
      }
      let error = SSL_get_error(ssl, count)
      ERR_clear_error()
      return error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE
    }
  }

  private static func listen() throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard fd >= 0, bound == 0, Glibc.listen(fd, 4096) == 0 else {
      throw BenchError("the echo server cannot listen: \(String(cString: strerror(errno)))")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return fd
  }

  private static func localPort(_ fd: Int32) -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }
}

/// The number of descriptors this process may open: a thousand connections need more than the usual 1,024.
enum OpenFiles {
  static func raiseLimit() {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    setrlimit(resource, &limit)
  }
}
