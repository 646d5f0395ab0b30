import Foundation
import Testing

@testable import Security

/// Replays the `invite` fuzzer's saved inputs (InviteFuzzCorpus/, one file per input; scripts/fuzz.sh adds every
/// crash it finds) with the target's invariants, and checks each comes to the outcome listed for it.
@Suite struct InviteFuzzRegressionTests {
  enum Outcome: Equatable {
    /// Parses, to an invite with this many addresses.
    case parses(addresses: Int)
    /// Parses, to an invite with this many addresses and a relay.
    case parsesWithRelay(addresses: Int)
    case refused(InviteError)
  }

  /// Each saved input's outcome. A new input (a crash scripts/fuzz.sh saved) fails its replay until it is
  /// triaged and listed here.
  static let expected: [String: Outcome] = [
    "three-addresses": .parses(addresses: 3),
    "copied-line-with-zone": .parses(addresses: 1),
    "osc-in-address": .refused(.badAddress("\u{1B}]52;c;Y3VybA==\u{07}/1")),
    "nul-in-zone": .refused(.badAddress("fe80::1%e\u{0}th0/7177")),
    "plus-in-port": .refused(.badPort("h/+1")),
    "changed-character": .refused(.checkFailed),
    "relay-last": .parsesWithRelay(addresses: 2),
    "relay-not-last": .refused(
      .badRelay("relay:relay.example/4001/ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8")),
    "relay-octal-host": .refused(
      .hiddenAddress(
        "\"0177.0.0.1\" would be taken for the address 127.0.0.1 (a number not written as four decimal numbers from"
          + " 0 to 255); write 127.0.0.1 if that is the one meant")),
    "relay-hex-token": .refused(
      .badRelay("relay:relay.example/4001/202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f")),
  ]

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "InviteFuzzCorpus")

  static var inputs: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }

  @Test func corpusIsThere() {
    #expect(!Self.inputs.isEmpty, "no inputs in \(Self.directory.path)")
  }

  @Test(arguments: Self.inputs)
  func replay(name: String) throws {
    let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
    let text = String(decoding: data, as: UTF8.self)
    let outcome: Outcome
    switch Result(catching: { () throws(InviteError) in try Invite.parse(text) }) {
    case .success(let invite):
      let again = try Invite.parse(invite.description)
      #expect(again == invite && again.description == invite.description)
      outcome =
        invite.relay == nil
        ? .parses(addresses: invite.addresses.count) : .parsesWithRelay(addresses: invite.addresses.count)
    case .failure(let error):
      let words = error.description.unicodeScalars
      #expect(!words.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(error)")
      outcome = .refused(error)
    }
    #expect(Self.expected[name] == outcome, "\(name) came to \(outcome); list it in `expected` once triaged")
  }
}
