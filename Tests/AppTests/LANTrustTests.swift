import Discovery
import Foundation
import PeerTrust
import Security
import Testing

@testable import App
@testable import FrontEnds
@testable import NetworkShell
@testable import TerminalUI

/// How a LAN game is judged before anyone connects: by its advertised key, never by its name (anyone can
/// announce any name, and Avahi renames clashing ones).
@Suite struct LANTrustTests {
  static let alice = try! Identity.generate(commonName: "alice")
  static let mallory = try! Identity.generate(commonName: "mallory")

  static func game(_ name: String, key: Fingerprint?, displayName: String? = nil) -> DiscoveredGame {
    let rules = ServiceTXT.Rules(rows: 3, columns: 3, k: 3)!
    let txt = ServiceTXT(
      protocolVersions: [1, 2], rules: rules, state: .waiting, fingerprint: key?.description ?? "none",
      displayName: displayName)
    return DiscoveredGame(
      id: ServiceID(name: name, type: "_tictactoe._tcp", domain: "local", interfaceIndex: 1), port: 7177,
      addresses: ["127.0.0.1"], txt: txt)
  }

  static let known = KnownPeers().adding(
    name: "Alice W", fingerprint: alice.fingerprint, date: CalendarDay(year: 2026, month: 11, day: 30)!)

  @Test func aTimedGameShowsItsClockInWordsAndInJSON() {
    var game = Self.game("alice", key: Self.alice.fingerprint)
    #expect(LANGames.row(game, known: Self.known).rules == "3×3, 3 in a row")
    game.txt?.clock = "5+3"
    #expect(LANGames.row(game, known: Self.known).rules == "3×3, 3 in a row, 5 min + 3 s a move")
    #expect(LANGames.json([game], known: Self.known).contains(#""clock":"5+3""#))
    // Characters of the grammar that do not make a clock are named, not shown.
    game.txt?.clock = "5+3+3"
    #expect(LANGames.row(game, known: Self.known).rules == "3×3, 3 in a row, a clock this program cannot read")
  }

  /// Version 4: the rule is named after the board, before the clock, in the list, the lobby's row and JSON.
  @Test func aRuleVariantIsShownAfterTheBoard() {
    var game = Self.game("alice", key: Self.alice.fingerprint)
    game.txt?.rule = "renju"
    game.txt?.clock = "5+3"
    let row = LANGames.row(game, known: Self.known)
    #expect(row.rules == "3×3, 3 in a row, renju, 5 min + 3 s a move")
    #expect(row.fields(glyphs: .ascii).contains("3x3, 3 in a row, renju, 5 min + 3 s a move"))
    #expect(LANGames.json([game], known: Self.known).contains(#""rule":"renju""#))
    game.txt?.rule = "gomoku9"
    #expect(LANGames.row(game, known: Self.known).rules.hasPrefix("3×3, 3 in a row, a rule this program cannot read"))
  }

  /// Version 4: the Swap2 opening is named after the rule, in the list, the lobby's row and JSON.
  @Test func anOpeningIsShownAfterTheRule() {
    var game = Self.game("alice", key: Self.alice.fingerprint)
    game.txt?.rule = "renju"
    game.txt?.opening = "swap2"
    #expect(LANGames.row(game, known: Self.known).rules == "3×3, 3 in a row, renju, Swap2")
    #expect(LANGames.json([game], known: Self.known).contains(#""opening":"swap2""#))
    game.txt?.opening = "swap9"
    #expect(LANGames.row(game, known: Self.known).rules.hasSuffix("an opening this program cannot read"))
  }

  @Test func aKnownKeyIsShownByTheNameThePlayerKnowsItBy() {
    let game = Self.game("alice", key: Self.alice.fingerprint)
    #expect(LANGames.trust(game, known: Self.known) == .known(as: "Alice W"))
    #expect(LANGames.row(game, known: Self.known).trust == "known as Alice W")
    // Under any name at all: the key decides.
    let renamed = Self.game("alice #2", key: Self.alice.fingerprint, displayName: "zed")
    #expect(LANGames.row(renamed, known: Self.known).trust == "known as Alice W")
    let named = Self.game("Alice W", key: Self.alice.fingerprint)
    #expect(LANGames.row(named, known: Self.known).trust == "known")
    #expect(LANGames.json([game], known: Self.known).contains(#""known_as":"Alice W""#))
  }

  /// A new key under a name like a known peer's is a new player, shown with a warning, not KEY CHANGED.
  @Test func aNewKeyUnderAKnownLookingNameIsANewPlayer() {
    let impostor = Self.game("alice", key: Self.mallory.fingerprint, displayName: "alice w\u{200B}")
    #expect(LANGames.trust(impostor, known: Self.known) == .lookalike(of: "Alice W"))
    let row = LANGames.row(impostor, known: Self.known)
    #expect(row.trust == "NEW KEY: not the Alice W you know" && row.isWarning)
    #expect(LANGames.json([impostor], known: Self.known).contains(#""trust":"lookalike""#))
    let stranger = Self.game("bob", key: Self.mallory.fingerprint)
    #expect(LANGames.trust(stranger, known: Self.known) == .new)
    #expect(!LANGames.row(stranger, known: Self.known).isWarning)
    #expect(LANGames.trust(Self.game("carol", key: nil), known: Self.known) == .unknownKey)
  }
}

/// `doctor`'s reading of firewall rules as nft and iptables print them.
@Suite struct DoctorFirewallTests {
  static let dropping = """
    table inet filter {
    \tchain input {
    \t\ttype filter hook input priority filter; policy drop;
    \t\tct state established,related accept
    \t\ttcp dport 22 accept
    \t}
    \tchain output {
    \t\ttype filter hook output priority filter; policy accept;
    \t}
    }
    """

  @Test func anInputChainThatDropsAndDoesNotAcceptThePortIsFound() {
    #expect(Doctor.firewallDrops(port: 7177, nftables: Self.dropping, iptables: nil)?.contains("nftables") == true)
    let opened = Self.dropping.replacingOccurrences(of: "tcp dport 22 accept", with: "tcp dport { 22, 7177 } accept")
    #expect(Doctor.firewallDrops(port: 7177, nftables: opened, iptables: nil) == nil)
    let accepting = Self.dropping.replacingOccurrences(of: "policy drop", with: "policy accept")
    #expect(Doctor.firewallDrops(port: 7177, nftables: accepting, iptables: nil) == nil)
    let finalDrop = accepting.replacingOccurrences(of: "tcp dport 22 accept", with: "tcp dport 22 accept\n\t\tdrop")
    #expect(Doctor.firewallDrops(port: 7177, nftables: finalDrop, iptables: nil) != nil)
    #expect(Doctor.firewallDrops(port: 7177, nftables: "", iptables: "-P INPUT ACCEPT\n") == nil)
    #expect(
      Doctor.firewallDrops(port: 7177, nftables: nil, iptables: "-P INPUT DROP\n-A INPUT -p tcp --dport 22 -j ACCEPT\n")
        != nil)
    #expect(
      Doctor.firewallDrops(
        port: 7177, nftables: nil, iptables: "-P INPUT DROP\n-A INPUT -p tcp -m tcp --dport 7177 -j ACCEPT\n") == nil)
  }
}

@Suite struct GlobalIPv6Tests {
  @Test func onlyGlobalUnicastAddressesCount() {
    for address in ["2001:db8:1::2", "2a00:1450::1", "3fff::1"] {
      #expect(PortMappingOnLoop.isGlobalIPv6(address), "\(address)")
    }
    for address in ["fe80::1", "fd00::2", "::1", "ff02::1", "10.0.0.1", "4000::1"] {
      #expect(!PortMappingOnLoop.isGlobalIPv6(address), "\(address)")
    }
  }
}
