import GameCore
import Glibc
import Gomocup
import MatchCoordination
import NetworkShell
import PlayerFiles
import PlayerSettings
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
      do throws(Rejection) {
        guard parts.count == 2 else { throw Rejection("expected \"key = value\", found \"\(line)\"") }
        let (key, value) = (parts[0], parts[1])
        switch key {
        case "size", "k", "level", "first", "engine", "opponent":
          try readGameSetting(key, value, into: &settings)
        case "name", "records", "port", "map_port", "clock", "relay", "rule", "opening":
          try readPlayerSetting(key, value, into: &settings)
        case "deny", "limits_exempt", "connections_per_address", "proxy_from", "spectators", "watch_delay":
          try readHostLimit(key, value, into: &settings)
        default:
          // Unknown keys are kept for a later version's sake and otherwise ignored.
          continue
        }
      } catch {
        throw FileError(path: path, line: index + 1, reason: error.reason)
      }
    }
    if settings.useEngine && settings.engine == nil {
      throw FileError(path: path, reason: "opponent = engine needs the engine's command: add engine = COMMAND")
    }
    guard settings.k <= settings.size else {
      throw FileError(path: path, reason: "k = \(settings.k) does not fit a \(settings.size)×\(settings.size) board")
    }
    return settings
  }

  /// Why one line of the file was refused, in the words the error gives after the file and line.
  private struct Rejection: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// A setting of the local game: the board, the computer's level, who plays first, the engine and whether it is
  /// the opponent.
  private static func readGameSetting(_ key: String, _ value: String, into settings: inout Settings) throws(Rejection) {
    switch key {
    case "size":
      guard let size = Int(value), Rules.sideRange.contains(size) else {
        throw Rejection("size must be a number from 3 to 15, found \"\(value)\"")
      }
      settings.size = size
    case "k":
      guard let k = Int(value), k >= 3 else { throw Rejection("k must be a number from 3, found \"\(value)\"") }
      settings.k = k
    case "level":
      guard let level = AILevel(rawValue: value) else {
        throw Rejection("level must be easy, normal or perfect, found \"\(value)\"")
      }
      settings.aiLevel = level
    case "first":
      guard let first = FirstPlayer(rawValue: value) else {
        throw Rejection("first must be me, them or random, found \"\(value)\"")
      }
      settings.first = first
    case "engine":
      if case .failure(let error) = EngineCommandLine.words(value) { throw Rejection("engine: \(error)") }
      settings.engine = value
    case "opponent":
      guard value == "computer" || value == "engine" else {
        throw Rejection("opponent must be computer or engine, found \"\(value)\"")
      }
      settings.useEngine = value == "engine"
    default:
      break
    }
  }

  /// A setting of the player and their host: the name, whether games are recorded, the port and its mapping, the
  /// relay, the rule and the clock.
  private static func readPlayerSetting(
    _ key: String, _ value: String, into settings: inout Settings
  ) throws(Rejection) {
    switch key {
    case "name":
      guard !value.isEmpty, value.utf8.count <= 64 else {
        throw Rejection("name must be 1 to 64 bytes, found \"\(value)\"")
      }
      // Such a name could not go in a hello (docs/PROTOCOL.md): say so here, not at every game.
      guard !value.unicodeScalars.contains(where: VisibleText.isUnsafe) else {
        throw Rejection("name must have no control, bidirectional or invisible characters, found \"\(value)\"")
      }
      settings.name = value
    case "records":
      guard let on = ["on": true, "off": false][value] else {
        throw Rejection("records must be on or off, found \"\(value)\"")
      }
      settings.records = on
    case "port":
      guard let port = UInt16(value) else {
        throw Rejection("port must be a number from 0 to 65535, found \"\(value)\"")
      }
      settings.port = port
    case "relay":
      guard RelayAddress.parse(value) != nil else {
        throw Rejection("relay must be HOST:PORT (a transit relay's address and port), found \"\(value)\"")
      }
      settings.relay = value
    case "map_port":
      guard value == "yes" || value == "no" else { throw Rejection("map_port must be yes or no, found \"\(value)\"") }
      settings.mapPort = value == "yes"
    case "rule":
      guard let rule = RuleVariant(name: value) else {
        throw Rejection("rule must be freestyle, exact5 or renju, found \"\(value)\"")
      }
      settings.rule = rule
    case "opening":
      guard let opening = Opening(rawValue: value) else {
        throw Rejection("opening must be standard or swap2, found \"\(value)\"")
      }
      settings.opening = opening
    case "clock":
      do throws(TimeControlError) {
        settings.clock = try TimeControl(parsing: value)
      } catch {
        throw Rejection("clock: \(error)")
      }
    default:
      break
    }
  }

  /// A limit of the player's host: connections per address, the addresses denied, exempt from the limits, or
  /// trusted to send a PROXY header.
  private static func readHostLimit(_ key: String, _ value: String, into settings: inout Settings) throws(Rejection) {
    switch key {
    case "connections_per_address":
      guard let count = Int(value), (1...4096).contains(count) else {
        throw Rejection("connections_per_address must be a number from 1 to 4096, found \"\(value)\"")
      }
      settings.connectionsPerAddress = count
    case "spectators":
      guard SpectatorPolicy(rawValue: value) != nil else {
        throw Rejection("spectators must be anyone, known or none, found \"\(value)\"")
      }
      settings.spectators = value
    case "watch_delay":
      guard let moves = Int(value), HostRequest.watchDelays.contains(moves) else {
        throw Rejection("watch_delay must be a number of moves from 0 to 225, found \"\(value)\"")
      }
      settings.watchDelay = moves
    case "deny", "limits_exempt", "proxy_from":
      do throws(DenyList.EntryError) {
        let list = try DenyList(parsing: value)
        switch key {
        case "deny": settings.deny = list.setting
        case "limits_exempt": settings.limitsExempt = list.setting
        default: settings.proxyFrom = list.setting
        }
      } catch {
        throw Rejection("\(key): \(error.reason)")
      }
    default:
      break
    }
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
      + (settings.relay.map { "relay = \($0)\n" } ?? "")
      + (settings.deny.map { "deny = \($0)\n" } ?? "")
      + (settings.limitsExempt.map { "limits_exempt = \($0)\n" } ?? "")
      + (settings.connectionsPerAddress.map { "connections_per_address = \($0)\n" } ?? "")
      + (settings.proxyFrom.map { "proxy_from = \($0)\n" } ?? "")
      + (settings.spectators.map { "spectators = \($0)\n" } ?? "")
      + (settings.watchDelay.map { "watch_delay = \($0)\n" } ?? "")
      + (settings.clock.isTimed ? "clock = \(settings.clock)\n" : "")
      + (settings.rule != .freestyle ? "rule = \(settings.rule.name)\n" : "")
      + (settings.opening != .standard ? "opening = \(settings.opening)\n" : "")
      + (settings.engine.map { "engine = \($0)\nopponent = \(settings.useEngine ? "engine" : "computer")\n" } ?? "")
  }

  /// The saved settings; defaults when there is no file yet; an error naming the line when it is corrupt.
  public static func load(from path: String) throws(FileError) -> Settings {
    let data: [UInt8]
    switch FileExposure.read(path) {
    case .contents(let bytes): data = bytes
    case .missing: return Settings()
    case .exposed(let reason, let fix):
      throw FileError(path: path, reason: "\(reason), so someone else could change your settings: run `\(fix)`")
    case .unreadable(let reason): throw FileError(path: path, reason: "cannot be read: \(reason)")
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      let lines = data.split(separator: 10, omittingEmptySubsequences: false)
      let bad = lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0
      throw FileError(path: path, line: bad + 1, reason: "is not UTF-8 text")
    }
    return try parse(text, path: path)
  }

  /// The engine the settings name, as words to run, read again from the file and from the very bytes that were
  /// checked: the path must be a regular file (not a link to one elsewhere), opened without following a link and
  /// checked again on the descriptor (`FileExposure.read`: ours, that nobody else can change, in a directory of
  /// ours that nobody else can write to), and the command is the one those bytes name, not the one parsed when
  /// the program started (the file may have changed since). `settings` says only whether an engine is wanted:
  /// nil when none is set, or the opponent is the computer unless `evenUnused` (the lobby, where Options may
  /// choose it later); the error when the file fails a check or no longer loads.
  public static func engineToRun(_ settings: Settings, path: String, evenUnused: Bool = false) throws(FileError)
    -> [String]?
  {
    guard settings.useEngine || evenUnused, settings.engine != nil else { return nil }
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw FileError(
        path: path, reason: "is not a regular file (a link?), so the engine it names is not run: replace it with a file"
      )
    }
    let data: [UInt8]
    switch FileExposure.read(path) {
    case .contents(let bytes): data = bytes
    case .missing:
      throw FileError(path: path, reason: "is gone, so the engine it named is not run: choose the engine again")
    case .exposed(let reason, let fix):
      throw FileError(path: path, reason: "\(reason), so the engine it names is not run: run `\(fix)`")
    case .unreadable(let reason):
      throw FileError(
        path: path, reason: "cannot be read (\(reason)), so the engine it names is not run: check the file")
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      throw FileError(path: path, reason: "is not UTF-8 text, so the engine it names is not run: fix or delete it")
    }
    let checked = try parse(text, path: path)
    guard let command = checked.engine else { return nil }
    switch EngineCommandLine.words(command) {
    case .success(let words): return words
    case .failure(let error): throw FileError(path: path, reason: "engine: \(error)")
    }
  }

  /// Replaces the settings file atomically. A file that exists but does not load is never replaced: it may hold
  /// the player's hand edits, so it is reported (with its line) instead, to be fixed or deleted.
  public static func save(_ settings: Settings, to path: String) throws {
    if let (reason, fix) = FileExposure.problem(file: path) {
      throw FileError(path: path, reason: "\(reason); not written: run `\(fix)`")
    }
    if FileSystem.exists(path) {
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
