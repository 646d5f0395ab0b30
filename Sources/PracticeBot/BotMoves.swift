import EventLoop
import GameCore
import Glibc
import Gomocup
import OutsideEngines
import PlayerFiles
import UntrustedText

/// Where the practice bot's moves come from when a seat does not choose them on the loop: the built-in
/// computer's search on a worker thread (boards too big to solve from its book at once), or an outside engine
/// (`host --bot --engine`), one process per game and at most `cap` at once. Nothing here waits on the loop: an
/// engine's pipes are watched by it, and a finished game's process is told END and killed by its pid on a timer
/// if it has not exited by then.
package final class BotMoves {
  /// Who plays for the bot.
  package enum Player {
    case computer(AIPlayer)
    /// An engine's command, split into words, and how many of its processes may run at once.
    case engine(words: [String], cap: Int)
  }

  package let player: Player
  private let botName: String
  private let loop: EventLoop
  private let log: Log
  /// The links holding one of the engine's places (taken when TLS is done, given back when the link closes).
  private var places: Set<ObjectIdentifier> = []
  /// Each link's engine in the game in progress.
  private var engines: [ObjectIdentifier: EngineSeat] = [:]
  /// The generator of the moves chosen on the loop, seeded from the system's once: the system's asked the kernel
  /// (getrandom) for every move, and one per seat was one more object to bring into the cache every move.
  private var random = SplitMix(seed: UInt64.random(in: .min ... .max))
  /// Processes of games over, told END: killed at their deadline if they have not exited.
  private var retiring: [(process: EngineProcess, name: String, deadline: Double)] = []

  /// What an engine is told of its time: a second a move (it forfeits after that and the grace,
  /// `EngineConversation.graceMilliseconds`), a joiner waiting at the other end.
  static let engineTerms = EngineConversation.Terms(turnMilliseconds: 1_000)
  /// How long a process told END has to exit before its process group is killed.
  static let exitGrace = 0.5

  /// The engine's command and cap when one plays (`host --bot --engine`), else the computer `ai`.
  init(engine: (words: [String], cap: Int)?, ai: AIPlayer, botName: String, loop: EventLoop, log: Log) {
    player = engine.map { .engine(words: $0.words, cap: $0.cap) } ?? .computer(ai)
    self.botName = botName
    self.loop = loop
    self.log = log
  }

  /// The default cap on engine processes: the number of processors online.
  package static var processors: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  /// The engine's name as shown (nil: the built-in computer plays).
  var engineName: String? {
    guard case .engine(let words, _) = player else { return nil }
    return EngineCommandLine.shownName(words)
  }

  /// Engine processes running (games in progress) and told END but not gone yet.
  var running: (playing: Int, ending: Int) { (engines.count, retiring.count) }

  /// The chooser a seat uses on the loop, or nil when its moves are asked off the seat: the computer on boards of
  /// up to `AILevel.exactCells` (16) cells (each position solved once, from the book after: microseconds); on
  /// bigger boards its search (up to `BotHost.moveBudget`, or 156 ms past 5×5's table) goes to a worker thread.
  func chooserOnLoop(rules: Rules) -> ((Game) -> Position?)? {
    guard case .computer(let ai) = player, rules.cellCount <= AILevel.exactCells else { return nil }
    return { [unowned self] game in ai.chooseMove(in: game, using: &random) }
  }

  /// Whether a joiner just secured may play: always against the computer; against an engine while fewer than
  /// `cap` links hold a place (one is taken for `link` now).
  func takePlace(for link: ObjectIdentifier) -> Bool {
    guard case .engine(_, let cap) = player else { return true }
    if places.contains(link) { return true }
    guard places.count < cap else { return false }
    places.insert(link)
    return true
  }

  /// `admission` as it stands once `link` asks for a place: a joiner let in is refused as busy at the cap.
  func placeFor(_ link: ObjectIdentifier, _ admission: BotAdmission) -> BotAdmission {
    guard case .letIn = admission, !takePlace(for: link) else { return admission }
    return .refuse(busyText, reason: .busy)
  }

  /// What a joiner refused at the cap is told.
  var busyText: String {
    guard case .engine(_, let cap) = player else { return "\(botName) is busy" }
    return "\(botName): its engine plays \(cap) \(cap == 1 ? "game" : "games") at once and all are taken; "
      + "try again in a minute"
  }

  /// Chooses the move `request` asks for; `answer` is called on the loop, once, unless the game ends first.
  func ask(_ request: BotMoveRequest, for link: ObjectIdentifier, answer: @escaping (BotMoveAnswer) -> Void) {
    switch player {
    case .computer(let ai):
      let game = request.game
      loop.perform(
        {
          var random = SystemRandomNumberGenerator()
          return ai.chooseMove(in: game, using: &random)
        }, then: { answer(.move($0)) })
    case .engine(let words, _):
      let seat = engines[link] ?? startSeat(words)
      engines[link] = seat
      seat.onReport = { [unowned self, unowned seat] report in
        switch report {
        case .moved(let position):
          answer(.move(position))
        case .forfeit(let fault):
          self.engines[link] = nil
          answer(.forfeit("\(self.botName)'s engine \(seat.name) forfeits this game: \(fault.reason)"))
        case .swap2, .noSwap2:
          break  // the bot's games open as usual: nothing asks its engine about Swap2
        }
      }
      seat.ask(request.game)
    }
  }

  private func startSeat(_ words: [String]) -> EngineSeat {
    let seat = EngineSeat(words: words, loop: loop, log: log, terms: Self.engineTerms)
    seat.retire = { [unowned self, name = seat.name] process in self.retire(process, name: name) }
    return seat
  }

  /// `link`'s game is over: its engine's process is told END and goes.
  func gameOver(for link: ObjectIdentifier) {
    engines.removeValue(forKey: link)?.stop()
  }

  /// `link` has closed: its game's engine goes, and its place is free.
  func release(_ link: ObjectIdentifier) {
    gameOver(for: link)
    places.remove(link)
  }

  private func retire(_ process: EngineProcess, name: String) {
    let deadline = loop.now + Self.exitGrace
    retiring.append((process, name, deadline))
    _ = loop.schedule(at: deadline) { [weak self] in self?.reap(force: false) }
  }

  /// Ends the processes whose time to exit is over (all of them with `force`), each by its pid.
  private func reap(force: Bool) {
    let now = loop.now
    retiring.removeAll { entry in
      let exited = entry.process.ended()
      guard force || exited != nil || now >= entry.deadline - 0.001 else { return false }
      entry.process.finish()
      let how = exited ?? "killed: it had not exited \(Self.exitGrace) s after END"
      log.write("engine \(entry.name), process \(entry.process.pid): \(how)")
      return true
    }
  }

  /// The bot is stopping: every engine is told END, given `exitGrace` together to exit, then killed.
  func stopAll() {
    for link in Array(engines.keys) { gameOver(for: link) }
    places.removeAll()
    let until = Monotonic.now() + Self.exitGrace
    while Monotonic.now() < until, retiring.contains(where: { $0.process.ended() == nil }) {
      var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
      nanosleep(&pause, nil)
    }
    reap(force: true)
  }
}
