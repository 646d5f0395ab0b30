import ExplainedErrors
import UntrustedText

/// An engine's command ("COMMAND ARGS") split into words without a shell: spaces and tabs separate words;
/// 'single quotes' keep everything inside as it is; "double quotes" keep everything but \" and \\, which stand
/// for " and \; outside quotes a backslash keeps the next character as it is. Nothing else is special: no
/// variables, globs, pipes or redirections.
public enum EngineCommandLine {
  /// The longest command taken (bytes).
  public static let limit = 4096

  /// Programs that run the engine rather than being it: the engine is named after the script they run.
  public static let interpreters: Set<String> = [
    "python", "python3", "sh", "bash", "env", "node", "perl", "ruby", "java",
  ]

  /// The name an engine is shown and recorded under: its program's file name (the script's, after an
  /// interpreter), made safe to show.
  public static func shownName(_ words: [String]) -> String {
    func file(_ word: String) -> String { word.split(separator: "/").last.map(String.init) ?? word }
    guard let first = words.first else { return "engine" }
    if interpreters.contains(file(first)), let script = words.dropFirst().first(where: { !$0.hasPrefix("-") }) {
      return VisibleText.escaping(file(script))
    }
    return VisibleText.escaping(file(first))
  }

  public static func words(_ text: String) -> Result<[String], EngineCommandError> {
    guard text.utf8.count <= limit else { return .failure(.tooLong(limit)) }
    var words: [String] = []
    var word = ""
    var inWord = false
    var iterator = text.makeIterator()
    while let character = iterator.next() {
      switch character {
      case " ", "\t":
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case "'":
        inWord = true
        var closed = false
        while let inner = iterator.next() {
          if inner == "'" {
            closed = true
            break
          }
          word.append(inner)
        }
        guard closed else { return .failure(.unclosedQuote("'")) }
      case "\"":
        inWord = true
        var closed = false
        while let inner = iterator.next() {
          if inner == "\"" {
            closed = true
            break
          }
          if inner == "\\" {
            guard let escaped = iterator.next() else { break }
            if escaped != "\"" && escaped != "\\" { word.append("\\") }
            word.append(escaped)
          } else {
            word.append(inner)
          }
        }
        guard closed else { return .failure(.unclosedQuote("\"")) }
      case "\\":
        inWord = true
        guard let escaped = iterator.next() else { return .failure(.trailingBackslash) }
        word.append(escaped)
      default:
        if character.isNewline || character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
          return .failure(.controlCharacter)
        }
        inWord = true
        word.append(character)
      }
    }
    if inWord { words.append(word) }
    guard !words.isEmpty, !words[0].isEmpty else { return .failure(.empty) }
    return .success(words)
  }
}

/// Why an engine's command could not be split into words.
public enum EngineCommandError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  case empty
  case unclosedQuote(Character)
  case trailingBackslash
  case controlCharacter
  case tooLong(Int)

  /// A stable name for the refusal, for logs and tests.
  public var code: String {
    switch self {
    case .empty: "engine-command.empty"
    case .unclosedQuote: "engine-command.unclosed-quote"
    case .trailingBackslash: "engine-command.trailing-backslash"
    case .controlCharacter: "engine-command.control-character"
    case .tooLong: "engine-command.too-long"
    }
  }

  /// What is wrong with the command.
  public var reason: String { description }

  /// What the player can do.
  public var hint: String? {
    "write the engine's command as a shell would take it (words, with quotes around a word holding spaces), in "
      + "--engine or the engine setting"
  }

  public var description: String {
    switch self {
    case .empty: "the engine command is empty: give the program to run, such as --engine \"pbrain-x --fast\""
    case .unclosedQuote(let quote): "the engine command has a \(quote) quote that is never closed"
    case .trailingBackslash: "the engine command ends in a backslash with nothing after it"
    case .controlCharacter: "the engine command holds a control character (a line end, a tab is fine)"
    case .tooLong(let limit): "the engine command is longer than \(limit) bytes"
    }
  }
}
