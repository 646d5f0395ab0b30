import Discovery
import EventLoop
import FrontEnds
import Glibc
import NetworkFacts
import NetworkShell
import PlayerFiles
import PortMapping
import Security
import Transport
import UntrustedText

/// `tictactoe doctor`: what stands between this machine and a game, each with a verdict and a hint. It asks the
/// router only when told to (`--router`), and then only questions that change nothing on it.
enum Doctor {
  enum Verdict: String {
    case ok = "ok"
    case note = "note"
    case problem = "PROBLEM"
  }

  struct Finding: Equatable {
    var verdict: Verdict
    var topic: String
    var text: String
  }

  /// A firewall's rules, as `nft list ruleset` and `iptables -S INPUT` print them: whether they would drop TCP
  /// `port` coming in. Pure: a drop policy (or a final drop or reject) on an input chain, with no accept for the
  /// port in it.
  static func firewallDrops(port: UInt16, nftables: String?, iptables: String?) -> String? {
    if let nftables {
      var chain: [String] = []
      var inInput = false
      for line in nftables.split(separator: "\n") {
        let text = String(line).trimmingWhitespace()
        if text.hasPrefix("chain ") {
          chain = []
          inInput = false
        }
        if text.contains("hook input") { inInput = true }
        chain.append(text)
        if text == "}" && inInput {
          let drops =
            chain.contains { $0.contains("policy drop") } || chain.last(where: { $0 != "}" })?.hasPrefix("drop") == true
            || chain.last(where: { $0 != "}" })?.hasPrefix("reject") == true
          if drops && !accepts(port, chain) {
            return "an nftables input chain drops what it does not accept, and does not accept TCP port \(port)"
          }
          inInput = false
        }
      }
    }
    if let iptables {
      let lines = iptables.split(separator: "\n").map(String.init)
      if lines.contains(where: { $0.hasPrefix("-P INPUT DROP") || $0.hasPrefix("-P INPUT REJECT") })
        && !lines.contains(where: { $0.contains("--dport \(port)") && $0.contains("-j ACCEPT") })
      {
        return "iptables drops input by default and does not accept TCP port \(port)"
      }
    }
    return nil
  }

  private static func accepts(_ port: UInt16, _ rules: [String]) -> Bool {
    rules.contains { rule in
      guard rule.contains("accept"), rule.contains("dport") else { return false }
      let words = rule.split(whereSeparator: { " {},".contains($0) })
      return words.contains { $0 == "\(port)" }
    }
  }

  static func run(paths: Paths, profile: Profile, router: Bool, port: UInt16 = Endpoint.defaultPort) -> Int32 {
    var findings = fileFindings(paths: paths, profile: profile)
    findings += lanFindings()
    findings += routerFindings(paths: paths, router: router, port: port)
    findings.append(firewallFinding(port: port))
    // Only a relay the player named is connected to.
    findings.append(RelayProbe.finding(settings: (try? SettingsFile.load(from: paths.settingsFile))?.relay))
    for finding in findings {
      let verdict = finding.verdict.rawValue.padding(7)
      // At a terminal a long finding goes on under its topic, clear of the verdicts' column.
      writeMessage(1, "\(verdict) \(finding.topic): \(finding.text)\n", hang: 8)
    }
    return findings.contains { $0.verdict == .problem } ? ExitStatus.failure : ExitStatus.ok
  }

  /// The player's files: the identity, the known peers and the settings, each read as a game would read it.
  private static func fileFindings(paths: Paths, profile: Profile) -> [Finding] {
    var findings: [Finding] = []
    do {
      if let identity = try IdentityStore(directory: profile.identityDirectory).load() {
        findings.append(
          Finding(
            .ok, "identity",
            "\(PeerText(identity.commonName)), key \(identity.fingerprint) (\(profile.identityDirectory))"))
      } else {
        findings.append(Finding(.note, "identity", "none yet: one is made the first time you host or join"))
      }
    } catch {
      findings.append(Finding(.problem, "identity", "\(error)"))
    }
    do {
      let known = try profile.knownPeers()
      findings.append(Finding(.ok, "known peers", "\(known.entries.count) in \(profile.knownPeersPath)"))
    } catch {
      findings.append(Finding(.problem, "known peers", "\(error)"))
    }
    do {
      _ = try SettingsFile.load(from: paths.settingsFile)
      let saved = FileSystem.exists(paths.settingsFile) ? paths.settingsFile : "none saved (the defaults)"
      findings.append(Finding(.ok, "settings", saved))
    } catch {
      findings.append(Finding(.problem, "settings", "\(error)"))
    }
    return findings
  }

  /// The LAN: whether the avahi-daemon answers, this machine's addresses, and whether one of them is global IPv6.
  private static func lanFindings() -> [Finding] {
    var findings: [Finding] = []
    do {
      _ = try Browser()
      findings.append(Finding(.ok, "LAN discovery", "the avahi-daemon answers over D-Bus"))
    } catch {
      findings.append(Finding(.problem, "LAN discovery", error.message + " Hosting and joining by address still work."))
    }
    return findings + addressFindings(Sockets.localAddresses())
  }

  /// This machine's addresses (loopback left out) and what kind of IPv6 it has. Pure. Only a global unicast
  /// address (2000::/3) is called global: a link-local one (fe80::/10) reaches this link only and a unique local
  /// one (fc00::/7) this site only, so neither brings friends on the internet.
  static func addressFindings(_ addresses: [String]) -> [Finding] {
    guard !addresses.isEmpty else {
      return [Finding(.problem, "addresses", "only loopback: players on other machines cannot reach this one")]
    }
    let labelled = addresses.map { address in
      ipv6Scope(address).map { $0 == "global" ? address : "\(address) (\($0))" } ?? address
    }
    var findings = [Finding(.ok, "addresses", labelled.joined(separator: ", "))]
    let global = addresses.filter { ipv6Scope($0) == "global" }
    if global.isEmpty {
      let others = addresses.compactMap { ipv6Scope($0) }
      let only = others.isEmpty ? "" : " (only \(Set(others).sorted().joined(separator: " and ")))"
      findings.append(
        Finding(
          .note, "IPv6", "no global IPv6 address\(only): friends on the internet need the router to forward IPv4"))
    } else {
      findings.append(
        Finding(
          .ok, "IPv6", "global \(global.joined(separator: ", ")): inbound IPv6 may still be blocked by the router"))
    }
    return findings
  }

  /// What an IPv6 address reaches: "global", "link-local", "unique local" or "other"; nil for IPv4.
  static func ipv6Scope(_ address: String) -> String? {
    guard address.contains(":") else { return nil }
    guard let first = address.split(separator: ":").first, let word = UInt16(first, radix: 16) else { return "other" }
    if word & 0xE000 == 0x2000 { return "global" }
    if word & 0xFFC0 == 0xFE80 { return "link-local" }
    if word & 0xFE00 == 0xFC00 { return "unique local" }
    return "other"
  }

  /// The router: the default route, what the router says when `router` allows asking it, and a permanent mapping
  /// a crashed run left behind.
  private static func routerFindings(paths: Paths, router: Bool, port: UInt16) -> [Finding] {
    var findings: [Finding] = []
    let table = FileSystem.contents("/proc/net/route").map { String(decoding: $0, as: UTF8.self) } ?? ""
    let gateway = Gateway.defaultIPv4(routeTable: table)
    if let gateway {
      findings.append(Finding(.ok, "router", "\(gateway) (the default route)"))
    } else {
      findings.append(
        Finding(.problem, "router", "no default route: players on the internet cannot reach this machine"))
    }
    if let gateway, router {
      findings += askRouter(gateway, port: port)
    } else if gateway != nil {
      findings.append(
        Finding(.note, "port mapping", "not asked (tictactoe doctor --router asks the router, changing nothing on it)"))
    }
    if FileSystem.exists(paths.state + "/permanent-mapping") {
      findings.append(
        Finding(.note, "mappings", "a crashed run left a permanent mapping: the next host --map-port removes it"))
    }
    return findings
  }

  /// What the router at `gateway` answers to questions that change nothing on it: the port-mapping protocols it
  /// speaks, and the outside address NAT-PMP or UPnP reports.
  private static func askRouter(_ gateway: String, port: UInt16) -> [Finding] {
    let clients = MappingClients(gateway: gateway)
    var spoken: [String] = []
    if clients.speaksPCP(seconds: 1.5) { spoken.append("PCP") }
    let natPMPAddress = clients.natPMPExternalAddress(seconds: 1.5)
    if natPMPAddress != nil { spoken.append("NAT-PMP") }
    var upnpAddress: String?
    if case .success(let control?) = clients.upnpControl(until: Monotonic.now() + 2) {
      spoken.append("UPnP")
      upnpAddress =
        (try? clients.soap(control, "GetExternalIPAddress", [], until: Monotonic.now() + 2).get())?[
          "NewExternalIPAddress"]
    }
    var findings: [Finding] = []
    if spoken.isEmpty {
      findings.append(
        Finding(
          .problem, "port mapping", "\(gateway) answers none of PCP, NAT-PMP or UPnP: forward port \(port) by hand"))
    } else {
      findings.append(Finding(.ok, "port mapping", "\(gateway) speaks \(spoken.joined(separator: ", "))"))
    }
    if let external = natPMPAddress ?? upnpAddress {
      findings.append(outsideAddressFinding(external))
    }
    return findings
  }

  /// Whether the router's outside address can be reached from the internet.
  private static func outsideAddressFinding(_ external: String) -> Finding {
    switch ExternalAddressKind(address: external) {
    case .public?: Finding(.ok, "outside address", "\(external) (public)")
    case .shared?:
      Finding(
        .problem, "outside address", "\(external) is shared (carrier-grade NAT): internet players cannot reach you")
    case .private?: Finding(.problem, "outside address", "\(external) is private: the router is behind another router")
    default: Finding(.problem, "outside address", "\(external) cannot be reached from the internet")
    }
  }

  /// This machine's firewall: whether its rules drop TCP `port` coming in.
  private static func firewallFinding(port: UInt16) -> Finding {
    let nftables = commandOutput("/usr/sbin/nft", ["list", "ruleset"])
    let iptables = commandOutput("/usr/sbin/iptables", ["-S", "INPUT"])
    if port == 0 {
      return Finding(
        .note, "firewall", "not checked: the port setting is 0, a free port each time (friends need a fixed one)")
    } else if let drop = firewallDrops(port: port, nftables: nftables, iptables: iptables) {
      return Finding(.problem, "firewall", "\(drop): joiners will not get through")
    } else if nftables == nil && iptables == nil {
      return Finding(.note, "firewall", "its rules could not be read (nft and iptables need root)")
    } else {
      return Finding(.ok, "firewall", "nothing drops TCP port \(port) coming in")
    }
  }

  /// What `path arguments` prints (nil when it is missing or fails). The command line is fixed here (no word
  /// of it comes from outside), so the shell popen uses sees only it.
  private static func commandOutput(_ path: String, _ arguments: [String]) -> String? {
    guard access(path, X_OK) == 0, let pipe = popen(([path] + arguments).joined(separator: " ") + " 2>/dev/null", "r")
    else { return nil }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 1 << 20 {
      let count = fread(&chunk, 1, chunk.count, pipe)
      if count == 0 { break }
      bytes += chunk[0..<count]
    }
    let status = pclose(pipe)
    return status == 0 ? String(decoding: bytes, as: UTF8.self) : nil
  }
}

extension Doctor.Finding {
  init(_ verdict: Doctor.Verdict, _ topic: String, _ text: String) {
    self.init(verdict: verdict, topic: topic, text: text)
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
