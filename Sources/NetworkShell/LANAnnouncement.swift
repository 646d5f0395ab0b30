import Discovery
import EventLoop
import GameCore
import Glibc
import MatchCoordination
import PeerTrust
import PlayerFiles
import Security
import WireProtocol

/// A host's game announced on the LAN as `_tictactoe._tcp` (DNS-SD through Avahi): its rules, its key and
/// whether it is waiting or playing.
package final class LANAnnouncement {
  private let advertiser: Advertiser
  private let name: String
  private let log: Log
  /// The watchers the TXT record says (`watch=N`), changed at most once every 10 s.
  private var watchers = AdvertPacing<Int?>(nil)
  /// The daemon's descriptor's registration with the loop (nil before it is given, and once cancelled).
  private var registration: LoopRegistration?

  private init(advertiser: Advertiser, name: String, log: Log) {
    self.advertiser = advertiser
    self.name = name
    self.log = log
  }

  /// Announces the game; without the avahi-daemon, nothing is announced and the player is told why.
  static func start(
    name: String, port: UInt16, rules: Rules, timeControl: TimeControl = .none, opening: Opening = .standard,
    key: Fingerprint, log: Log
  ) -> (LANAnnouncement?, [MatchEvent]) {
    let fingerprint = key.description
    guard let txt = txt(name: name, rules: rules, timeControl: timeControl, fingerprint: fingerprint, opening: opening)
    else {
      return (nil, [])
    }
    do {
      return (LANAnnouncement(advertiser: try Advertiser(name: name, port: port, txt: txt), name: name, log: log), [])
    } catch {
      log.write("not advertised: \(error)")
      return (nil, [.status("\(error.message) Players can still join by address.")])
    }
  }

  /// What a host's advert says (docs/DISCOVERY.md): its rules, the protocol versions, its key, its name, the time
  /// control (`clock=`), the rule variant (`rule=`) and the opening (`opening=`, version 4) when not the usual; `bot`
  /// for the practice bot: its level, or when an outside engine plays for it (`engine`, the program's name as the
  /// bot shows it) `bot=engine` and `engine=NAME`. Nil for rules the TXT layout cannot say.
  package static func txt(
    name: String, rules: Rules, timeControl: TimeControl, fingerprint: String, bot: String? = nil,
    engine: String? = nil, opening: Opening = .standard
  ) -> ServiceTXT? {
    guard let txtRules = ServiceTXT.Rules(rows: rules.rows, columns: rules.columns, k: rules.k) else { return nil }
    return ServiceTXT(
      protocolVersions: ProtocolVersion.supported.sorted().map(Int.init), rules: txtRules, state: .waiting,
      fingerprint: fingerprint, displayName: name, bot: engine == nil ? bot : ServiceTXT.engineBot, engine: engine,
      clock: timeControl.isTimed ? timeControl.description : nil,
      rule: rules.variant == .freestyle ? nil : rules.variant.name, opening: opening == .swap2 ? "swap2" : nil)
  }

  /// The daemon's descriptor (nil once cancelled).
  var descriptor: Int32? { advertiser.descriptor }

  /// Watches the daemon's descriptor on `loop` (once); `ready` hears that it is readable (call `process`).
  func watch(on loop: EventLoop, ready: @escaping () -> Void) {
    guard registration == nil, let fd = advertiser.descriptor else { return }
    registration = LoopRegistration(loop: loop, fd: fd, events: Int16(POLLIN)) { _ in ready() }
  }

  /// Whether the loop watches it.
  var isWatched: Bool { registration?.isActive == true }

  /// Nothing is watched any more (the loop is going away).
  func detach() {
    registration?.cancel()
    registration = nil
  }

  /// Shows the game as waiting or playing, watched by `count` (nil: it may not be watched, or none is played):
  /// one update of the TXT record for both.
  func show(_ shown: AdvertisedState, watchers count: Int?, now: Double) {
    watchers.publishedAnyway(count, now: now)
    advertiser.change(log: log) { txt in
      txt.state = shown == .playing ? .playing : .waiting
      txt.watchers = count
    }
  }

  /// The game being played is watched by `count` (nil: it may not be watched, or none is played): the TXT
  /// record's `watch=N`, published at once when the game becomes watchable or stops being so, and a new count at
  /// most once every 10 s (every DNS-SD client on the LAN wakes for each change).
  func showWatchers(_ count: Int?, now: Double) {
    if count == nil || watchers.published == nil {
      watchers.publishedAnyway(count, now: now)
      publish(watchers: count)
    } else if let value = watchers.changed(to: count, now: now) {
      publish(watchers: value)
    }
  }

  /// When a held count is due to be published (nil: none held).
  var watchersDue: Double? { watchers.deadline }

  /// Publishes a held count whose time has come.
  func publishDueWatchers(now: Double) {
    if let value = watchers.due(now: now) { publish(watchers: value) }
  }

  private func publish(watchers count: Int?) {
    advertiser.change(log: log) { $0.watchers = count }
  }

  /// What the daemon said (the name the game was registered under); `lost`: the announcement is gone.
  func process() -> (said: [MatchEvent], lost: Bool) {
    do {
      let said = try advertiser.process().map { event -> MatchEvent in
        switch event {
        case .registered(let registered):
          log.write("advertised as \(registered)")
          return .status(
            registered == name
              ? "Announced on the local network as \(registered)."
              : "Announced on the local network as \(registered) (\(name) was taken).")
        }
      }
      return (said, false)
    } catch {
      cancel()
      log.write("advertisement lost: \(error)")
      return ([.status("\(error.message) Players can still join by address.")], true)
    }
  }

  /// Withdraws the announcement (its descriptor given up by the loop first).
  func cancel() {
    detach()
    advertiser.cancel()
  }
}

extension Advertiser {
  /// Changes the TXT record with `edit` and updates the advertisement when that changed it (every DNS-SD client
  /// on the LAN wakes for each update); a failure is logged: the advert says what it said before.
  package func change(log: Log, _ edit: (inout ServiceTXT) -> Void) {
    var changed = txt
    edit(&changed)
    guard changed != txt else { return }
    do {
      try update(txt: changed)
    } catch {
      log.write("advertisement not updated: \(error)")
    }
  }
}
