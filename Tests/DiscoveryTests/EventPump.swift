import Glibc

@testable import Discovery

/// Drives advertisers, a browser and child processes on one poll() loop, as the game's event loop would,
/// recording every event, until a condition holds or a time bound passes.
final class EventPump {
  var advertisers: [Advertiser] = []
  var browser: Browser?
  var children: [ChildProcess] = []
  private(set) var browserEvents: [BrowserEvent] = []
  private(set) var advertiserEvents: [AdvertiserEvent] = []
  private(set) var advertiserErrors: [DiscoveryError] = []

  /// Polls until `condition()` is true (checked after every round) or `timeout` passes; returns the condition.
  @discardableResult
  func run(timeout: Duration, until condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
      let remaining = deadline - clock.now
      guard remaining > .zero else { return false }
      var fds = advertisers.compactMap(\.descriptor) + (browser?.descriptors ?? [])
      fds += children.compactMap(\.outputDescriptor)
      let readable = Readiness.wait(for: fds, timeout: min(remaining, .milliseconds(200)))
      for advertiser in advertisers {
        guard let descriptor = advertiser.descriptor, readable.contains(descriptor) else { continue }
        do {
          advertiserEvents += try advertiser.process()
        } catch {
          advertiserErrors.append(error)
        }
      }
      if let browser {
        browserEvents += browser.process(readable: readable)
      }
      for child in children {
        if let descriptor = child.outputDescriptor, readable.contains(descriptor) { child.readAvailable() }
      }
    }
    return true
  }

  /// The browser's current view of the game called `name`.
  func game(named name: String) -> DiscoveredGame? {
    browser?.games.first { $0.instanceName == name }
  }
}
