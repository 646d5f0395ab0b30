import Discovery
import Glibc

/// Waits with poll() for DNS-SD descriptors to become readable, for the tests. (The program itself waits only
/// in its event loop; Discovery never blocks.)
enum Readiness {
  /// The descriptors that are readable (or hung up, or in error: the process calls then report it) within
  /// `timeout`; empty on timeout or when a signal interrupts the wait.
  static func wait(for descriptors: [Int32], timeout: Duration) -> Set<Int32> {
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let (seconds, attoseconds) = timeout.components
    let milliseconds = max(0, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    let count = fds.withUnsafeMutableBufferPointer { buffer in
      poll(buffer.baseAddress, nfds_t(buffer.count), Int32(milliseconds))
    }
    guard count > 0 else { return [] }
    var ready: Set<Int32> = []
    for entry in fds where entry.revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 {
      ready.insert(entry.fd)
    }
    return ready
  }
}

extension Browser {
  /// Polls `descriptors` for up to `timeout` and processes what is readable.
  func waitForEvents(timeout: Duration) -> [BrowserEvent] {
    process(readable: Readiness.wait(for: descriptors, timeout: timeout))
  }

  /// Browses until the games seen satisfy `found` or `bound` has passed (the bound only keeps a game that never
  /// shows up from hanging the test); the games seen by then.
  static func collectGames(
    within bound: Duration, until found: ([DiscoveredGame]) -> Bool
  ) throws(DiscoveryError) -> [DiscoveredGame] {
    let browser = try Browser()
    let clock = ContinuousClock()
    let deadline = clock.now + bound
    while !found(browser.games) && clock.now < deadline {
      for event in browser.waitForEvents(timeout: deadline - clock.now) {
        if case .failed(let error) = event { throw error }
      }
    }
    return browser.games
  }
}

extension Advertiser {
  /// Waits up to `timeout` for the descriptor and processes it.
  func waitForEvents(timeout: Duration) throws(DiscoveryError) -> [AdvertiserEvent] {
    guard let descriptor else { return [] }
    guard !Readiness.wait(for: [descriptor], timeout: timeout).isEmpty else { return [] }
    return try process()
  }
}
