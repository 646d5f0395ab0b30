import FrontEnds
import PlayerFiles
import PlayerSettings
import TerminalUI

/// What the front ends of one run share: the paths, the log, the saved settings (or the defaults, and why)
/// and the archive of the games finished.
struct RunContext {
  let paths: Paths
  let log: Log
  var settings: Settings
  var warning: String?
  /// Where this run's finished games are recorded.
  let archive: GameArchive

  init(paths: Paths, log: Log, settings: Settings, warning: String? = nil) {
    self.paths = paths
    self.log = log
    self.settings = settings
    self.warning = warning
    archive = GameArchive(paths: paths, enabled: settings.records, log: log) { writeError("tictactoe: \($0)\n") }
  }

  /// The context of a run in `environment`: the saved settings, or the defaults and why.
  init(environment: [String: String]) {
    let paths = Paths(environment: environment)
    // Run by systemd (the practice bot's unit), the log lines go to the journal.
    let log = Log.journal(environment: environment) ?? Log(path: paths.logFile, maximumBytes: Log.cap)
    do {
      self.init(paths: paths, log: log, settings: try SettingsFile.load(from: paths.settingsFile))
    } catch {
      log.write("settings: \(error)")
      self.init(
        paths: paths, log: log, settings: Settings(), warning: "Settings not loaded: \(error); using the defaults.")
    }
    if let problem = log.problem { warning = [warning, problem].compactMap { $0 }.joined(separator: " ") }
  }

  /// The player: the name given on the command line, else the `name` setting, else the login name.
  static func profile(_ environment: [String: String], name: String?) -> Profile {
    let paths = Paths(environment: environment)
    let saved = (try? SettingsFile.load(from: paths.settingsFile))?.name
    return Profile(paths: paths, name: name ?? saved ?? Profile.loginName(environment: environment))
  }

  /// Why the settings file could not be used, as a warning (nil when it loads or does not exist).
  static func settingsWarning(_ environment: [String: String]) -> String? {
    do {
      _ = try SettingsFile.load(from: Paths(environment: environment).settingsFile)
      return nil
    } catch {
      return "Settings not loaded: \(error); using the defaults."
    }
  }
}
