import Foundation
import Glibc
import Testing

@testable import App
@testable import OutsideEngines

/// The outside engine's process, started directly: what it inherits from us.
@Suite struct EngineProcessTests {
  /// All the engine writes on its standard output until it closes it (waited for 30 s at most).
  static func output(of process: EngineProcess) -> String {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let deadline = Date.now + 30
    while Date.now < deadline {
      var watched = pollfd(fd: process.output, events: Int16(POLLIN), revents: 0)
      guard poll(&watched, 1, 1000) >= 0 else { break }
      let count = read(process.output, &chunk, chunk.count)
      if count == 0 { break }
      if count > 0 { bytes += chunk[0..<count] }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test("the engine gets only its standard input, output and error, even when we hold a descriptor without CLOEXEC")
  func noOtherDescriptor() throws {
    // As a listening socket or a library's socketpair would be: open, and not close-on-exec.
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    let file = open("/dev/null", O_RDONLY)
    defer {
      close(socket)
      close(file)
    }
    try #require(socket >= 0 && file >= 0)
    // Listening, as Sockets.listenOne's socket would be while a game starts (on 127.0.0.1, a port the kernel picks).
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    try #require(bound == 0 && listen(socket, 1) == 0)
    #expect(fcntl(socket, F_GETFD) & FD_CLOEXEC == 0 && fcntl(file, F_GETFD) & FD_CLOEXEC == 0)
    // The program ignores SIGPIPE (main.swift): END written to an engine that has exited must not end the tests.
    signal(SIGPIPE, SIG_IGN)
    let process = try EngineProcess([
      "python3", "-c", "import os; print(sorted(int(f) for f in os.listdir('/proc/self/fd')))",
    ])
    defer { process.stop() }
    // Python's listing holds one descriptor of its own (3) while it reads the directory.
    #expect(Self.output(of: process).trimmingCharacters(in: .whitespacesAndNewlines) == "[0, 1, 2, 3]")
    // Our ends of its pipes are close-on-exec: nothing else we start inherits them.
    for fd in [process.output, process.errors] { #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0) }
  }
}
