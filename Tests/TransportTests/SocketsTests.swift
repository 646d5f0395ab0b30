import Glibc
import NetworkFacts
import Testing

@testable import Transport

/// Socket options the transport relies on, read back from real loopback sockets.
@Suite struct SocketsTests {
  private func noDelay(_ fd: Int32) -> Int32 {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length)
    return value
  }

  @Test func bothEndsSendSmallMessagesWithoutWaiting() throws {
    let listeners = try Sockets.listen(bind: "127.0.0.1", port: 0)
    defer { for fd in listeners { close(fd) } }
    let listener = try #require(listeners.first)
    let client = try Sockets.connect(Endpoint(host: "127.0.0.1", port: Sockets.localPort(listener)))
    defer { close(client) }
    var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    #expect(poll(&pfd, 1, 5_000) == 1)
    let accepted = try #require(Sockets.accept(listener))
    defer { close(accepted.fd) }
    #expect(noDelay(client) != 0, "Nagle is on for the joiner's socket")
    #expect(noDelay(accepted.fd) != 0, "Nagle is on for the host's socket")
  }

  /// A reconnection reads the address the host was reached at without a lookup: a numeric one is read, a name
  /// is refused at once (it would have been looked up on the loop).
  @Test func aNumericOnlyResolveReadsAddressesAndRefusesNames() throws {
    #expect(try Sockets.resolve(Endpoint(host: "127.0.0.1", port: 7177), numericOnly: true).count == 1)
    #expect(try Sockets.resolve(Endpoint(host: "::1", port: 7177), numericOnly: true).first?.family == AF_INET6)
    #expect(throws: NetworkError.self) {
      try Sockets.resolve(Endpoint(host: "localhost", port: 7177), numericOnly: true)
    }
    #expect(try !Sockets.resolve(Endpoint(host: "localhost", port: 7177)).isEmpty, "a lookup finds it")
  }
}

/// The addresses a host offers: never loopback; link-local ones last, each with the interface it is on.
@Suite struct LocalAddressesTests {
  @Test func linkLocalAddressesComeLastWithTheirZone() {
    let addresses = Sockets.localAddresses()
    #expect(!addresses.contains("127.0.0.1") && !addresses.contains("::1"))
    let linkLocal = addresses.filter { $0.hasPrefix("fe80") }
    for address in linkLocal {
      let zone = address.split(separator: "%").last.map(String.init) ?? ""
      #expect(address.contains("%") && if_nametoindex(zone) != 0, "\(address) names no interface")
    }
    if let first = addresses.firstIndex(where: { $0.hasPrefix("fe80") }) {
      #expect(addresses[first...].allSatisfy { $0.hasPrefix("fe80") }, "\(addresses)")
    }
    // Every one is an address the joiner's side parses, zone and all.
    for address in addresses {
      let text = address.contains(":") ? "[\(address)]:7177" : "\(address):7177"
      #expect(Endpoint(parsing: text)?.host == address, "\(text)")
    }
  }
}
