/// `tictactoe brain`: the built-in computer as a Gomocup (Piskvork) brain on standard input and output, for any
/// manager that speaks the protocol (docs/ENGINES.md).
enum BrainCommand: Command {
  static let name = CommandLineGrammar.Command.brain

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    return .brain
  }

  /// Answers the manager until END or the end of the input (`BrainDriver`).
  static func run() -> Int32 {
    BrainDriver(input: 0, output: 1).run()
  }
}
