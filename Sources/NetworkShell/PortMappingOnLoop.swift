import EventLoop
import Glibc
import PlayerFiles
import PortMapping
import Security
import Transport

/// Asks the LAN's router to open the host's port, on the event loop: PCP, NAT-PMP and UPnP side by side on
/// worker threads (about 2 s in all), one mapping kept (PCP, then NAT-PMP, then UPnP) and any other removed,
/// the lease renewed at half its length, and the mapping removed when hosting stops. Hosting never waits for
/// it: the player is told the attempt, then its result.
package final class PortMappingOnLoop {
  /// How long the three attempts may take, and a removal at the end.
  static let attemptSeconds = 2.0
  static let removalSeconds = 1.0
  /// The lease asked for (renewed at half of what the router grants).
  static let lease: UInt32 = 1200

  private let loop: EventLoop
  private let port: UInt16
  private let paths: Paths
  private let report: ([String], Invite.Address?) -> Void
  private var clients: MappingClients?
  private var kept: Mapping?
  /// Other protocols' records of the kept forwarding (removed with it).
  private var alsoHeld: [Mapping] = []
  private var renewal: EventLoop.TimerID?
  /// The pinhole opened in the router's IPv6 firewall, and its renewal.
  private var pinhole: (firewall: UPnPControl, id: String, router6: String)?
  private var pinholeRenewal: EventLoop.TimerID?
  /// The pinhole was asked for (and is open, being asked for, or was refused): a mapping asked for again after
  /// the router lost it does not ask for a second one.
  private var pinholeAsked = false
  private var stopped = false

  /// `report` gets the lines to show and, once known, the public endpoint to put first in the invite.
  package init(loop: EventLoop, port: UInt16, paths: Paths, report: @escaping ([String], Invite.Address?) -> Void) {
    self.loop = loop
    self.port = port
    self.paths = paths
    self.report = report
  }

  /// Where a permanent mapping is recorded, so that a run that crashed leaves nothing open on the router.
  var stateFile: String { paths.state + "/permanent-mapping" }

  package func start() {
    let table = FileSystem.contents("/proc/net/route").map { String(decoding: $0, as: UTF8.self) } ?? ""
    guard let gateway = Gateway.defaultIPv4(routeTable: table) else {
      let decision = MappingDecision(attempts: [:], gateway: nil, localAddress: nil, port: port)
      report(decision.lines, nil)
      return
    }
    let clients = MappingClients(gateway: gateway)
    self.clients = clients
    report(["Asking your router \(gateway) to open port \(port) (UPnP, NAT-PMP, PCP)…"], nil)
    removeLeftover(clients) { [weak self] in self?.attempt(clients, externalPort: self?.port ?? 0) }
  }

  private func attempt(_ clients: MappingClients, externalPort: UInt16) {
    let port = self.port
    let local = MappingClients.localAddress(toward: clients.gateway)
    let nonce = (0..<12).map { _ in UInt8.random(in: 0...255) }
    var answers: [MappingProtocol: AttemptOutcome] = [:]
    let seconds = Self.attemptSeconds
    let lease = Self.lease
    let work: [(MappingProtocol, @Sendable () -> AttemptOutcome)] = [
      (
        .pcp,
        { clients.pcpMap(port: port, externalPort: externalPort, lifetime: lease, nonce: nonce, seconds: seconds) }
      ),
      (.natPMP, { clients.natPMPMap(port: port, externalPort: externalPort, lifetime: lease, seconds: seconds) }),
      (
        .upnp,
        {
          guard let local else { return .refused("this computer has no address toward the router") }
          return clients.upnpMap(
            port: port, externalPort: externalPort, local: local, lifetime: lease, seconds: seconds)
        }
      ),
    ]
    for (via, job) in work {
      loop.perform(job) { [weak self] outcome in
        guard let self, !self.stopped else {
          // Hosting stopped meanwhile: what was opened is closed again.
          if case .mapped(let late) = outcome { _ = clients.remove(late, seconds: Self.removalSeconds) }
          return
        }
        answers[via] = outcome
        if answers.count == work.count { self.decide(answers, clients: clients, local: local) }
      }
    }
  }

  private func decide(_ answers: [MappingProtocol: AttemptOutcome], clients: MappingClients, local: String?) {
    let decision = MappingDecision(attempts: answers, gateway: clients.gateway, localAddress: local, port: port)
    for extra in decision.toRemove {
      loop.perform({ clients.remove(extra, seconds: Self.removalSeconds) }, then: { _ in })
    }
    kept = decision.kept
    alsoHeld = decision.sameForwarding
    if let kept, kept.lifetime == 0 { recordPermanent(kept) }
    let endpoint = decision.publicEndpoint.map { Invite.Address(host: $0.host, port: $0.port) }
    report(decision.lines, endpoint)
    scheduleRenewal()
    if !pinholeAsked { openIPv6(clients) }
  }

  /// This machine's global IPv6 addresses are in the invite, but a home router's IPv6 firewall usually drops
  /// what comes in: a router with UPnP IGDv2's IPv6 firewall control is asked for a pinhole; otherwise the
  /// player is told inbound IPv6 may be blocked.
  private func openIPv6(_ clients: MappingClients) {
    guard let address = Sockets.localAddresses().first(where: PortMappingOnLoop.isGlobalIPv6) else { return }
    pinholeAsked = true
    let table = FileSystem.contents("/proc/net/ipv6_route").map { String(decoding: $0, as: UTF8.self) } ?? ""
    let router6 = Gateway.defaultIPv6(routeTable: table)
    let port = self.port
    let lease = Self.lease
    let job: @Sendable () -> (UPnPControl?, Result<String, UPnPFailure>?) = {
      guard let router6, case .success(let gateway?) = clients.upnpGateway(seconds: Self.attemptSeconds),
        let firewall = gateway.ipv6Firewall
      else { return (nil, nil) }
      return (
        firewall,
        clients.upnpPinhole(
          firewall, address: address, port: port, lease: lease, seconds: Self.attemptSeconds, router6: router6)
      )
    }
    loop.perform(job) { [weak self] answer in
      guard let self else { return }
      let place = "[\(address)]:\(port)"
      switch answer {
      case (let firewall?, .success(let id)?):
        let router6 = router6 ?? ""
        if self.stopped {
          _ = clients.upnpPinhole(firewall, id: id, lease: 0, seconds: Self.removalSeconds, router6: router6)
          return
        }
        self.pinhole = (firewall, id, router6)
        self.report(["Inbound IPv6 is open for \(place) on your router (UPnP pinhole, renewed while you host)."], nil)
        self.schedulePinholeRenewal(clients)
      case (_, .failure(let failure)?):
        self.report(
          ["Your router did not open IPv6 for \(place) (\(failure.words)): inbound IPv6 may be blocked."], nil)
      default:
        self.report(
          ["Inbound IPv6 to \(place) may be blocked: your router offers no IPv6 firewall control to open it."], nil)
      }
    }
  }

  private func schedulePinholeRenewal(_ clients: MappingClients) {
    loop.cancel(pinholeRenewal)
    guard let pinhole else { return }
    pinholeRenewal = loop.schedule(at: Monotonic.now() + Double(Self.lease) / 2) { [weak self] in
      self?.loop.perform(
        {
          clients.upnpPinhole(
            pinhole.firewall, id: pinhole.id, lease: Self.lease, seconds: Self.attemptSeconds, router6: pinhole.router6)
        },
        then: { [weak self] renewed in
          guard let self, !self.stopped else { return }
          if renewed {
            self.schedulePinholeRenewal(clients)
          } else {
            self.pinhole = nil
            self.openIPv6(clients)
          }
        })
    }
  }

  /// A global unicast IPv6 address (2000::/3), as an invite lists one for the internet.
  static func isGlobalIPv6(_ address: String) -> Bool {
    guard address.contains(":"), let first = address.split(separator: ":").first, let word = UInt16(first, radix: 16)
    else { return false }
    return word & 0xE000 == 0x2000
  }

  /// At half the lease: the same request again. A router that lost the mapping (a PCP or NAT-PMP epoch that
  /// went back, or a renewal refused) is asked afresh, by every protocol.
  private func scheduleRenewal() {
    loop.cancel(renewal)
    guard let kept, kept.lifetime > 0, let clients else { return }
    let due = Monotonic.now() + Double(kept.lifetime) / 2
    renewal = loop.schedule(at: due) { [weak self] in self?.renew(kept, clients) }
  }

  private func renew(_ mapping: Mapping, _ clients: MappingClients) {
    let port = self.port
    let local = MappingClients.localAddress(toward: clients.gateway) ?? ""
    let job: @Sendable () -> AttemptOutcome = {
      switch mapping.via {
      case .pcp:
        return clients.pcpMap(
          port: port, externalPort: mapping.externalPort, lifetime: Self.lease,
          nonce: mapping.nonce ?? Array(repeating: 0, count: 12), seconds: Self.attemptSeconds)
      case .natPMP:
        return clients.natPMPMap(
          port: port, externalPort: mapping.externalPort, lifetime: Self.lease, seconds: Self.attemptSeconds)
      case .upnp:
        return clients.upnpMap(
          port: port, externalPort: mapping.externalPort, local: local, lifetime: Self.lease,
          seconds: Self.attemptSeconds)
      }
    }
    loop.perform(job) { [weak self] outcome in
      guard let self, !self.stopped else { return }
      if case .mapped(let renewed) = outcome, renewed.externalPort == mapping.externalPort,
        !Self.epochWentBack(before: mapping.epoch, now: renewed.epoch, after: Double(mapping.lifetime) / 2)
      {
        self.kept = renewed
        self.scheduleRenewal()
        return
      }
      self.kept = nil
      self.report(["Your router lost the mapping of port \(port); asking again…"], nil)
      self.attempt(clients, externalPort: port)
    }
  }

  /// RFC 6886 §3.6: a gateway whose epoch grew by much less than the time that passed has lost its mappings.
  static func epochWentBack(before: UInt32?, now: UInt32?, after seconds: Double) -> Bool {
    guard let before, let now else { return false }
    return Double(now) + 2 < Double(before) + seconds * 7 / 8
  }

  /// A removal started by `stop` is still running on a worker thread.
  private(set) var removing = false

  /// Removes the mapping without blocking the loop: on a worker thread (at most `removalSeconds`), `removing`
  /// meanwhile. For a host the player left while the program goes on (back to the lobby).
  func stop() {
    guard let removal = stopping() else { return }
    removing = true
    loop.perform(removal) { [weak self] in self?.removing = false }
  }

  /// Removes the mapping at once, waiting at most `removalSeconds`: for the way out, once the loop has stopped.
  package func stopNow() {
    stopping()?()
  }

  /// Stops the renewals; the work that removes what is held from the router (nil: nothing, or stopped already).
  private func stopping() -> (@Sendable () -> Void)? {
    guard !stopped else { return nil }
    stopped = true
    loop.cancel(renewal)
    renewal = nil
    loop.cancel(pinholeRenewal)
    guard let clients else { return nil }
    let (pinhole, kept, alsoHeld, stateFile) = (self.pinhole, self.kept, self.alsoHeld, self.stateFile)
    self.pinhole = nil
    self.kept = nil
    self.alsoHeld = []
    guard pinhole != nil || kept != nil else { return nil }
    return {
      if let pinhole {
        _ = clients.upnpPinhole(
          pinhole.firewall, id: pinhole.id, lease: 0, seconds: Self.removalSeconds, router6: pinhole.router6)
      }
      guard let kept else { return }
      let deadline = Monotonic.now() + Self.removalSeconds
      for other in alsoHeld.reversed() {
        _ = clients.remove(other, seconds: max(0.1, deadline - Monotonic.now()))
      }
      if clients.remove(kept, seconds: max(0.2, deadline - Monotonic.now())), kept.lifetime == 0 { unlink(stateFile) }
    }
  }

  // MARK: permanent mappings

  /// `UPnP GATEWAY PORT URL SERVICE`: enough to remove it at the next start if this run dies first.
  private func recordPermanent(_ mapping: Mapping) {
    guard let control = mapping.control else { return }
    let line = "UPnP \(mapping.gateway) \(mapping.externalPort) \(control.url) \(control.service)\n"
    try? AtomicFile.write(line, to: stateFile)
  }

  /// Removes the permanent mapping a run that died left, then `next`.
  private func removeLeftover(_ clients: MappingClients, then next: @escaping () -> Void) {
    // Believed only under the rule for the player's files: another user could plant a mapping to remove.
    guard case .contents(let data) = FileExposure.read(stateFile, limit: 4096) else { return next() }
    let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard fields.count == 5, fields[0] == "UPnP", String(fields[1]) == clients.gateway,
      let external = UInt16(fields[2]), let url = HTTPURL(String(fields[3])), url.host == clients.gateway
    else {
      unlink(stateFile)
      return next()
    }
    let leftover = Mapping(
      via: .upnp, gateway: clients.gateway, internalPort: port, externalPort: external, externalAddress: nil,
      lifetime: 0, control: UPnPControl(url: url, service: String(fields[4])))
    let path = stateFile
    loop.perform(
      { clients.remove(leftover, seconds: Self.removalSeconds) },
      then: { [weak self] removed in
        unlink(path)
        if removed { self?.report(["Removed the permanent mapping of port \(external) a crashed run left."], nil) }
        next()
      })
  }
}
