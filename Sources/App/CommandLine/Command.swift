/// One command of the command line, in a type of its own: it reads the command's words (`CommandArguments`),
/// checks what can be checked before the saved settings are read, and returns the `Invocation`; its `run`
/// (reached from `Invocation.run`, with the invocation's values) does what was asked. `CommandLineParser` picks
/// the type by the command's name.
protocol Command {
  /// The command's word in `CommandLineGrammar`.
  static var name: CommandLineGrammar.Command { get }
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation
}
