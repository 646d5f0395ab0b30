import GameCore

#if canImport(Glibc)
  import Glibc
#endif

/// An outside engine run as a Gomocup (Piskvork) brain on pipes, for the strength games: told the whole
/// position with BOARD ... DONE before each of its moves, so nothing it remembers between moves matters.
final class BrainEngine {
  let name: String
  private let child: ChildProcess
  private let input: Pipe
  private let output: Pipe
  private var pending: [UInt8] = []
  /// The longest an answer may take before the engine forfeits the game.
  static let answerLimit = 120.0

  init(name: String, command: [String]) throws {
    guard let program = command.first else { throw BenchError("no command for the engine \(name)") }
    self.name = name
    input = try Pipe(forChildInput: true)
    output = try Pipe()
    child = try ChildProcess(
      program, Array(command.dropFirst()), environment: ChildProcess.currentEnvironment(),
      stdin: .descriptor(input.reader), stdout: .descriptor(output.writer))
    output.closeWriter()
  }

  deinit {
    try? input.write("END\r\n")
    input.closeWriter()
    if child.wait(timeout: 2) == nil { child.stop(grace: 1) }
  }

  /// Starts a game on `rules`' board (square, five in a row: what the protocol knows).
  func start(_ rules: Rules, milliseconds: Int) throws {
    try input.write("START \(rules.columns)\r\nINFO timeout_turn \(milliseconds)\r\nINFO rule 0\r\n")
    let reply = try line()
    guard reply.hasPrefix("OK") else { throw BenchError("\(name) answered START with \(reply)") }
  }

  /// The engine's move in `game` (its side is the side to move), or an error when it answers nothing legal in
  /// time.
  func move(in game: Game) throws -> Position {
    var text = "BOARD\r\n"
    for (n, position) in game.history.enumerated() {
      let own = n % 2 == game.history.count % 2
      text += "\(position.column),\(position.row),\(own ? 1 : 2)\r\n"
    }
    text += "DONE\r\n"
    try input.write(text)
    let reply = try line()
    let fields = reply.split(separator: ",").map { Int($0.trimmingCharacters(in: " \r")) }
    guard fields.count == 2, let column = fields[0], let row = fields[1] else {
      throw BenchError("\(name) answered \(reply.prefix(60)) instead of a move")
    }
    return Position(row: row, column: column)
  }

  /// The next line that is not MESSAGE or DEBUG, without its line end.
  private func line() throws -> String {
    let deadline = Double(Clock.now()) / 1e9 + Self.answerLimit
    while true {
      if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let bytes = pending[..<end]
        pending.removeSubrange(...end)
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: "\r")
        if text.hasPrefix("MESSAGE") || text.hasPrefix("DEBUG") || text.isEmpty { continue }
        return text
      }
      let left = deadline - Double(Clock.now()) / 1e9
      guard left > 0 else { throw BenchError("\(name) gave no answer within \(Int(Self.answerLimit)) s") }
      guard let bytes = output.read(waitingAtMost: min(left, 1)) else {
        throw BenchError("\(name) stopped")
      }
      pending += bytes
    }
  }
}

extension String {
  /// The text without `characters` at either end.
  fileprivate func trimmingCharacters(in characters: String) -> String {
    var slice = Substring(self)
    while let first = slice.first, characters.contains(first) { slice.removeFirst() }
    while let last = slice.last, characters.contains(last) { slice.removeLast() }
    return String(slice)
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in characters: String) -> String {
    String(self).trimmingCharacters(in: characters)
  }
}
