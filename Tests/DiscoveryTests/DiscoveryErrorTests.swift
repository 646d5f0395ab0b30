import Testing

@testable import Discovery

/// DNS-SD error codes in a player's words.
@Suite("DiscoveryError")
struct DiscoveryErrorTests {
  @Test("-65537 (what Avahi returns without a daemon) says the daemon is missing and what to do")
  func daemonMissing() {
    let error = DiscoveryError(number: -65_537, operation: .browsing)
    #expect(error.kind == .daemonUnavailable)
    #expect(
      error.message
        == "LAN discovery is unavailable: the avahi-daemon is not running (or D-Bus is not). Start it "
        + "(on Debian: `sudo systemctl start avahi-daemon`), or join by address.")
    #expect(error.description.hasSuffix("(DNS-SD error -65537 while looking for games)"))
  }

  @Test(
    "other codes map to kinds",
    arguments: [
      (Int32(-65_548), DiscoveryError.Kind.nameConflict), (-65_547, .nameConflict), (-65_540, .invalidInput),
      (-65_544, .unsupported), (-65_543, .unsupported), (-65_551, .daemonUnavailable), (-65_539, .other),
      (-1, .other),
    ])
  func kinds(code: Int32, kind: DiscoveryError.Kind) {
    let error = DiscoveryError(number: code, operation: .advertising)
    #expect(error.kind == kind)
    #expect(!error.message.isEmpty)
  }

  @Test("-65537 from a resolve means the game did not answer, not that the daemon is missing")
  func resolveTimeout() {
    let error = DiscoveryError(number: -65_537, operation: .resolving)
    #expect(error.kind == .noAnswer)
    #expect(error.message.hasPrefix("The game did not answer"))
  }

  @Test("a name conflict asks for another name")
  func nameConflict() {
    #expect(DiscoveryError(number: -65_548, operation: .advertising).message.contains("Choose another name"))
  }

  @Test("unknown codes show the number")
  func unknownCode() {
    #expect(DiscoveryError(number: -70_000, operation: .resolving).message.contains("-70000"))
  }
}

/// Names for a second game under a taken name.
@Suite("Alternative names")
struct AlternativeNameTests {
  @Test("Avahi's pattern, kept within 63 bytes at a character boundary")
  func alternative() {
    #expect(Advertiser.alternative("Alice", number: 2) == "Alice #2")
    let long = String(repeating: "é", count: 40)
    let renamed = Advertiser.alternative(long, number: 12)
    #expect(renamed.utf8.count <= 63)
    #expect(renamed.hasSuffix(" #12") && renamed.hasPrefix("ééé"))
  }
}
