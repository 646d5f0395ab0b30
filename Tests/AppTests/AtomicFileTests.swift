import Foundation
import PlayerSettings
import TerminalUI
import TestSupport
import Testing

@testable import App
@testable import PlayerFiles

/// The App's atomic writes: private permissions, no leftovers, and no overwriting of a settings file the player
/// must fix first.
@Suite struct AtomicFileTests {
  private func temporaryDirectory() throws -> String {
    let path = TestDirectory.path("atomic") + "/config"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func writesAPrivateFileInAPrivateDirectoryAndLeavesNothingElse() throws {
    let directory = try temporaryDirectory() + "/new"
    try AtomicFile.write("size = 4\n", to: directory + "/settings.conf")
    #expect(try String(contentsOfFile: directory + "/settings.conf", encoding: .utf8) == "size = 4\n")
    let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/settings.conf")
    #expect(attributes[.posixPermissions] as? Int == 0o600)
    #expect(try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int == 0o700)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["settings.conf"])
  }

  @Test func removesTheTemporaryFilesOfKilledWritersOnly() throws {
    let directory = try temporaryDirectory()
    let dead = try ChildProcess.endedProcessID()
    let stale = ".settings.conf.\(dead).tmp"
    let live = ".settings.conf.\(getppid()).tmp"
    let other = ".recent_addresses.\(dead).tmp"
    for name in [stale, live, other] {
      #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("half".utf8)))
    }
    try AtomicFile.write("size = 4\n", to: directory + "/settings.conf")
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
    #expect(left == [live, other, "settings.conf"])
  }

  @Test func settingsThatDoNotLoadAreNotSavedOver() throws {
    let path = try temporaryDirectory() + "/settings.conf"
    try "size = 4\nk = banana\n".write(toFile: path, atomically: false, encoding: .utf8)
    #expect {
      try SettingsFile.save(Settings(), to: path)
    } throws: { error in
      "\(error)".contains("\(path) line 2: k must be a number") && "\(error)".contains("not replaced")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "size = 4\nk = banana\n")
  }

  @Test func settingsThatAreNotUTF8NameTheLine() throws {
    let path = try temporaryDirectory() + "/settings.conf"
    let bytes = Array("size = 4\nk = 3\nname = caf".utf8) + [0xE9]
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    #expect {
      try SettingsFile.load(from: path)
    } throws: { error in
      (error as? FileError)?.line == 3 && "\(error)" == "\(path) line 3: is not UTF-8 text"
    }
  }
}

/// The log is capped: past its size it is rotated to FILE.1, whole lines only, one line per event.
@Suite struct LogRotationTests {
  @Test func pastTheCapTheLogBecomesFileDot1AndANewOneBegins() throws {
    let directory = TestDirectory.path("log")
    let path = directory + "/tictactoe.log"
    let log = Log(path: path, maximumBytes: 4096)
    for index in 0..<500 { log.write("event \(index) with a name\nthat tries to break the line") }
    let current = try String(contentsOfFile: path, encoding: .utf8)
    let previous = try String(contentsOfFile: path + ".1", encoding: .utf8)
    #expect(current.utf8.count <= 4096 && previous.utf8.count <= 4096)
    for line in (previous + current).split(separator: "\n") {
      #expect(line.hasPrefix("20") && line.contains("event ") && line.hasSuffix("that tries to break the line"))
    }
    #expect(current.contains("event 499 "))
  }

  /// Held lines (the practice bot holds a turn of its loop's) reach the file only at `flush`, in order, one
  /// line per event; rotation past the cap keeps them held, and `release` writes the rest and stops holding.
  @Test func heldLinesWaitForTheFlushAndComeOutInOrder() throws {
    let path = TestDirectory.path("held-log") + "/tictactoe.log"
    let log = Log(path: path, maximumBytes: 4096)
    let read = { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    log.write("before holding")
    log.hold()
    log.write("first held\nnot a line of its own")
    log.write("second held")
    #expect(!read().contains("held"))
    log.flush()
    let lines = read().split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.map { $0.hasSuffix("before holding") } == [true, false, false])
    #expect(lines[1].hasSuffix("first held\\nnot a line of its own") && lines[2].hasSuffix("second held"))
    // Past the cap the file is rotated and the lines are still held until the next flush.
    for index in 0..<200 { log.write("event \(index)") }
    log.flush()
    log.write("after the rotation")
    #expect(!read().contains("after the rotation"))
    log.release()
    #expect(read().hasSuffix("after the rotation\n"))
    log.write("not held")
    #expect(read().hasSuffix("not held\n"))
  }
}

/// A symbolic link planted where the writer used to put its temporary file cannot make a write land elsewhere.
@Suite struct PlantedLinkTests {
  @Test func aLinkAtTheOldTemporaryNameDoesNotRedirectTheWrite() throws {
    let directory = try TestDirectory.make("link")
    let victim = directory + "/victim"
    try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
    // The name settings.conf's temporary file used to have: predictable from the process ID alone.
    symlink(victim, directory + "/.settings.conf.\(getpid()).tmp")
    try AtomicFile.write("size = 4\n", to: directory + "/settings.conf")
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    #expect(try String(contentsOfFile: directory + "/settings.conf", encoding: .utf8) == "size = 4\n")
  }
}
