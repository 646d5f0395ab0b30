/// The three ways of asking a router to open a port, in the order one kept mapping is chosen.
public enum MappingProtocol: String, Sendable, CaseIterable, Comparable {
  case pcp = "PCP"
  case natPMP = "NAT-PMP"
  case upnp = "UPnP"

  public static func < (a: MappingProtocol, b: MappingProtocol) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// A port the router opened for this host.
public struct Mapping: Sendable, Equatable {
  public var via: MappingProtocol
  public var gateway: String
  public var internalPort: UInt16
  public var externalPort: UInt16
  /// The router's outside address, when it said.
  public var externalAddress: String?
  /// Seconds granted; 0 for a permanent mapping (a UPnP router that takes no other).
  public var lifetime: UInt32
  /// PCP and NAT-PMP: the gateway's epoch, to notice it lost its mappings.
  public var epoch: UInt32?
  /// PCP: the request's nonce (a renewal or removal must carry it).
  public var nonce: [UInt8]?
  /// UPnP: where and how to remove it.
  public var control: UPnPControl?

  public init(
    via: MappingProtocol, gateway: String, internalPort: UInt16, externalPort: UInt16, externalAddress: String?,
    lifetime: UInt32, epoch: UInt32? = nil, nonce: [UInt8]? = nil, control: UPnPControl? = nil
  ) {
    self.via = via
    self.gateway = gateway
    self.internalPort = internalPort
    self.externalPort = externalPort
    self.externalAddress = externalAddress
    self.lifetime = lifetime
    self.epoch = epoch
    self.nonce = nonce
    self.control = control
  }
}

/// A UPnP gateway's WAN connection service: its control URL and service type.
public struct UPnPControl: Sendable, Equatable {
  public var url: HTTPURL
  public var service: String

  public init(url: HTTPURL, service: String) {
    self.url = url
    self.service = service
  }
}

/// How one protocol's attempt went.
public enum AttemptOutcome: Sendable, Equatable {
  case mapped(Mapping)
  /// The router answered no, in these words.
  case refused(String)
  /// Nothing answered in time (or the router does not speak this protocol).
  case silent
}

/// What to do with the three attempts: keep one mapping (PCP, then NAT-PMP, then UPnP), remove any other that
/// succeeded on another outside port, and tell the player what happened in words. Pure.
public struct MappingDecision: Sendable, Equatable {
  public var kept: Mapping?
  public var toRemove: [Mapping]
  /// The other protocols' mappings of the kept outside port: the same forwarding, removed with the kept one
  /// when hosting stops (each protocol's own record of it, or the router would keep the rule).
  public var sameForwarding: [Mapping]
  public var lines: [String]

  public init(
    attempts: [MappingProtocol: AttemptOutcome], gateway: String?, localAddress: String?, port: UInt16
  ) {
    let mapped = attempts.compactMap { entry -> Mapping? in
      if case .mapped(let mapping) = entry.value { return mapping }
      return nil
    }.sorted { $0.via < $1.via }
    kept = mapped.first
    // Another protocol's mapping of the same outside port is the same forwarding on the router (miniupnpd keeps
    // one rule for it): removing it would remove the kept one. Only a different outside port is another.
    let keptPort = kept?.externalPort
    toRemove = mapped.dropFirst().filter { $0.externalPort != keptPort }
    sameForwarding = mapped.dropFirst().filter { $0.externalPort == keptPort }
    lines = MappingDecision.words(
      kept: kept, attempts: attempts, gateway: gateway, localAddress: localAddress, port: port)
  }

  static func words(
    kept: Mapping?, attempts: [MappingProtocol: AttemptOutcome], gateway: String?, localAddress: String?,
    port: UInt16
  ) -> [String] {
    guard let gateway else {
      return ["This computer has no default route, so no router to ask: players on the internet cannot reach it."]
    }
    let byHand =
      "forward TCP port \(port) to \(localAddress ?? "this computer") in your router's settings by hand, or ask"
      + " your friend to host instead."
    guard let kept else {
      let refusals = MappingProtocol.allCases.compactMap { via -> String? in
        if case .refused(let why) = attempts[via] { return "\(via.rawValue): \(why)" }
        return nil
      }
      if refusals.isEmpty {
        return ["No answer from your router \(gateway) to UPnP, NAT-PMP or PCP: \(byHand)"]
      }
      return ["Your router \(gateway) did not open port \(port) (\(refusals.joined(separator: "; "))): \(byHand)"]
    }
    let what =
      kept.externalPort == port
      ? "Port \(port) is mapped" : "Port \(port) is mapped to outside port \(kept.externalPort) (\(port) was taken)"
    let on = "\(what) on your router \(gateway) (\(kept.via.rawValue)"
    let lease = kept.lifetime == 0 ? "permanently, until you stop hosting" : "renewed while you host"
    guard let external = kept.externalAddress, let kind = ExternalAddressKind(address: external) else {
      return ["\(on), \(lease)), but it did not say its outside address: check it before sharing the invite."]
    }
    switch kind {
    case .public:
      return ["\(on), \(lease)): players on the internet can join at \(external):\(kept.externalPort)."]
    case .private:
      return [
        "\(on)), but the router's own outside address \(external) is private: it is behind another router, so"
          + " players on the internet cannot reach this host. Forward the port on that router too, play over IPv6,"
          + " or ask your friend to host."
      ]
    case .shared:
      return [
        "\(on)), but the router's own outside address \(external) is shared (carrier-grade NAT, 100.64.0.0/10):"
          + " players on the internet cannot reach this host. Play over IPv6, or ask your friend to host."
      ]
    case .unusable:
      return [
        "\(on)), but the outside address it gives, \(external), cannot be reached from the internet. Ask your"
          + " friend to host."
      ]
    }
  }

  /// The external address to put first in the invite, when players on the internet can use it.
  public var publicEndpoint: (host: String, port: UInt16)? {
    guard let kept, let external = kept.externalAddress, ExternalAddressKind(address: external) == .public else {
      return nil
    }
    return (external, kept.externalPort)
  }
}
