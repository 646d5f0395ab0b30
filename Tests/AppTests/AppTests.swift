import GameCore
import NetworkFacts
import PeerTrust
import PlayerSettings
import Security
import TerminalUI
import Testing
import Transport

@testable import App
@testable import MatchCoordination
@testable import NetworkShell
@testable import PlayerFiles

@Suite struct CommandLineParserTests {
  @Test func noArgumentsOpensTheLobby() throws {
    #expect(try CommandLineParser.parse([]) == .lobby(ui: .curses, ascii: false))
    #expect(try CommandLineParser.parse(["--ui", "plain", "--ascii"]) == .lobby(ui: .plain, ascii: true))
  }

  @Test func playOptionsInAnyOrderAndWithEquals() throws {
    var request = PlayRequest()
    request.opponent = .computer(.perfect)
    request.size = 4
    request.k = 3
    request.first = .them
    #expect(
      try CommandLineParser.parse(["play", "--k=3", "--first", "them", "--ai", "perfect", "--size", "4"])
        == .play(request, ui: .curses, ascii: false))
  }

  @Test func sizeAloneChoosesKUpToFive() throws {
    var request = PlayRequest()
    request.size = 9
    #expect(try request.rules(settings: Settings()) == (try Rules(size: 9, k: 5)))
    request.size = 4
    #expect(try request.rules(settings: Settings()) == (try Rules(size: 4, k: 4)))
  }

  @Test func hostAndJoin() throws {
    guard
      case .host(let host, let options, .plain, false) = try CommandLineParser.parse(
        ["host", "--port", "0", "--bind", "::1", "--accept-new", "--ui", "plain"])
    else {
      Issue.record("not a host invocation")
      return
    }
    #expect(host.port == 0 && host.bind == "::1" && options.acceptNew)
    #expect(
      try CommandLineParser.parse(["join", "[::1]:9000"])
        == .join(Endpoint(host: "::1", port: 9000), NetworkOptions(), ui: .curses, ascii: false))
  }

  @Test(arguments: [
    (["join"], "join needs an address (HOST, HOST:PORT or [IPv6]:PORT) or an invite"),
    (["join", "host:abc"], "\"host:abc\" is not an address: use HOST, HOST:PORT or [IPv6]:PORT"),
    (
      ["host", "--pin", "nope"],
      "--pin needs a fingerprint like SHA256:… or a certificate file (PEM or DER), not \"nope\""
    ),
    (
      ["host", "--insecure", "--pin", "SHA256:" + String(repeating: "A", count: 43)],
      "choose one of --pin, --ca and --insecure"
    ),
    (["join", "x", "--cert", "c.pem"], "--cert and --key go together"),
    (["play", "--port", "1"], "--port belongs to `tictactoe host`"),
    (["host", "--port", "70000"], "--port must be from 0 to 65535"),
    (["peers", "forget"], "peers forget needs one NAME or FINGERPRINT"),
    (["peers", "rename", "alice"], "peers rename needs NAME or FINGERPRINT, then the new name"),
    (["invite", "now"], "unexpected argument \"now\""),
    (
      ["join", "tictactoe:x@h/1+000000"],
      "that invite cannot be used: its check does not match: a character was changed or lost when it was copied"
    ),
    (["identity", "import"], "identity import needs CERT.pem KEY.pem, or FILE.p12"),
    (
      ["join", "0177.0.0.1:7177"],
      "\"0177.0.0.1\" would be taken for the address 127.0.0.1 (a number not written as four decimal numbers from 0 "
        + "to 255); write 127.0.0.1 if that is the one meant"
    ),
    (["launch"], "unknown command \"launch\""),
    (["identity", "export", "now"], "identity export takes no arguments"),
    (["games", "delete", "1", "--json"], "--json goes with `tictactoe games list`"),
    (["identity", "show", "--yes"], "--yes goes with `tictactoe identity new` and `tictactoe identity import`"),
    (["identity", "new", "--password-file", "pw"], "--password-file goes with `tictactoe identity import FILE.p12`"),
    (["host", "--ascii=yes"], "--ascii takes no value"),
    (["list", "--wait", "0"], "--wait needs seconds from 0 to 60, not \"0\""),
    (["play", "--first", "later"], "--first must be me, them or random, not \"later\""),
    (
      ["host", "--bot", "easy", "--ui", "plain"],
      "--ui does not apply to --bot: the bot has no screen, only status lines"
    ),
    (["host", "--map-port", "--no-map-port"], "--map-port and --no-map-port cannot be combined"),
    (["play", "--hotseat", "--ai", "easy"], "--ai and --hotseat cannot be combined"),
  ])
  func usageErrorsSayWhatIsWrong(arguments: [String], message: String) {
    #expect(throws: UsageError(message: message)) { try CommandLineParser.parse(arguments) }
  }

  @Test func identityAndPeersCommands() throws {
    #expect(try CommandLineParser.parse(["identity"]) == .identity(.show, name: nil))
    #expect(
      try CommandLineParser.parse(["identity", "import", "a.p12", "--password-file", "pw"])
        == .identity(.importPKCS12(file: "a.p12", passwordFile: "pw", confirmed: false), name: nil))
    #expect(
      try CommandLineParser.parse(["identity", "import", "a.crt", "a.key", "--yes"])
        == .identity(.importPEM(certificate: "a.crt", key: "a.key", confirmed: true), name: nil))
    #expect(try CommandLineParser.parse(["peers", "forget", "alice"]) == .peers(.forget("alice")))
    #expect(try CommandLineParser.parse(["peers", "rename", "alice", "Al"]) == .peers(.rename("alice", to: "Al")))
    #expect(try CommandLineParser.parse(["invite"]) == .invite)
    #expect(try CommandLineParser.parse(["--version", "nonsense"]) == .version)
  }
}

@Suite struct SettingsFileTests {
  @Test func roundTrip() throws {
    var settings = Settings()
    settings.size = 7
    settings.k = 4
    settings.aiLevel = .perfect
    settings.first = .random
    settings.name = "Alice Liddell"
    settings.port = 0
    #expect(SettingsFile.render(settings).contains("\nport = 0\n"))
    #expect(try SettingsFile.parse(SettingsFile.render(settings), path: "s") == settings)
    settings.port = 65535
    #expect(try SettingsFile.parse(SettingsFile.render(settings), path: "s") == settings)
    #expect(try SettingsFile.parse(SettingsFile.render(Settings()), path: "s") == Settings())
  }

  @Test func unknownKeysAndCommentsAreIgnored() throws {
    let settings = try SettingsFile.parse("# hi\n\nfuture = 1\nsize = 5\n", path: "s")
    #expect(settings.size == 5)
  }

  @Test(arguments: [
    ("size = 16\n", 1, "size must be a number from 3 to 15, found \"16\""),
    ("size = 3\nlevel = godlike\n", 2, "level must be easy, normal or perfect, found \"godlike\""),
    ("\n\njust words\n", 3, "expected \"key = value\", found \"just words\""),
    ("port = 65536\n", 1, "port must be a number from 0 to 65535, found \"65536\""),
    ("size = 3\nport = -1\n", 2, "port must be a number from 0 to 65535, found \"-1\""),
  ])
  func corruptFilesNameTheLine(text: String, line: Int, reason: String) {
    #expect(throws: Never.self) {
      do {
        _ = try SettingsFile.parse(text, path: "/x/settings.conf")
        Issue.record("accepted \(text)")
      } catch {
        #expect("\(error)" == "/x/settings.conf line \(line): \(reason)")
      }
    }
  }

  @Test func theGracePeriodIsChosenOnTheCommandLine() throws {
    guard case .join(_, let options, _, _) = try CommandLineParser.parse(["join", "h", "--grace", "30"]) else {
      Issue.record("not a join invocation")
      return
    }
    #expect(options.gracePeriod == 30)
    #expect(NetworkOptions().gracePeriod == 120)
    #expect(throws: UsageError(message: "--grace needs seconds from 5 to 3600, not \"1\"")) {
      try CommandLineParser.parse(["host", "--grace", "1"])
    }
    #expect(throws: UsageError(message: "--grace belongs to `tictactoe host` or `tictactoe join`")) {
      try CommandLineParser.parse(["play", "--grace", "10"])
    }
  }

  @Test func theJoinerBacksOffBetweenReconnectionAttempts() {
    let delays = (1...8).map { JoinerRoute.delay(afterFailedAttempt: $0) }
    #expect(delays == [0.5, 1, 2, 4, 8, 10, 10, 10])
  }

  @Test func kLargerThanTheBoardIsRefused() {
    #expect(throws: FileError.self) { try SettingsFile.parse("size = 3\nk = 5\n", path: "s") }
  }
}

@Suite struct ExitStatusTests {
  @Test func everyClassHasItsOwnStatus() {
    let statuses = ExitStatus.table.map(\.0)
    #expect(Set(statuses).count == statuses.count)
    #expect(ExitStatus.code(for: .network(.connectionRefused(Endpoint(host: "h", port: 1)))) == 10)
    #expect(ExitStatus.code(for: .network(.tls(.notTLS))) == 14)
    #expect(
      ExitStatus.code(
        for: .network(.tls(.untrusted(.pinMismatch(expected: [PinnedKey(fingerprint(1))], got: fingerprint(2))))))
        == 20)
    #expect(ExitStatus.code(for: .session(.peerVanished(seconds: 10))) == 31)
    #expect(ExitStatus.code(for: .session(.refused(.busy, ""))) == 27)
    #expect(ExitStatus.code(for: .declinedByPlayer) == 26)
    #expect(ExitStatus.code(for: .session(.peerDidNotReturn(seconds: 120, claimed: false))) == 31)
    #expect(ExitStatus.code(for: .session(.peerDidNotReturn(seconds: 120, claimed: true))) == 0)
    #expect(ExitStatus.code(for: .keyChangedOnReconnect(before: fingerprint(1), now: fingerprint(2))) == 21)
  }

  private func fingerprint(_ byte: UInt8) -> Fingerprint {
    // Any 32 bytes make a fingerprint.
    Fingerprint(bytes: Array(repeating: byte, count: 32))!
  }
}
