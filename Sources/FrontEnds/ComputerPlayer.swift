import EventLoop
import GameCore
import Glibc
import Synchronization

/// Runs the AI off the event loop's thread and wakes the loop through a pipe when a move is ready.
public final class ComputerPlayer: Sendable {
  public let readDescriptor: Int32
  private let writeDescriptor: Int32
  private let results = Mutex<[(Answer, Int)]>([])

  /// What the computer chose: a move, or its answer in a Swap2 opening.
  public enum Answer: Sendable, Equatable {
    case move(Position)
    case swap2([Swap2.Action])
  }

  public init() {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    readDescriptor = fds[0]
    writeDescriptor = fds[1]
  }

  /// Starts choosing a move, searching at most `budget` milliseconds (nil: the usual budget); the answer
  /// arrives through `takeResults()` tagged with `token`.
  public func think(game: Game, level: AILevel, token: Int, budget: Int? = nil) {
    WorkerThreads.shared.run { [self] in
      var rng = SystemRandomNumberGenerator()
      let player = AIPlayer(level: level, budget: .milliseconds(budget ?? AIPlayer.usualMilliseconds))
      guard let move = player.chooseMove(in: game, using: &rng) else { return }
      deliver(.move(move), token: token)
    }
  }

  /// Starts choosing the computer's answer where `opening` stands, in one move's time (`Swap2Computer`), at most
  /// `budget` milliseconds (nil: the usual budget); the answer arrives through `takeResults()` tagged with `token`.
  public func answer(_ opening: Swap2, token: Int, budget: Int? = nil) {
    WorkerThreads.shared.run { [self] in
      var rng = SystemRandomNumberGenerator()
      let computer = Swap2Computer(budget: .milliseconds(budget ?? AIPlayer.usualMilliseconds))
      deliver(.swap2(computer.answer(to: opening, using: &rng)), token: token)
    }
  }

  private func deliver(_ answer: Answer, token: Int) {
    results.withLock { $0.append((answer, token)) }
    var byte: UInt8 = 1
    _ = write(writeDescriptor, &byte, 1)
  }

  /// The answers chosen since the last call.
  public func takeResults() -> [(Answer, Int)] {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(readDescriptor, &buffer, buffer.count) > 0 {}
    return results.withLock { pending in
      defer { pending.removeAll() }
      return pending
    }
  }
}
