/// The benchmark's command line: `[--smoke] [--only GROUP,...] [--idle-seconds S]`.
struct BenchOptions: Equatable {
  /// The groups of figures, in table order.
  static let groups = [
    "ai", "handshake", "round-trip", "memory", "idle", "first-frame", "discovery", "dead-peer", "junk", "bot", "abuse",
    "watch", "package", "strength", "relay",
  ]
  static let usage =
    "usage: tictactoe-bench [--smoke] [--only GROUP,...] [--idle-seconds S] [--openings N]"
    + " [--strength-parts PART,...] [--move-ms MS]\n  groups: " + groups.joined(separator: ", ")
    + "\n  strength parts: " + strengthParts.joined(separator: ", ")
  /// The parts of the strength group.
  static let strengthParts = ["levels-15", "levels-9", "engines", "swap2"]

  /// A few iterations of everything, to check that it runs (the numbers then mean nothing).
  var smoke = false
  /// The groups to run (all when nil).
  var only: Set<String>?
  /// The length of each idle window (30 s, 1 s for a smoke run, unless given).
  var idleSeconds: Double?

  /// At most this many openings per strength pairing (all when nil), for a shorter run.
  var openings: Int?
  /// The parts of the strength group to play (all when nil).
  var strength: Set<String>?
  /// Our levels' time per move in the strength games, in milliseconds (100, 20 for a smoke run, unless given;
  /// the game gives the perfect level 250).
  var moveMilliseconds: Int?

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
      case "--move-ms":
        guard let text = rest.popFirst(), let milliseconds = Int(text), (1...60_000).contains(milliseconds) else {
          throw BenchError("--move-ms needs a number of milliseconds from 1 to 60000\n\(usage)")
        }
        options.moveMilliseconds = milliseconds
      case "--strength-parts":
        guard let list = rest.popFirst() else { throw BenchError("--strength-parts needs a list of parts\n\(usage)") }
        let names = list.split(separator: ",").map(String.init)
        if let unknown = names.first(where: { !strengthParts.contains($0) }) {
          throw BenchError("unknown strength part \(unknown)\n\(usage)")
        }
        options.strength = Set(names)
      default:
        throw BenchError("unknown argument \(argument)\n\(usage)")
      }
    }
    return options
  }

  /// Whether the group `name` is to run.
  func wants(_ name: String) -> Bool { only?.contains(name) ?? true }

  /// Whether the strength group's part `name` is to be played.
  func wantsStrength(_ name: String) -> Bool { strength?.contains(name) ?? true }
}
