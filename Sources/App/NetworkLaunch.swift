import EventLoop
import FrontEnds
import GameCore
import MatchCoordination
import NetworkFacts
import NetworkShell
import PeerTrust
import PlayerFiles
import PlayerSettings
import Security
import TerminalUI
import TransitRelay
import Transport
import UntrustedText

/// Hosting and joining from the command line and from the lobby: the identity and known peers checked, the
/// rules chosen, the host's or the joiner's match (`HostMatch`, `JoinerMatch`) made and handed to the full screen
/// or to plain mode.
enum NetworkLaunch {
  enum Role {
    case host(HostRequest)
    case join(Endpoint)
    /// Join with an invite: its addresses in order, its key pinned by the options.
    case joinInvite(Invite)

    var invite: Invite? {
      if case .joinInvite(let invite) = self { invite } else { nil }
    }

    /// Where a joiner connects: the address, or the invite's addresses in order (none for a host).
    var endpoints: [Endpoint] {
      switch self {
      case .host: []
      case .join(let endpoint): [endpoint]
      case .joinInvite(let invite): invite.addresses.map { Endpoint(host: $0.host, port: $0.port) }
      }
    }

    /// What a joiner's player is told while it connects.
    var connecting: [MatchEvent] {
      switch self {
      case .host: []
      case .join(let endpoint): [.status("Connecting to \(endpoint)…")]
      case .joinInvite(let invite):
        [
          .status("Joining with the invite: the host's key must be \(invite.key)."),
          .status("Connecting to \(endpoints[0])…"),
        ]
      }
    }
  }

  /// What every match of one command is made from: the first, and a joiner's next one after `r`.
  private struct MatchParts {
    let profile: Profile
    let identity: Security.Identity
    let options: NetworkOptions
    let rules: Rules
    /// Host: the time control and the opening offered (a joiner plays the host's).
    var timeControl = TimeControl.none
    var opening = Opening.standard
    let context: RunContext
    let clock: () -> Double

    /// A host's match, offering these rules, clock and opening.
    func hostMatch() -> HostMatch {
      let host = HostMatch(
        profile: profile, identity: identity, options: options, rules: rules, timeControl: timeControl,
        opening: opening, log: context.log, clock: clock)
      host.archive = context.archive
      return host
    }

    /// A joiner's match, told what it was told about the host: the LAN game's key and name, or the invite.
    func joinerMatch(advertised: Fingerprint?, lanName: String?, invite: Invite?) -> JoinerMatch {
      let joiner = JoinerMatch(
        profile: profile, identity: identity, options: options, rules: rules, log: context.log, clock: clock)
      joiner.advertisedFingerprint = advertised
      joiner.lanGameName = lanName
      joiner.inviteKey = invite?.key
      joiner.inviteRelay = invite?.relay
      // A spectator keeps the players' signed records of the games it sees end (PROTOCOL.md rule 28).
      joiner.archive = context.archive
      return joiner
    }
  }

  static func run(
    _ role: Role, options: NetworkOptions, ui: UIMode, ascii: Bool, environment: [String: String],
    advertised: Fingerprint? = nil, lanName: String? = nil, watch: Bool = false, watchGame: UInt16 = 0
  ) -> Int32 {
    let context = RunContext(environment: environment)
    let profile = RunContext.profile(environment, name: options.name)
    guard let identity = checkedFiles(profile: profile, options: options) else { return ExitStatus.badFile }
    guard let rules = rules(for: role, settings: context.settings) else { return ExitStatus.usage }
    var parts = MatchParts(
      profile: profile, identity: identity, options: options, rules: rules, context: context,
      clock: { Monotonic.now() })
    guard offerTerms(role, &parts, settings: context.settings) else { return ExitStatus.usage }
    var initial: [MatchEvent] = options.warnings.map { .status("warning: \($0)") }
    if let warning = context.warning {
      if ui == .plain { writeError("tictactoe: warning: \(warning)\n") } else { initial.append(.status(warning)) }
    }
    let match: any MatchShell
    var joining: [Endpoint] = []
    switch role {
    case .host(let request):
      let host = parts.hostMatch()
      do {
        initial += try startHosting(host, request, parts: parts, settings: context.settings, ui: ui)
      } catch {
        writeError("tictactoe: \(error)\n")
        return ExitStatus.code(for: .network(error))
      }
      match = host
    case .join, .joinInvite:
      let joiner = parts.joinerMatch(advertised: advertised, lanName: lanName, invite: role.invite)
      joiner.watches = watch
      if watch { joiner.watchedGame = watchGame }
      joining = role.endpoints
      initial += role.connecting
      match = joiner
    }
    if ui == .curses {
      // A spectator does not join again as a player (`r`): it runs `watch` again.
      let rejoin =
        watch ? nil : rejoin(joining, parts: parts, advertised: advertised, lanName: lanName, invite: role.invite)
      return CursesLaunch.network(
        match: match, joining: joining, rejoin: rejoin, initial: initial, ascii: ascii, environment: environment,
        context: context)
    }
    return PlainNetworkDriver(match: match, log: context.log).run(initial: initial, joining: joining)
  }

  /// A host's terms in `parts`: the clock and the opening it offers; false after saying why the opening cannot be.
  private static func offerTerms(_ role: Role, _ parts: inout MatchParts, settings: Settings) -> Bool {
    guard case .host(let request) = role else { return true }
    parts.timeControl = request.clock ?? settings.clock
    do {
      parts.opening = try request.offeredOpening(parts.rules, timeControl: parts.timeControl, settings: settings)
    } catch {
      writeError("tictactoe: \(error.message)\n")
      return false
    }
    return true
  }

  /// The player's identity (made the first time), and the known peers read once: every connection is judged
  /// against them, so a file that does not load would turn every joiner away (or fail the join) later, and it is
  /// reported now, before anyone connects. Nil when either cannot be read, the reason printed.
  private static func checkedFiles(profile: Profile, options: NetworkOptions) -> Security.Identity? {
    let identity: Security.Identity
    do {
      let (loaded, created) = try profile.identity(options: options)
      identity = loaded
      if created { writeError("tictactoe: made a new identity for \(profile.name): \(loaded.fingerprint)\n") }
    } catch {
      writeError("tictactoe: \(error)\n")
      return nil
    }
    do {
      // The index made now if known_peers changed, so no decision on the loop reads the whole file.
      if let line = try profile.knownPeersIndex.prepare()?.droppedTornLine {
        writeError("tictactoe: warning: \(profile.knownPeersPath):\(line): a line cut short was left out\n")
      }
    } catch {
      writeError("tictactoe: \(error)\n")
      return nil
    }
    return identity
  }

  /// The rules played: the saved ones, with a host's `--size`, `--k` and `--rule` on top. Nil when they do not go
  /// together, the reason printed.
  private static func rules(for role: Role, settings: Settings) -> Rules? {
    guard case .host(let request) = role else { return settings.rules }
    do {
      return try request.play.rules(settings: settings)
    } catch {
      writeError("tictactoe: \(error) (with the saved settings)\n")
      return nil
    }
  }

  /// The host listens, with its limits, port mapping and advertisement as asked; returns what its player is told.
  /// The same for `tictactoe host` and the lobby's "Host a network game" (`settings`: the lobby's, which may be
  /// options not saved): both listen, limit, let watch, wait at the relay and announce the game on the LAN alike.
  private static func startHosting(
    _ match: HostMatch, _ request: HostRequest, parts: MatchParts, settings: Settings, ui: UIMode
  ) throws(NetworkError) -> [MatchEvent] {
    try match.host(bind: request.bind, port: request.port ?? settings.port ?? Endpoint.defaultPort)
    match.sourceLimits = SourceLimits(settings: settings, now: parts.clock())
    match.spectatorPolicy = settings.spectators.flatMap(SpectatorPolicy.init(rawValue:)) ?? .anyone
    match.watchDelay = request.watchDelay ?? settings.watchDelay ?? 0
    // Only when the player named a relay (here or in the settings) does the host connect to one.
    let relayEvents = try waitAtRelay(match, request.relay ?? settings.relay.flatMap(RelayAddress.parse))
    // Only when asked (here or in the settings) is the router asked to open the port.
    match.mapsPort = parts.options.mapPort ?? settings.mapPort ?? false
    match.offersPortMapping = ui == .curses && parts.options.mapPort == nil && settings.mapPort == nil
    match.welcome = hostIntroduction(
      match: match, profile: parts.profile, identity: parts.identity, rules: parts.rules, bind: request.bind)
    // The full-screen host hosts on after each match until the player leaves; plain mode when asked to.
    match.keepsHosting = ui == .curses || request.keepHosting
    return relayEvents + match.welcome + match.advertise()
  }

  /// Host: with `relay`, waits there with a new random token (the relay's name looked up now, before the
  /// game's loop runs); a relay whose name is not found stops the host (a relay that refuses or drops the wait
  /// is tried again while the host runs). Returns what the player is told.
  static func waitAtRelay(_ match: HostMatch, _ relay: Endpoint?) throws(NetworkError) -> [MatchEvent] {
    guard let relay else { return [] }
    let address: Sockets.Address
    do {
      address = try Sockets.resolve(relay)[0]
    } catch {
      throw error.atRelay(relay)
    }
    let token: RelayToken
    do {
      token = try RelayToken.random()
    } catch {
      throw .socket("no random token for the relay: \(error)")
    }
    return match.wait(at: RelayRoute(relay: relay, address: address, token: token))
  }

  /// A joiner on the full screen can join the same host again after the match ends (`r`), with this command's
  /// options; nil for a host.
  private static func rejoin(
    _ joining: [Endpoint], parts: MatchParts, advertised: Fingerprint?, lanName: String?, invite: Invite?
  ) -> (() -> (JoinerMatch, [Endpoint]))? {
    guard !joining.isEmpty else { return nil }
    return { (parts.joinerMatch(advertised: advertised, lanName: lanName, invite: invite), joining) }
  }

  /// What the host's player is told first; with `bind`, only the address it listens on is offered.
  static func hostIntroduction(
    match: HostMatch, profile: Profile, identity: Security.Identity, rules: Rules, bind: String? = nil
  ) -> [MatchEvent] {
    let addresses = (bind.map { [$0] } ?? Sockets.localAddresses())
      .map { $0.contains(":") ? "[\($0)]:\(match.port)" : "\($0):\(match.port)" }
    // The invite: a friend who joins with it needs to check nothing. `tictactoe invite` prints it again.
    let invite = RunningHosts.invite(key: identity.fingerprint, port: match.port, bind: bind, relay: match.relayInvite)
    if let invite { match.invite.publish(invite) }
    let relayLine: [MatchEvent] =
      match.relayInvite.map { relay in
        let at = Endpoint(host: relay.host, port: relay.port)
        return [.status("Joiners can also come through the relay \(at) (the invite names it).")]
      } ?? []
    let clock = match.timeControl.isTimed ? ", \(match.timeControl.spoken)," : ""
    let opening = match.opening == .swap2 ? ", Swap2 opening," : ""
    let hosting = "Hosting \(rules)\(clock)\(opening) as \(VisibleText.escaping(profile.name)) on port \(match.port)."
    let friends =
      addresses.isEmpty
      ? "Friends on this machine join with: tictactoe join localhost:\(match.port)"
      : "Friends join with: tictactoe join ADDRESS, ADDRESS one of \(addresses.joined(separator: ", "))"
    var lines: [MatchEvent] = [
      .status(hosting), .status("Your key: \(identity.fingerprint)"),
      .status("Read aloud: \(identity.fingerprint.readAloud)"),
    ]
    if let invite { lines.append(.status("Invite: \(invite)")) }
    lines += relayLine
    lines.append(.status(friends))
    if addresses.contains(where: { $0.contains("%") }) {
      lines.append(
        .status(
          "An fe80:: address works on this network only; from another machine, put that machine's own network"
            + " interface after the %."))
    }
    lines.append(.status("Waiting for an opponent…"))
    return lines
  }

  /// Hosting or joining chosen in the lobby: default trust (trust on first use), the saved rules.
  static func fromLobby(
    address: String?, advertised: Fingerprint?, settings: Settings, environment: [String: String], context: RunContext
  ) -> Result<(any MatchShell, [MatchEvent], [Endpoint]), MatchEnd> {
    var options = NetworkOptions()
    let profile = RunContext.profile(environment, name: nil)
    var endpoints: [Endpoint] = []
    var invite: Invite?
    if let address {
      if Invite.isInvite(address) {
        do {
          invite = try Invite.parse(address)
        } catch {
          return .failure(.setup(.invite(error)))
        }
        options.pins = invite.map { [PinnedKey($0.key, source: "the invite")] } ?? []
        endpoints = invite?.addresses.map { Endpoint(host: $0.host, port: $0.port) } ?? []
      } else if let endpoint = Endpoint(parsing: address) {
        endpoints = [endpoint]
      } else {
        return .failure(.setup(.notAnAddress(address)))
      }
    }
    do {
      let (identity, _) = try profile.identity(options: options)
      if address != nil {
        let joiner = JoinerMatch(
          profile: profile, identity: identity, options: options, rules: settings.rules, log: context.log,
          clock: { Monotonic.now() })
        joiner.archive = context.archive
        joiner.advertisedFingerprint = advertised
        joiner.inviteKey = invite?.key
        joiner.inviteRelay = invite?.relay
        return .success((joiner, [], endpoints))
      }
      var parts = MatchParts(
        profile: profile, identity: identity, options: options, rules: settings.rules, context: context,
        clock: { Monotonic.now() })
      parts.timeControl = settings.clock
      parts.opening = settings.openingInPlay
      let match = parts.hostMatch()
      let said = try startHosting(match, HostRequest(), parts: parts, settings: settings, ui: .curses)
      return .success((match, said, []))
    } catch let error as MatchEnd {
      return .failure(error)
    } catch let error as NetworkError {
      return .failure(.network(error))
    } catch {
      return .failure(.setup(SetupFailure(error)))
    }
  }
}
