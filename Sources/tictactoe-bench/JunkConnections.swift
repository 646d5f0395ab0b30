import GameCore

#if canImport(Glibc)
  import Glibc
#endif

/// Hostile connections to a host, run in a child process (`--junk-probe PORT COUNT`): COUNT connections open at
/// once, in turn silent, sending random bytes, sending an HTTP request, and sending the start of a TLS hello one
/// byte a second. Each the host closes is opened again a second later, so COUNT stay open as far as the
/// host allows. Prints "open N" once each has connected at least once, then "open N closed M" (N: connected
/// now, M: closed by the host so far) every second. Runs until killed.
enum JunkConnections {
  static let probeArgument = "--junk-probe"

  enum Kind: CaseIterable {
    case silent
    case garbage
    case http
    case slow
  }

  /// What is sent at once after connecting (the slow kind sends its bytes one a second instead).
  static func opening(_ kind: Kind, random: inout SplitMix) -> [UInt8] {
    switch kind {
    case .silent, .slow:
      return []
    case .garbage:
      // Random bytes, never starting like a TLS record (0x16).
      return [0] + (0..<63).map { _ in UInt8.random(in: 0...255, using: &random) }
    case .http:
      return Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
    }
  }

  /// The slow kind's bytes: a TLS record header announcing a ClientHello, then a hello that never completes.
  static let slowBytes: [UInt8] =
    [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]
    + Array(
      repeating: 0x42, count: 64)

  private struct Slot {
    var kind: Kind
    var fd: Int32 = -1
    var connected = false
    var everConnected = false
    var reopenAt = 0.0
    var slowIndex = 0
  }

  static func run(port: UInt16, count: Int) -> Never {
    var random = SplitMix(seed: 6)
    var slots = (0..<count).map { Slot(kind: Kind.allCases[$0 % Kind.allCases.count]) }
    var closedByHost = 0
    var announced = false
    var nextTick = Clock.seconds() + 1
    while true {
      let now = Clock.seconds()
      for index in slots.indices where slots[index].fd < 0 && now >= slots[index].reopenAt {
        slots[index].fd = Loopback.connect(port: port) ?? -1
        slots[index].connected = false
        slots[index].slowIndex = 0
        if slots[index].fd < 0 { slots[index].reopenAt = now + 1 }
      }
      if now >= nextTick {
        nextTick = now + 1
        for index in slots.indices where slots[index].kind == .slow && slots[index].connected {
          let position = slots[index].slowIndex % slowBytes.count
          send(&slots[index], [slowBytes[position]])
          slots[index].slowIndex += 1
        }
        let open = slots.filter(\.connected).count
        if announced { say("open \(open) closed \(closedByHost)") }
      }
      var fds = slots.map { slot in
        pollfd(fd: slot.fd, events: Int16(slot.connected ? POLLIN : POLLOUT), revents: 0)
      }
      _ = poll(&fds, nfds_t(fds.count), 100)
      for index in slots.indices where slots[index].fd >= 0 && fds[index].revents != 0 {
        if !slots[index].connected {
          var error: Int32 = 0
          var length = socklen_t(MemoryLayout<Int32>.size)
          getsockopt(slots[index].fd, SOL_SOCKET, SO_ERROR, &error, &length)
          if error == 0 && fds[index].revents & Int16(POLLOUT) != 0 {
            slots[index].connected = true
            slots[index].everConnected = true
            send(&slots[index], opening(slots[index].kind, random: &random))
          } else {
            drop(&slots[index])
          }
          continue
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let read = Glibc.read(slots[index].fd, &buffer, buffer.count)
        if read == 0 || (read < 0 && errno != EAGAIN && errno != EINTR) {
          drop(&slots[index])
          closedByHost += 1
        }
      }
      if !announced && slots.allSatisfy(\.everConnected) {
        announced = true
        say("open \(count)")
      }
    }
  }

  private static func send(_ slot: inout Slot, _ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    let written = bytes.withUnsafeBytes { Glibc.send(slot.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    if written < 0 && errno != EAGAIN { drop(&slot) }
  }

  private static func drop(_ slot: inout Slot) {
    if slot.fd >= 0 { close(slot.fd) }
    slot.fd = -1
    slot.connected = false
    slot.reopenAt = Clock.seconds() + 1
  }

  private static func say(_ line: String) {
    try? Descriptor.write(1, Array((line + "\n").utf8))
  }
}
