/// Which side held a saturated load run back: the server, the load generator, or neither. Each runs on CPUs of
/// its own (the bot rows pin the server to all CPUs but the last, the generator to the last), so the one whose
/// CPUs were busy all the run is the limit; when the generator is, the moves per second say more about the
/// generator than about the server, and the CPU time per move is the figure to compare.
enum LoadBound: Equatable {
  case server
  case generator
  /// Neither was busy all the run: each waited on the other (or on the kernel, or on a machine shared with others).
  case neither

  /// The share of its CPUs above which a side counts as busy all the run.
  static let busy = 0.9

  /// `serverBusy` and `generatorBusy`: the share of the CPUs each may use that it used (1 = all of them all the
  /// time). The busier side when it passes `busy`; both busy: the busier.
  init(serverBusy: Double, generatorBusy: Double) {
    guard max(serverBusy, generatorBusy) >= Self.busy else {
      self = .neither
      return
    }
    self = serverBusy >= generatorBusy ? .server : .generator
  }

  /// How the benchmark's log says it.
  var words: String {
    switch self {
    case .server: return "bound by the server's CPU"
    case .generator: return "bound by the load generator's CPU: the moves per second say more about the load"
    case .neither: return "bound by neither CPU (each side waited on the other)"
    }
  }
}
