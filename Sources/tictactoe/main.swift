import App
import Foundation

exit(
  TicTacToe.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
