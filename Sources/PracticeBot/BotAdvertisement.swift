import Discovery
import EventLoop
import GameCore
import Glibc
import NetworkShell
import PlayerFiles
import WireProtocol

/// The bot's announcement on the LAN (DNS-SD, state `waiting` for good: it always has room), watched on the
/// bot's loop; what goes wrong is logged and told to the operator, and the bot goes on by address.
package final class BotAdvertisement {
  private var advertiser: Advertiser?
  private let loop: EventLoop
  private let log: Log
  /// The number of spectators the TXT record says (`watch=N`), changed at most once every 10 s.
  private var watchers = AdvertPacing(0)

  /// Announces `name` on `port`, playing at `level`, or with `engine` (the program's name as shown) for it:
  /// `bot=engine` and `engine=NAME`; throws what to tell the operator when that is impossible.
  init(
    name: String, port: UInt16, rules: Rules, timeControl: TimeControl = .none, opening: Opening = .standard,
    fingerprint: String, level: AILevel, engine: String?,
    loop: EventLoop, log: Log
  ) throws(BotAdvertisementProblem) {
    self.loop = loop
    self.log = log
    guard
      var txt = LANAnnouncement.txt(
        name: name, rules: rules, timeControl: timeControl, fingerprint: fingerprint, bot: level.rawValue,
        engine: engine, opening: opening)
    else {
      throw BotAdvertisementProblem(message: nil)
    }
    txt.watchers = 0  // anyone may watch any of its games (PROTOCOL.md rule 27)
    do {
      advertiser = try Advertiser(name: name, port: port, txt: txt)
    } catch {
      log.write("not advertised: \(error)")
      throw BotAdvertisementProblem(message: "\(error.message) Players can still join by address.")
    }
  }

  deinit { advertiser?.cancel() }

  /// `count` spectators watch the bot's games now (called every sweep): the record says so when the pacing lets it.
  func showWatchers(_ count: Int, now: Double) {
    guard let advertiser, let value = watchers.changed(to: count, now: now) ?? watchers.due(now: now) else { return }
    advertiser.change(log: log) { $0.watchers = value }
  }

  /// Watches the advertisement's descriptor; `say` prints a status line.
  func watch(say: @escaping (String) -> Void) {
    guard let fd = advertiser?.descriptor else { return }
    loop.watch(fd, events: Int16(POLLIN)) { [unowned self] _ in self.process(say: say) }
  }

  func cancel() {
    if let fd = advertiser?.descriptor { loop.unwatch(fd) }
    advertiser?.cancel()
    advertiser = nil
  }

  private func process(say: (String) -> Void) {
    guard let advertiser, let fd = advertiser.descriptor else { return }
    do {
      for case .registered(let name) in try advertiser.process() {
        log.write("advertised as \(name)")
        say("Announced on the local network as \(name).")
      }
    } catch {
      loop.unwatch(fd)
      self.advertiser = nil
      log.write("advertisement lost: \(error)")
      say("\(error.message) Players can still join by address.")
    }
  }
}

/// Why the bot is not announced: `message` for the operator (nil: nothing to say, the board has no TXT form).
package struct BotAdvertisementProblem: Error {
  let message: String?
}
