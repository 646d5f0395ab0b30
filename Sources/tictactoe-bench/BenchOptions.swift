/// The benchmark's command line: `[--smoke] [--only GROUP,...] [--idle-seconds S]`.
struct BenchOptions: Equatable {
  /// The groups of figures, in table order.
  static let groups = [
    "ai", "handshake", "round-trip", "memory", "idle", "first-frame", "discovery", "dead-peer", "junk", "bot", "abuse",
    "watch", "package", "strength", "relay",
  ]
  static let usage =
    "usage: tictactoe-bench [--smoke] [--only GROUP,...] [--idle-seconds S] [--openings N]\n  groups: "
    + groups.joined(separator: ", ")

  /// A few iterations of everything, to check that it runs (the numbers then mean nothing).
  var smoke = false
  /// The groups to run (all when nil).
  var only: Set<String>?
  /// The length of each idle window (30 s, 1 s for a smoke run, unless given).
  var idleSeconds: Double?

  /// At most this many openings per strength pairing (all when nil), for a shorter run.
  var openings: Int?

  /// Parses the arguments; throws a message for the user when they are wrong.
  static func parse(_ arguments: [String]) throws -> BenchOptions {
    var options = BenchOptions()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--smoke":
        options.smoke = true
      case "--only":
        guard let list = rest.popFirst() else { throw BenchError("--only needs a list of groups\n\(usage)") }
        let names = list.split(separator: ",").map(String.init)
        if let unknown = names.first(where: { !groups.contains($0) }) {
          throw BenchError("unknown group \(unknown)\n\(usage)")
        }
        options.only = Set(names)
      case "--idle-seconds":
        guard let text = rest.popFirst(), let seconds = Double(text), seconds > 0 else {
          throw BenchError("--idle-seconds needs a positive number of seconds\n\(usage)")
        }
        options.idleSeconds = seconds
      case "--openings":
        guard let text = rest.popFirst(), let count = Int(text), count > 0 else {
          throw BenchError("--openings needs a positive number\n\(usage)")
        }
        options.openings = count
      default:
        throw BenchError("unknown argument \(argument)\n\(usage)")
      }
    }
    return options
  }

  /// Whether the group `name` is to run.
  func wants(_ name: String) -> Bool { only?.contains(name) ?? true }
}
