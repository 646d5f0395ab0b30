import FrontEnds

/// `tictactoe identity ...`
public enum IdentityCommand: Sendable, Equatable {
  /// Print the fingerprint (first line, SHA256:...) and the read-aloud form.
  case show
  /// Make a new key and certificate, keeping the name; an existing identity is replaced only when
  /// `confirmed` (`--yes`) or the player says yes at the terminal.
  case new(confirmed: Bool)
  /// Use the identity in these PEM files, or this PKCS#12 file (its password from `passwordFile`, else asked
  /// at the terminal); an existing other identity is replaced only when `confirmed` (`--yes`) or the player
  /// says yes at the terminal.
  case importPEM(certificate: String, key: String, confirmed: Bool)
  case importPKCS12(file: String, passwordFile: String?, confirmed: Bool)
  /// Print the certificate (PEM) on standard output.
  case exportCertificate
}

/// `tictactoe identity [show | new [--yes] | import ... [--yes] | export]`.
extension IdentityCommand: Command {
  static let name = CommandLineGrammar.Command.identity

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    let words = arguments.words
    let command: IdentityCommand
    switch words.first {
    case nil, "show":
      guard words.count <= 1 else { throw UsageError(message: "identity show takes no arguments") }
      command = .show
    case "new":
      guard words.count == 1 else { throw UsageError(message: "identity new takes no arguments (only --yes)") }
      command = .new(confirmed: arguments.has("--yes"))
    case "export":
      guard words.count == 1 else { throw UsageError(message: "identity export takes no arguments") }
      command = .exportCertificate
    case "import":
      if words.count == 3 {
        command = .importPEM(certificate: words[1], key: words[2], confirmed: arguments.has("--yes"))
      } else if words.count == 2 {
        command = .importPKCS12(
          file: words[1], passwordFile: arguments.value("--password-file"), confirmed: arguments.has("--yes"))
      } else {
        throw UsageError(message: "identity import needs CERT.pem KEY.pem, or FILE.p12")
      }
    default:
      throw UsageError(message: "identity knows show, new, import and export, not \"\(words[0])\"")
    }
    if arguments.has("--yes"), command == .show || command == .exportCertificate {
      throw UsageError(message: "--yes goes with `tictactoe identity new` and `tictactoe identity import`")
    }
    var takesPassword = false
    if case .importPKCS12 = command { takesPassword = true }
    if arguments.has("--password-file"), !takesPassword {
      throw UsageError(message: "--password-file goes with `tictactoe identity import FILE.p12`")
    }
    return .identity(command, name: try arguments.playerName())
  }

  /// Does it (`IdentityCommands`), as `name` (else as the settings name the player).
  static func run(_ command: IdentityCommand, name: String?, environment: [String: String]) -> Int32 {
    // The name for a new identity comes from the settings unless given: say when they could not be read.
    if name == nil, let warning = RunContext.settingsWarning(environment) {
      writeError("tictactoe: warning: \(warning)\n")
    }
    return IdentityCommands.run(command, profile: RunContext.profile(environment, name: name))
  }
}
