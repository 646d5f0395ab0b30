import CMiniUPnPc
import CNatPMP
import Glibc

/// The three protocols' requests to one gateway, each blocking for at most the time given: run them on worker
/// threads. They only ever talk to `gateway` (and a UPnP device description or control URL on another host is
/// refused unasked).
public struct MappingClients: Sendable {
  public let gateway: String
  /// A description or reply longer than this is refused.
  public static let replyLimit = 65_536

  public init(gateway: String) {
    self.gateway = gateway
  }

  /// This machine's address toward `gateway` (what the router forwards to), as text.
  public static func localAddress(toward gateway: String) -> String? {
    Exchange.localAddress(toward: gateway).map { $0.map(String.init).joined(separator: ".") }
  }

  // MARK: PCP

  public func pcpMap(port: UInt16, externalPort: UInt16, lifetime: UInt32, nonce: [UInt8], seconds: Double)
    -> AttemptOutcome
  {
    let deadline = Exchange.now() + seconds
    guard let client = Exchange.localAddress(toward: gateway) else { return .refused("no route to the router") }
    let request = PCPMessage.mapRequest(
      nonce: nonce, client: client, internalPort: port, externalPort: externalPort, lifetime: lifetime)
    guard
      let answer = Exchange.udp(request, to: gateway, port: 5351, until: deadline, limit: PCPMessage.maximumLength)
    else { return .silent }
    do {
      let response = try PCPMessage.parseMapResponse(answer, nonce: nonce, internalPort: port)
      guard response.result == .success else { return .refused(response.result.description) }
      return .mapped(
        Mapping(
          via: .pcp, gateway: gateway, internalPort: port, externalPort: response.externalPort,
          externalAddress: response.externalAddress, lifetime: response.lifetime, epoch: response.epoch,
          nonce: nonce))
    } catch .natPMPOnly {
      return .silent
    } catch {
      return .refused(error.description)
    }
  }

  /// Whether the gateway answers PCP at all (an ANNOUNCE, which changes nothing on it).
  public func speaksPCP(seconds: Double) -> Bool {
    guard let client = Exchange.localAddress(toward: gateway),
      let answer = Exchange.udp(
        PCPMessage.announceRequest(client: client), to: gateway, port: 5351, until: Exchange.now() + seconds,
        limit: PCPMessage.maximumLength)
    else { return false }
    return (try? PCPMessage.parseAnnounceResponse(answer)) != nil
  }

  // MARK: NAT-PMP

  /// The gateway's outside address by NAT-PMP (a public address request, which changes nothing), or nil.
  public func natPMPExternalAddress(seconds: Double) -> String? {
    guard let gatewayAddress = Exchange.address(gateway, 0)?.sin_addr.s_addr else { return nil }
    let address = tictactoe_natpmp_request(gatewayAddress, 1, 0, 0, 0, Int32(seconds * 1000))
    guard address.result >= 0 else { return nil }
    var raw = in_addr(s_addr: address.public_address)
    var text = [CChar](repeating: 0, count: 16)
    guard inet_ntop(AF_INET, &raw, &text, 16) != nil else { return nil }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  public func natPMPMap(port: UInt16, externalPort: UInt16, lifetime: UInt32, seconds: Double) -> AttemptOutcome {
    guard let gatewayAddress = Exchange.address(gateway, 0)?.sin_addr.s_addr else { return .silent }
    let milliseconds = Int32(seconds * 1000)
    let answer = tictactoe_natpmp_request(gatewayAddress, 0, port, externalPort, lifetime, milliseconds)
    guard answer.result >= 0 else { return natPMPFailure(answer.result) }
    var mapping = Mapping(
      via: .natPMP, gateway: gateway, internalPort: port, externalPort: answer.public_port, externalAddress: nil,
      lifetime: answer.lifetime, epoch: answer.epoch)
    guard lifetime > 0 else { return .mapped(mapping) }
    mapping.externalAddress = natPMPExternalAddress(seconds: seconds)
    return .mapped(mapping)
  }

  private func natPMPFailure(_ code: Int32) -> AttemptOutcome {
    switch code {
    case NATPMP_TRYAGAIN, NATPMP_ERR_NOGATEWAYSUPPORT, NATPMP_ERR_RECVFROM, NATPMP_ERR_CONNECTERR,
      NATPMP_ERR_UNSUPPORTEDVERSION:
      return .silent
    default:
      let words = strnatpmperr(code).map { String(cString: $0) } ?? "error \(code)"
      return .refused(words)
    }
  }

  // MARK: UPnP IGD

  /// Finds the gateway's WAN connection service: an M-SEARCH to the gateway itself, its description (from the
  /// gateway's address only), parsed by libminiupnpc.
  public func upnpControl(until deadline: Double) -> Result<UPnPControl?, UPnPFailure> {
    upnpGateway(until: deadline).map { $0?.wan }
  }

  /// `upnpGateway(until:)` within `seconds` from now.
  public func upnpGateway(seconds: Double) -> Result<UPnPGateway?, UPnPFailure> {
    upnpGateway(until: Exchange.now() + seconds)
  }

  /// As `upnpControl`, with the IPv6 firewall control service (UPnP IGDv2's WANIPv6FirewallControl) when the
  /// router offers it.
  public func upnpGateway(until deadline: Double) -> Result<UPnPGateway?, UPnPFailure> {
    guard
      let answer = Exchange.udp(
        UPnPMessage.search(), to: gateway, port: 1900, until: min(deadline, Exchange.now() + 1.2), limit: 4096)
    else { return .success(nil) }
    guard let text = UPnPMessage.location(answer), let location = HTTPURL(text) else {
      return .failure(UPnPFailure("its discovery answer has no usable LOCATION"))
    }
    guard location.host == gateway else {
      return .failure(UPnPFailure("it points to a description on another host (\(location.host)); not asked"))
    }
    let reply: HTTPReply
    do {
      reply = try Exchange.http(
        UPnPMessage.get(location), to: gateway, port: location.port, until: deadline, limit: Self.replyLimit)
    } catch {
      return .failure(UPnPFailure("its description could not be read: \(error)"))
    }
    guard reply.status == 200 else { return .failure(UPnPFailure("its description answered HTTP \(reply.status)")) }
    var igd = tictactoe_igd()
    reply.body.withUnsafeBufferPointer { body in
      body.withMemoryRebound(to: CChar.self) { tictactoe_igd_parse($0.baseAddress, Int32($0.count), &igd) }
    }
    let field = { (which: Int32) in String(cString: tictactoe_igd_field(&igd, which)) }
    let base = HTTPURL(field(0)) ?? location
    var firewall: UPnPControl?
    if field(4).contains("WANIPv6FirewallControl"), let url = base.resolving(field(3)), url.host == gateway {
      firewall = UPnPControl(url: url, service: field(4))
    }
    for (control, service) in [(field(1), field(2)), (field(5), field(6))]
    where service.contains("WANIPConnection") || service.contains("WANPPPConnection") {
      guard let url = base.resolving(control) else { continue }
      guard url.host == gateway else {
        return .failure(UPnPFailure("its control URL is on another host (\(url.host)); not asked"))
      }
      return .success(UPnPGateway(wan: UPnPControl(url: url, service: service), ipv6Firewall: firewall))
    }
    return .failure(UPnPFailure("it is a UPnP device but not an internet gateway"))
  }

  /// Runs one SOAP action; the reply's values, or the router's error in words.
  /// `via`: the gateway's IPv6 address, for what must be asked over IPv6 (a pinhole for an IPv6 address).
  public func soap(
    _ control: UPnPControl, _ action: String, _ arguments: [(String, String)], until deadline: Double,
    via: String? = nil
  ) -> Result<[String: String], UPnPFailure> {
    let reply: HTTPReply
    var url = control.url
    if let via { url.host = via }
    do {
      reply = try Exchange.http(
        UPnPMessage.soap(url, service: control.service, action: action, arguments: arguments), to: via ?? gateway,
        port: url.port, until: deadline, limit: Self.replyLimit)
    } catch {
      return .failure(UPnPFailure("\(action): \(error)"))
    }
    func value(_ name: String) -> String? {
      reply.body.withUnsafeBufferPointer { body in
        body.withMemoryRebound(to: CChar.self) { xml -> String? in
          guard let found = tictactoe_soap_value(xml.baseAddress, Int32(xml.count), name) else { return nil }
          defer { free(found) }
          return String(cString: found)
        }
      }
    }
    guard reply.status == 200 else {
      let code = value("errorCode").flatMap { Int($0) }
      let words = value("errorDescription").map { UPnPFailure.printable($0) } ?? "HTTP \(reply.status)"
      return .failure(UPnPFailure("\(action): \(code.map { "\($0) " } ?? "")\(words)", code: code))
    }
    var values: [String: String] = [:]
    for name in ["NewExternalIPAddress", "NewReservedPort", "UniqueID"] {
      if let found = value(name) { values[name] = UPnPFailure.printable(found) }
    }
    return .success(values)
  }

  /// Maps `port` by UPnP: the external port asked for, or (when taken, error 718) up to three next ones; with a
  /// router that takes only permanent leases (error 725), a permanent one.
  public func upnpMap(port: UInt16, externalPort: UInt16, local: String, lifetime: UInt32, seconds: Double)
    -> AttemptOutcome
  {
    let deadline = Exchange.now() + seconds
    let control: UPnPControl
    switch upnpControl(until: deadline) {
    case .success(nil): return .silent
    case .success(let found?): control = found
    case .failure(let failure): return .refused(failure.words)
    }
    var lease = lifetime
    var outside = externalPort
    var tries = 0
    while true {
      let arguments = [
        ("NewRemoteHost", ""), ("NewExternalPort", "\(outside)"), ("NewProtocol", "TCP"),
        ("NewInternalPort", "\(port)"), ("NewInternalClient", local), ("NewEnabled", "1"),
        ("NewPortMappingDescription", "tictactoe"), ("NewLeaseDuration", "\(lease)"),
      ]
      switch soap(control, "AddPortMapping", arguments, until: deadline) {
      case .success:
        let external = soap(control, "GetExternalIPAddress", [], until: deadline)
        let address = (try? external.get())?["NewExternalIPAddress"]
        return .mapped(
          Mapping(
            via: .upnp, gateway: gateway, internalPort: port, externalPort: outside, externalAddress: address,
            lifetime: lease, control: control))
      case .failure(let failure) where failure.code == .onlyPermanentLeasesSupported && lease != 0:
        lease = 0  // OnlyPermanentLeasesSupported
      case .failure(let failure) where failure.code == .conflictInMappingEntry && tries < 3:
        tries += 1  // ConflictInMappingEntry: someone else has that outside port
        outside = outside == UInt16.max ? 1024 : outside + 1
      case .failure(let failure):
        return .refused(failure.words)
      }
    }
  }

  // MARK: IPv6

  /// Opens a pinhole in the router's IPv6 firewall for TCP `port` of `address` (any remote host), for `lease`
  /// seconds; its UniqueID (to renew or remove it), or the router's words.
  ///
  /// It is asked over IPv6, from that address to the router's own IPv6 address `router6` (the default IPv6
  /// route's next hop): a router opens a pinhole only for the address that asks.
  public func upnpPinhole(
    _ firewall: UPnPControl, address: String, port: UInt16, lease: UInt32, seconds: Double, router6: String
  ) -> Result<String, UPnPFailure> {
    let arguments = [
      ("RemoteHost", ""), ("RemotePort", "0"), ("InternalClient", address), ("InternalPort", "\(port)"),
      ("Protocol", "6"), ("LeaseTime", "\(lease)"),
    ]
    switch soap(firewall, "AddPinhole", arguments, until: Exchange.now() + seconds, via: router6) {
    case .success(let values):
      guard let id = values["UniqueID"], !id.isEmpty else { return .failure(UPnPFailure("AddPinhole: no UniqueID")) }
      return .success(id)
    case .failure(let failure): return .failure(failure)
    }
  }

  /// Renews (`lease` > 0) or removes (0) a pinhole; true when the router agreed.
  public func upnpPinhole(_ firewall: UPnPControl, id: String, lease: UInt32, seconds: Double, router6: String)
    -> Bool
  {
    let deadline = Exchange.now() + seconds
    let result =
      lease == 0
      ? soap(firewall, "DeletePinhole", [("UniqueID", id)], until: deadline, via: router6)
      : soap(
        firewall, "UpdatePinhole", [("UniqueID", id), ("NewLeaseTime", "\(lease)")], until: deadline, via: router6)
    if case .success = result { return true }
    return false
  }

  // MARK: removing

  /// Removes `mapping` (PCP and NAT-PMP: lifetime 0; UPnP: DeletePortMapping); true when the router agreed.
  public func remove(_ mapping: Mapping, seconds: Double) -> Bool {
    switch mapping.via {
    case .pcp:
      let outcome = pcpMap(
        port: mapping.internalPort, externalPort: mapping.externalPort, lifetime: 0,
        nonce: mapping.nonce ?? Array(repeating: 0, count: 12), seconds: seconds)
      if case .mapped = outcome { return true }
      return false
    case .natPMP:
      if case .mapped = natPMPMap(port: mapping.internalPort, externalPort: 0, lifetime: 0, seconds: seconds) {
        return true
      }
      return false
    case .upnp:
      guard let control = mapping.control else { return false }
      let arguments = [("NewRemoteHost", ""), ("NewExternalPort", "\(mapping.externalPort)"), ("NewProtocol", "TCP")]
      if case .success = soap(control, "DeletePortMapping", arguments, until: Exchange.now() + seconds) { return true }
      return false
    }
  }
}

/// Why a UPnP step failed, in words (a gateway's error text with its controls escaped).
public struct UPnPFailure: Error, Sendable, Equatable {
  /// The UPnP errors the mapping acts on (UPnP IGD WANIPConnection), and any other by its number.
  public enum Code: Sendable, Equatable {
    /// 718 ConflictInMappingEntry: the external port is mapped already; the next one is tried.
    case conflictInMappingEntry
    /// 725 OnlyPermanentLeasesSupported: asked again with a lease of 0.
    case onlyPermanentLeasesSupported
    case other(Int)

    public init(_ number: Int) {
      self =
        switch number {
        case 718: .conflictInMappingEntry
        case 725: .onlyPermanentLeasesSupported
        default: .other(number)
        }
    }
  }

  public var words: String
  public var code: Code?

  init(_ words: String, code: Int? = nil) {
    self.words = words
    self.code = code.map(Code.init)
  }

  /// A router's text with anything but printable ASCII left out, and at most 120 characters.
  static func printable(_ text: String) -> String {
    String(String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }).prefix(120))
  }
}
