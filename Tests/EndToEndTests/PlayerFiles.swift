import Foundation

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; true if it held.
func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if condition() { return true }
    usleep(20_000)
  }
  return condition()
}

/// The board lines of the last 3×3 board `player` printed (plain mode).
func lastBoard(_ player: Player) -> String {
  let lines = player.output.components(separatedBy: "\n")
  guard let last = lines.lastIndex(where: { $0.contains("---+---+---") }), last >= 3 else { return "" }
  return lines[(last - 3)...(last + 1)].map { String($0.suffix(10)) }.joined(separator: "\n")
}

/// Where `player` keeps the journals of games in progress (PROTOCOL.md rule 19).
func journalDirectory(_ player: Player) -> String { player.environment["XDG_DATA_HOME"]! + "/tictactoe/journal" }

/// The journal files in `player`'s data directory, by name, with their text.
func journals(_ player: Player) -> [String: String] {
  let folder = journalDirectory(player)
  var files: [String: String] = [:]
  for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".journal") {
    files[name] = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)
  }
  return files
}
