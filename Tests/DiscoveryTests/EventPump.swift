import Glibc
import TestSupport

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
      process(Readiness.wait(for: descriptors, timeout: min(remaining, .milliseconds(200))))
    }
    return true
  }

  /// Processes what is readable, without waiting, until no descriptor is: the number of rounds that had work,
  /// or nil when some descriptor was still readable after `limit` rounds (it would keep a loop spinning).
  func roundsUntilQuiet(atMost limit: Int) -> Int? {
    for round in 0...limit {
      let readable = Readiness.wait(for: descriptors, timeout: .zero)
      if readable.isEmpty { return round }
      process(readable)
    }
    return nil
  }

  private var descriptors: [Int32] {
    advertisers.compactMap(\.descriptor) + (browser?.descriptors ?? []) + children.compactMap(\.outputDescriptor)
  }

  /// Handles one round of readable descriptors, recording the events.
  private func process(_ readable: Set<Int32>) {
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

  /// The browser's current view of the game called `name`.
  func game(named name: String) -> DiscoveredGame? {
    browser?.games.first { $0.instanceName == name }
  }
}
