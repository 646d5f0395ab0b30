import Foundation
import Security
import Testing

/// Every file the game keeps, damaged in each way it can be (a bad line, bytes that are not UTF-8, something
/// that cannot be read, a key that belongs to another certificate, half an identity): every command that reads
/// it says which file and which line, stops or carries on as documented, and leaves the file exactly as it was.
@Suite struct DamagedFileTests {
  /// One way of damaging one file, and what the player must be told.
  struct Damage: CustomTestStringConvertible, Sendable {
    let name: String
    /// The damaged files, relative to the sandbox root.
    let files: [String]
    /// What the messages must contain, after `ROOT` is replaced with the sandbox root.
    let report: [String]
    /// The commands run against it and the exit status each must end with (nil: any; the command is asked to
    /// quit on standard input).
    let commands: [([String], Int32?)]
    let damage: @Sendable (String) throws -> Void

    var testDescription: String { name }
  }

  static let settings = "config/tictactoe/settings.conf"
  static let knownPeers = "data/tictactoe/known_peers"
  static let key = "data/tictactoe/identity/identity.key"
  static let certificate = "data/tictactoe/identity/identity.crt"
  static let pending = "data/tictactoe/identity/identity.pending"

  /// Commands that read the settings and carry on with the defaults after saying so.
  static let settingsReaders: [([String], Int32?)] = [
    (["play", "--ui", "plain", "--hotseat"], nil),
    (["host", "--ui", "plain", "--port", "0", "--bind", "127.0.0.1"], 0),
    (["identity"], 0),
  ]
  /// Commands that need the known peers and stop with status 65 when they cannot have them.
  static let peersReaders: [([String], Int32?)] = [
    (["peers"], 65), (["peers", "forget", "alice"], 65),
    (["host", "--ui", "plain", "--port", "0", "--bind", "127.0.0.1", "--accept-new"], 65),
    (["join", "127.0.0.1:9", "--ui", "plain", "--accept-new"], 65),
  ]
  /// Commands that need the identity and stop with status 65 when it is damaged.
  static let identityReaders: [([String], Int32?)] = [
    (["identity"], 65), (["identity", "export"], 65), (["host", "--ui", "plain", "--port", "0"], 65),
    (["join", "127.0.0.1:9", "--ui", "plain"], 65),
  ]

  static let damages: [Damage] = [
    Damage(
      name: "a settings line with a bad value", files: [settings],
      report: ["ROOT/\(settings) line 3: k must be a number from 3, found \"banana\""], commands: settingsReaders
    ) { root in try write("# mine\nsize = 4\nk = banana\n", root + "/" + settings) },
    Damage(
      name: "settings that are not UTF-8", files: [settings], report: ["ROOT/\(settings) line 2: is not UTF-8 text"],
      commands: settingsReaders
    ) { root in try write(Array("size = 4\nname = caf".utf8) + [0xE9, 0x0A], root + "/" + settings) },
    Damage(
      name: "settings that cannot be read", files: [settings], report: ["ROOT/\(settings): cannot be read"],
      commands: settingsReaders
    ) { root in try makeDirectory(root + "/" + settings) },
    Damage(
      name: "a known peers line that is not an entry", files: [knownPeers],
      report: ["ROOT/\(knownPeers):2: \"SHA256:xyz\" is not a fingerprint"], commands: peersReaders
    ) { root in try write("# met\nalice SHA256:xyz 2026-01-01\n", root + "/" + knownPeers) },
    Damage(
      name: "known peers that are not UTF-8", files: [knownPeers],
      report: ["ROOT/\(knownPeers):3: the line is not valid UTF-8 text"], commands: peersReaders
    ) { root in
      let entry = "alice SHA256:\(String(repeating: "A", count: 43)) 2026-01-01\n"
      try write(
        Array(("# met\n" + entry).utf8) + [0x62, 0xF6, 0x62] + Array(entry.dropFirst(5).utf8), root + "/" + knownPeers)
    },
    Damage(
      name: "known peers that cannot be read", files: [knownPeers],
      report: ["Could not read the known peers file ROOT/\(knownPeers): Is a directory"], commands: peersReaders
    ) { root in try makeDirectory(root + "/" + knownPeers) },
    // Files others could change, as OpenSSH refuses its known_hosts there: the command that fixes it is named.
    Damage(
      name: "a known peers directory others can write", files: [knownPeers],
      report: ["ROOT/data/tictactoe, which others can write (mode 777)", "run `chmod 700 ROOT/data/tictactoe`"],
      commands: peersReaders
    ) { root in try setMode(0o777, root + "/data/tictactoe") },
    Damage(
      name: "a known peers file others can change", files: [knownPeers],
      report: ["ROOT/\(knownPeers) can be changed by others (mode 666)", "run `chmod 600 ROOT/\(knownPeers)`"],
      commands: peersReaders
    ) { root in try setMode(0o666, root + "/" + knownPeers) },
    Damage(
      name: "a settings directory others can write", files: [settings],
      report: ["ROOT/config/tictactoe, which others can write (mode 777)", "run `chmod 700 ROOT/config/tictactoe`"],
      commands: settingsReaders
    ) { root in try setMode(0o777, root + "/config/tictactoe") },
    Damage(
      name: "a private key that is not PEM", files: [key, certificate], report: ["ROOT/\(key) is damaged"],
      commands: identityReaders
    ) { root in try write("not a key\n", root + "/" + key) },
    Damage(
      name: "a certificate cut short", files: [key, certificate], report: ["ROOT/\(certificate) is damaged"],
      commands: identityReaders
    ) { root in
      let text = try String(contentsOfFile: root + "/" + certificate, encoding: .utf8)
      try write(String(text.prefix(text.count / 2)), root + "/" + certificate)
    },
    Damage(
      name: "a key from another identity", files: [key, certificate],
      report: ["ROOT/\(key) is damaged (this key does not belong to the certificate in ROOT/\(certificate))"],
      commands: identityReaders
    ) { root in try write(try Identity.generate(commonName: "other").privateKeyPEM, root + "/" + key) },
    Damage(
      name: "half an identity", files: [key, certificate],
      report: ["ROOT/\(key) exists but ROOT/\(certificate) is missing"], commands: identityReaders
    ) { root in try FileManager.default.removeItem(atPath: root + "/" + certificate) },
    Damage(
      name: "a private key that cannot be read", files: [key, certificate],
      report: ["Could not read ROOT/\(key): Is a directory"], commands: identityReaders
    ) { root in
      try FileManager.default.removeItem(atPath: root + "/" + key)
      try makeDirectory(root + "/" + key)
    },
    Damage(
      name: "a damaged pending identity", files: [key, certificate, pending],
      report: ["ROOT/\(pending) is damaged"], commands: identityReaders
    ) { root in try write("-----BEGIN PRIVATE KEY-----\ncut short", root + "/" + pending) },
  ]

  @Test(arguments: damages) func isReportedWithItsPathAndLineAndLeftAsItWas(_ damage: Damage) throws {
    let (root, environment) = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: root) }
    // A complete home first: an identity, a known peer, saved settings.
    #expect(try KillableRun.complete(["identity"], environment: environment) == 0)
    try Self.write("alice SHA256:\(String(repeating: "A", count: 43)) 2026-01-01\n", root + "/" + Self.knownPeers)
    try Self.write("size = 4\nk = 3\n", root + "/" + Self.settings)
    try damage.damage(root)
    let before = damage.files.map { snapshot(root + "/" + $0) }
    for (arguments, expected) in damage.commands {
      let player = try Player(arguments, environment: environment)
      player.send("quit")
      player.closeInput()
      let status = player.exitStatus()
      let said = player.errors + player.output
      for text in damage.report.map({ $0.replacingOccurrences(of: "ROOT", with: root) }) {
        #expect(
          said.contains(text), "`tictactoe \(arguments.joined(separator: " "))` did not say \"\(text)\":\n\(said)")
      }
      if let expected { #expect(status == expected, "`tictactoe \(arguments.joined(separator: " "))`: \(said)") }
      let after = damage.files.map { snapshot(root + "/" + $0) }
      #expect(after == before, "`tictactoe \(arguments.joined(separator: " "))` changed \(damage.files)")
    }
  }

  @Test func theFullScreenUIShowsDamagedSettingsAndNeverSavesOverThem() throws {
    let (root, environment) = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let path = root + "/" + Self.settings
    try Self.write("# my settings\nsize = 4\nk = banana\n", path)
    let before = snapshot(path)
    let tmux = try TmuxSession(command: Binary.path, environment: environment, width: 220)
    try tmux.waitFor(text: "line 3: k must be a number from 3")
    // Options, change the board size, back: the game would save the settings here.
    try tmux.send("Down", "Down", "Down", "Down", "Enter")
    try tmux.waitFor(text: "Board size")
    try tmux.send("Right", "q")
    let lobby = try tmux.waitFor(text: "Options not saved (they apply until you quit)")
    #expect(lobby.contains("Play the computer"))
    try tmux.send("q")
    let log = root + "/state/tictactoe/tictactoe.log"
    let deadline = monotonicNow() + 10
    while monotonicNow() < deadline && !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("ended") {
      usleep(20_000)
    }
    #expect(snapshot(path) == before, "the settings file was replaced")
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(text.contains("settings not saved: \(path) line 3"), "the log does not say why:\n\(text)")
  }

  // MARK: helpers

  /// What is at `path`: its bytes, "directory", or "missing".
  private func snapshot(_ path: String) -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "missing" }
    if isDirectory.boolValue { return "directory" }
    return (FileManager.default.contents(atPath: path) ?? Data()).base64EncodedString()
  }

  private static func write(_ text: String, _ path: String) throws { try write(Array(text.utf8), path) }

  private static func write(_ bytes: [UInt8], _ path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
    else { throw POSIXError(.EIO) }
  }

  private static func setMode(_ mode: Int, _ path: String) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
  }

  private static func makeDirectory(_ path: String) throws {
    if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
}
