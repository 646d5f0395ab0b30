import Glibc
import PlayerSettings
import TerminalUI
import TestSupport
import Testing

@testable import App
@testable import PlayerFiles

/// The engine named in settings.conf: read, written, and checked again before it is run.
@Suite struct EngineSettingTests {
  @Test("engine = COMMAND and opponent = engine are read and written; a command that does not split is refused")
  func parseAndRender() throws {
    let settings = try SettingsFile.parse(
      "size = 9\nk = 5\nengine = python3 '/opt/my brains/b.py' -x\nopponent = engine\n", path: "s")
    #expect(settings.engine == "python3 '/opt/my brains/b.py' -x" && settings.useEngine)
    #expect(try SettingsFile.parse(SettingsFile.render(settings), path: "s") == settings)
    #expect(throws: FileError.self) { try SettingsFile.parse("engine = brain 'x\n", path: "s") }
    #expect(throws: FileError.self) { try SettingsFile.parse("opponent = engine\n", path: "s") }
    #expect(throws: FileError.self) { try SettingsFile.parse("engine = b\nopponent = robot\n", path: "s") }
  }

  @Test("the engine is run only from a regular file of ours that nobody else can change")
  func checkedBeforeItRuns() throws {
    let directory = try TestDirectory.make("engine-settings")
    chmod(directory, 0o700)
    let path = directory + "/settings.conf"
    var settings = Settings()
    settings.engine = "python3 /opt/b.py"
    settings.useEngine = true
    try SettingsFile.render(settings).write(toFile: path, atomically: false, encoding: .utf8)
    chmod(path, 0o600)
    #expect(try SettingsFile.engineToRun(settings, path: path) == ["python3", "/opt/b.py"])
    var computer = settings
    computer.useEngine = false
    #expect(try SettingsFile.engineToRun(computer, path: path) == nil)
    #expect(try SettingsFile.engineToRun(computer, path: path, evenUnused: true) == ["python3", "/opt/b.py"])
    // Writable by others: refused, with the fix.
    chmod(path, 0o666)
    #expect(throws: FileError.self) { try SettingsFile.engineToRun(settings, path: path) }
    chmod(path, 0o600)
    // A link to a file elsewhere: refused.
    let link = directory + "/link.conf"
    symlink(path, link)
    #expect(throws: FileError.self) { try SettingsFile.engineToRun(settings, path: link) }
    // A directory others can write to: refused.
    chmod(directory, 0o777)
    #expect(throws: FileError.self) { try SettingsFile.engineToRun(settings, path: path) }
    chmod(directory, 0o700)
  }

  @Test("the engine run is the one the checked bytes name now, not the one parsed when the program started")
  func engineFromTheCheckedBytes() throws {
    let directory = try TestDirectory.make("engine-bytes")
    chmod(directory, 0o700)
    let path = directory + "/settings.conf"
    var started = Settings()
    started.engine = "python3 /opt/b.py"
    started.useEngine = true
    // The file was changed after the settings were parsed: what runs is what the file says now.
    var now = started
    now.engine = "python3 /opt/other.py"
    try SettingsFile.render(now).write(toFile: path, atomically: false, encoding: .utf8)
    chmod(path, 0o600)
    #expect(try SettingsFile.engineToRun(started, path: path) == ["python3", "/opt/other.py"])
    // The engine taken out of the file since: nothing runs.
    try SettingsFile.render(Settings()).write(toFile: path, atomically: false, encoding: .utf8)
    #expect(try SettingsFile.engineToRun(started, path: path) == nil)
    // Gone: refused, saying so.
    unlink(path)
    #expect(throws: FileError.self) { try SettingsFile.engineToRun(started, path: path) }
  }
}
