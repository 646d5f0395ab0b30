import FrontEnds
import GameCore
import Glibc
import Gomocup
import MatchCoordination

/// The thin shell of `tictactoe brain`: lines from the manager into `BrainMachine`, its replies out with CR LF,
/// and the searches it asks for run here, one at a time, within the time it gives. Nothing else is ever written
/// to standard output, and nothing at all to standard error: the manager reads the one and may show the other.
struct BrainDriver {
  let input: Int32
  let output: Int32

  /// Reads until END or the end of the input; 0 either way.
  func run() -> Int32 {
    let version = Software.version.split(separator: " ").last.map(String.init) ?? ""
    var machine = BrainMachine(about: .init(name: "tictactoe", version: version))
    var splitter = LineSplitter()
    var rng = SystemRandomNumberGenerator()
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      // Wait for input even when the descriptor came non-blocking from the manager.
      var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      if poll(&ready, 1, -1) < 0, errno != EINTR { return 1 }
      let count = read(input, &chunk, chunk.count)
      if count < 0, errno == EAGAIN || errno == EINTR { continue }
      let lines = count > 0 ? splitter.feed(chunk[0..<count]) : splitter.finish()
      for line in lines {
        var outputs = machine.receive(line)
        while !outputs.isEmpty {
          let next = outputs.removeFirst()
          switch next {
          case .reply(let text):
            writeAll(output, text + "\r\n")
          case .search(let game, let milliseconds):
            let player = AIPlayer(level: .perfect, budget: .milliseconds(milliseconds))
            // A game the machine asked about always has a move; the first empty cell is never needed.
            let move = player.chooseMove(in: game, using: &rng) ?? game.legalMoves.first
            if let move { outputs += machine.chose(move) }
          case .swap2(let opening, let milliseconds):
            let computer = Swap2Computer(budget: .milliseconds(milliseconds))
            outputs += machine.answered(computer.answer(to: opening, using: &rng))
          case .end:
            return 0
          }
        }
      }
      if count <= 0 { break }
    }
    return 0
  }
}
