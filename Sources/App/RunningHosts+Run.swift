import FrontEnds
import NetworkShell
import PlayerFiles

extension RunningHosts {
  /// `tictactoe invite`: prints each live host's invite, one a line, for copying.
  static func run(paths: Paths) -> Int32 {
    let (invites, problems) = live(paths: paths)
    for problem in problems { writeError("tictactoe: \(problem)\n") }
    guard !invites.isEmpty else {
      if problems.isEmpty { writeError("tictactoe: you are not hosting a game (start one with: tictactoe host)\n") }
      return ExitStatus.failure
    }
    for invite in invites { writeText(1, invite + "\n") }
    return ExitStatus.ok
  }
}
