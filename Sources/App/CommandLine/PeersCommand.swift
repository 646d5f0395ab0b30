/// `tictactoe peers ...`
public enum PeersCommand: Sendable, Equatable {
  case list
  /// Give the peer named or with this fingerprint another name (its petname).
  case rename(String, to: String)
  case forget(String)
}

/// `tictactoe peers [list | rename NAME|FINGERPRINT NEWNAME | forget NAME|FINGERPRINT]`.
extension PeersCommand: Command {
  static let name = CommandLineGrammar.Command.peers

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    let words = arguments.words
    switch words.first {
    case nil, "list":
      guard words.count <= 1 else { throw UsageError(message: "peers list takes no arguments") }
      return .peers(.list)
    case "rename":
      guard words.count == 3 else {
        throw UsageError(message: "peers rename needs NAME or FINGERPRINT, then the new name")
      }
      return .peers(.rename(words[1], to: words[2]))
    case "forget":
      guard words.count == 2 else { throw UsageError(message: "peers forget needs one NAME or FINGERPRINT") }
      return .peers(.forget(words[1]))
    default:
      throw UsageError(message: "peers knows list, rename and forget, not \"\(words[0])\"")
    }
  }

  /// Does it (`IdentityCommands`).
  static func run(_ command: PeersCommand, environment: [String: String]) -> Int32 {
    IdentityCommands.run(command, profile: RunContext.profile(environment, name: nil))
  }
}
