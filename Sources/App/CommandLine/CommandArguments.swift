import GameCore
import UntrustedText

/// The words after the command, sorted into options (each checked against `CommandLineGrammar`: known, allowed
/// under this command, given its value) and the other words, for the command's own type to read.
struct CommandArguments {
  typealias Command = CommandLineGrammar.Command

  let command: Command
  /// The options in the order given, with their values (nil for a switch).
  private(set) var given: [(name: String, value: String?)] = []
  /// The words that are not options or their values, in order (`identity import A B`: import, A, B).
  private(set) var words: [String] = []

  /// Reads `arguments` (`--option value` and `--option=value` alike) in one pass.
  init(command: Command, _ arguments: ArraySlice<String>) throws(UsageError) {
    self.command = command
    var rest = arguments
    while let argument = rest.popFirst() {
      var name = argument
      var attached: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        attached = String(argument[argument.index(after: equals)...])
      }
      guard name.hasPrefix("-"), name.count > 1 else {
        words.append(argument)
        continue
      }
      guard let option = CommandLineGrammar.option(named: name) else {
        throw UsageError(message: "unknown option \"\(name)\"")
      }
      guard option.commands.contains(command) else {
        let names = option.commands.map { $0 == .lobby ? "`tictactoe`" : "`tictactoe \($0.rawValue)`" }
          .joined(separator: " or ")
        throw UsageError(message: "\(name) belongs to \(names)")
      }
      if option.value == .none {
        if attached != nil { throw UsageError(message: "\(name) takes no value") }
        given.append((name, nil))
      } else if name == "--bot", attached == nil, rest.first.map({ $0.hasPrefix("--") }) ?? true {
        // `host --bot --engine COMMAND`: the engine plays for the bot, so no level follows (`HostCommand`).
        given.append((name, nil))
      } else {
        guard let value = attached ?? rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
        given.append((name, value))
      }
    }
  }

  func has(_ name: String) -> Bool { given.contains { $0.name == name } }

  /// The value given last for `name`.
  func value(_ name: String) -> String? { given.last { $0.name == name }?.value }

  /// Every value given for `name`, in order (`--pin A --pin B`).
  func values(_ name: String) -> [String] { given.filter { $0.name == name }.compactMap(\.value) }

  /// Which of `names` was given last.
  func last(of names: [String]) -> String? { given.last { names.contains($0.name) }?.name }

  func number(_ name: String) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text) else { throw UsageError(message: "\(name) needs a number, not \"\(text)\"") }
    return number
  }

  /// Seconds from the value of `name`, within `range` (`--grace`, `--wait`).
  func seconds(_ name: String, in range: ClosedRange<Double>, open: Bool = false) throws(UsageError) -> Double? {
    guard let text = value(name) else { return nil }
    guard let seconds = Double(text), range.contains(seconds), !open || seconds > range.lowerBound else {
      let bounds = "\(Self.shown(range.lowerBound)) to \(Self.shown(range.upperBound))"
      throw UsageError(message: "\(name) needs seconds from \(bounds), not \"\(text)\"")
    }
    return seconds
  }

  /// One of the words the grammar gives `name` (`--ui curses|plain`), as a `T`.
  func choice<T: RawRepresentable>(_ name: String, as type: T.Type = T.self) throws(UsageError) -> T?
  where T.RawValue == String {
    guard let text = value(name) else { return nil }
    guard let chosen = T(rawValue: text) else {
      var words: [String] = []
      if case .word(let allowed) = CommandLineGrammar.option(named: name)?.value { words = allowed }
      let list = words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1] : ""
      throw UsageError(message: "\(name) must be \(list), not \"\(text)\"")
    }
    return chosen
  }

  /// `--name`: the player's name for this run, 1 to 64 bytes.
  func playerName() throws(UsageError) -> String? {
    guard let name = value("--name") else { return nil }
    guard !name.isEmpty, name.utf8.count <= 64 else { throw UsageError(message: "--name must be 1 to 64 bytes long") }
    // Such a name could not go in a hello (docs/PROTOCOL.md): say so now, not when a game starts.
    guard !name.unicodeScalars.contains(where: VisibleText.isUnsafe) else {
      throw UsageError(
        message:
          "--name must have no control, bidirectional or invisible characters, not \"\(VisibleText.escaping(name))\"")
    }
    return name
  }

  /// `--ui` and `--ascii`, for the commands that draw.
  func screen() throws(UsageError) -> (ui: UIMode, ascii: Bool) {
    (try choice("--ui") ?? .curses, has("--ascii"))
  }

  /// Refuses any word: for the commands that take none.
  func noWords() throws(UsageError) {
    if let extra = words.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
  }

  private static func shown(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }

  /// `--clock C` read by the time control's grammar (`host`, `play`); nil when not given.
  func clock() throws(UsageError) -> TimeControl? {
    guard let text = value("--clock") else { return nil }
    do throws(TimeControlError) {
      return try TimeControl(parsing: text)
    } catch {
      throw UsageError(message: "--clock: \(error)")
    }
  }
}
