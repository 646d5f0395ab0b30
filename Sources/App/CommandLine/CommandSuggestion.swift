/// The command a mistyped word was most likely meant to be (`plya` → `play`), by edit distance.
enum CommandSuggestion {
  /// The command nearest `word`, when one is at most two edits away (one for words of four letters or fewer) and
  /// no other command is as near; nil otherwise.
  static func command(near word: String) -> CommandLineGrammar.Command? {
    let typed = Array(word.lowercased())
    let limit = typed.count <= 4 ? 1 : 2
    let candidates = CommandLineGrammar.Command.allCases.filter { $0 != .lobby }.map { command in
      (command, distance(typed, Array(command.rawValue)))
    }
    guard let best = candidates.map(\.1).min(), best <= limit else { return nil }
    let nearest = candidates.filter { $0.1 == best }
    return nearest.count == 1 ? nearest[0].0 : nil
  }

  /// The optimal string alignment distance: insertions, deletions, substitutions, and swaps of two neighbours,
  /// each one edit (so `plya` is one edit from `play`).
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }
}
