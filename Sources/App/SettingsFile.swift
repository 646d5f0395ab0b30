import GameCore
import Security
import TerminalUI
import UntrustedText

/// Reads and writes the settings file: "key = value" lines, "#" comments.
public enum SettingsFile {
  public static func parse(_ text: String, path: String) throws(FileError) -> Settings {
    var settings = Settings()
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.trimmingWhitespace()
      if line.isEmpty || line.hasPrefix("#") { continue }
      let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
      func fail(_ reason: String) -> FileError { FileError(path: path, line: index + 1, reason: reason) }
      guard parts.count == 2 else { throw fail("expected \"key = value\", found \"\(line)\"") }
      let (key, value) = (parts[0], parts[1])
      switch key {
      case "size":
        guard let size = Int(value), Rules.sideRange.contains(size) else {
          throw fail("size must be a number from 3 to 15, found \"\(value)\"")
        }
        settings.size = size
      case "k":
        guard let k = Int(value), k >= 3 else { throw fail("k must be a number from 3, found \"\(value)\"") }
        settings.k = k
      case "level":
        guard let level = AILevel(rawValue: value) else {
          throw fail("level must be easy, normal or perfect, found \"\(value)\"")
        }
        settings.aiLevel = level
      case "first":
        guard let first = FirstPlayer(rawValue: value) else {
          throw fail("first must be me, them or random, found \"\(value)\"")
        }
        settings.first = first
      case "name":
        guard !value.isEmpty, value.utf8.count <= 64 else {
          throw fail("name must be 1 to 64 bytes, found \"\(value)\"")
        }
        // Such a name could not go in a hello (docs/PROTOCOL.md): say so here, not at every game.
        guard !value.unicodeScalars.contains(where: VisibleText.isUnsafe) else {
          throw fail("name must have no control, bidirectional or invisible characters, found \"\(value)\"")
        }
        settings.name = value
      case "records":
        guard let on = ["on": true, "off": false][value] else {
          throw fail("records must be on or off, found \"\(value)\"")
        }
        settings.records = on
      case "port":
        guard let port = UInt16(value) else { throw fail("port must be a number from 0 to 65535, found \"\(value)\"") }
        settings.port = port
      case "map_port":
        guard value == "yes" || value == "no" else { throw fail("map_port must be yes or no, found \"\(value)\"") }
        settings.mapPort = value == "yes"
      case "deny", "limits_exempt":
        do throws(DenyList.EntryError) {
          let list = try DenyList(parsing: value)
          if key == "deny" { settings.deny = list.setting } else { settings.limitsExempt = list.setting }
        } catch {
          throw fail("\(key): \(error.reason)")
        }
      default:
        // Unknown keys are kept for a later version's sake and otherwise ignored.
        continue
      }
    }
    guard settings.k <= settings.size else {
      throw FileError(path: path, reason: "k = \(settings.k) does not fit a \(settings.size)×\(settings.size) board")
    }
    return settings
  }

  public static func render(_ settings: Settings) -> String {
    """
    # tictactoe settings (written by the game; edit while it is not running)
    size = \(settings.size)
    k = \(settings.k)
    level = \(settings.aiLevel.rawValue)
    first = \(settings.first.rawValue)
    records = \(settings.records ? "on" : "off")
    \(settings.name.map { "name = \($0)\n" } ?? "")\(settings.mapPort.map { "map_port = \($0 ? "yes" : "no")\n" } ?? "")
    """
      + (settings.port.map { "port = \($0)\n" } ?? "")
      + (settings.deny.map { "deny = \($0)\n" } ?? "")
      + (settings.limitsExempt.map { "limits_exempt = \($0)\n" } ?? "")
  }

  /// The saved settings; defaults when there is no file yet; an error naming the line when it is corrupt.
  public static func load(from path: String) throws(FileError) -> Settings {
    if let (reason, fix) = FileExposure.problem(file: path) {
      throw FileError(path: path, reason: "\(reason), so someone else could change your settings: run `\(fix)`")
    }
    guard PosixFiles.exists(path) else { return Settings() }
    guard let data = PosixFiles.read(path) else {
      throw FileError.unreadable(path)
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      let lines = data.split(separator: 10, omittingEmptySubsequences: false)
      let bad = lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0
      throw FileError(path: path, line: bad + 1, reason: "is not UTF-8 text")
    }
    return try parse(text, path: path)
  }

  /// Replaces the settings file atomically. A file that exists but does not load is never replaced: it may hold
  /// the player's hand edits, so it is reported (with its line) instead, to be fixed or deleted.
  public static func save(_ settings: Settings, to path: String) throws {
    if let (reason, fix) = FileExposure.problem(file: path) {
      throw FileError(path: path, reason: "\(reason); not written: run `\(fix)`")
    }
    if PosixFiles.exists(path) {
      do {
        _ = try load(from: path)
      } catch {
        throw FileError(
          path: error.path, line: error.line, reason: "\(error.reason); not replaced: fix or delete it")
      }
    }
    try AtomicFile.write(render(settings), to: path)
  }
}
