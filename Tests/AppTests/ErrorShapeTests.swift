import Discovery
import ExplainedErrors
import Foundation
import GameCore
import GameRecords
import Gomocup
import NetworkFacts
import PeerTrust
import PortMapping
import Security
import Session
import Testing
import Transport
import UntrustedText
import WireProtocol

@testable import App
@testable import MatchCoordination
@testable import NetworkShell
@testable import PlayerFiles

/// Every module's error has a stable code, a reason and a hint (what the player can do), and says all of it:
/// one of each case of every error type that reaches App.
@Suite struct ErrorShapeTests {
  static let key = Fingerprint(bytes: Array(repeating: 7, count: 32))!
  static let other = Fingerprint(bytes: Array(repeating: 9, count: 32))!
  static let endpoint = Endpoint(host: "h.example", port: 7177)

  static let trust: [TrustFailure] = [
    .pinMismatch(expected: [PinnedKey(key)], got: other),
    .keyChanged(name: "alice", known: key, presented: other, file: "known_peers", line: 3),
    .expired(notAfter: 0), .notYetValid(notBefore: 0), .nameMismatch(expected: "alice", presented: ["bob"]),
    .unknownAuthority(detail: "x"), .noCertificate, .untrustedChain(reason: "x"), .knownPeersUnusable(reason: "x"),
  ]
  static let tls: [TLSError] =
    [
      .notTLS, .protocolVersion(peerMaximum: "TLS 1.2"), .protocolVersion(peerMaximum: "TLS 1.3"),
      .protocolVersion(peerMaximum: nil), .noCommonApplicationProtocol(offered: ["h2"]), .certificateRequired,
      .certificateRefusedByPeer(alert: "bad_certificate"), .closedByPeer, .unexpectedEOF,
      .handshakeFailed(reasons: ["x"]), .internalError("x"),
    ] + trust.map { .untrusted($0) }

  static func of<E: ExplainedError>(_ errors: [E]) -> [any ExplainedError] { errors }

  /// The samples, by type: the errors that may have no hint are the ones where nothing can be done.
  static let samples: [(type: String, errors: [any ExplainedError], hintless: Set<String>)] = [
    ("RulesError", of([RulesError.sideOutOfRange(16), .kOutOfRange(9, maximum: 5)]), []),
    (
      "MoveError",
      of([
        MoveError.outOfRange(Position(row: 9, column: 0), try! Rules(size: 3, k: 3)),
        .occupied(Position(row: 0, column: 0), by: .x), .gameOver, .notYourTurn(expected: .o),
      ]), []
    ),
    (
      "Swap2Error",
      of([
        Swap2Error.unsupportedRules(try! Rules(size: 8, k: 5)), .notYourTurn(expected: .first),
        .choiceDue(.secondChooses), .stoneDue(.placeTwo), .choiceNotOffered(.placeTwo, .firstChooses),
        .move(.occupied(Position(row: 0, column: 0), by: .x)),
      ]), []
    ),
    (
      "WireError",
      of([
        WireError.emptyFrame, .oversize(length: 9, maximum: 1), .truncatedField(tag: 1), .duplicateField(tag: 1),
        .missingField("a", in: "b"), .invalidUTF8(field: "a"), .fieldTooLong("a", length: 9, maximum: 1),
        .badValue("a", reason: "b"), .endedMidFrame(pending: 3),
      ]), []
    ),
    (
      "MoveInputError",
      of([
        MoveInputError.empty, .noSuchCell(10, cellCount: 9), .offBoard("z9", try! Rules(size: 3, k: 3)), .notAMove("x"),
      ]), []
    ),
    ("PCPError", of([PCPError.malformed("x"), .natPMPOnly]), []),
    ("HTTPError", of([HTTPError.incomplete, .tooLarge(1), .malformed("x")]), []),
    ("SGFError", of([SGFError("x", at: SGFLocation(line: 1, column: 1))]), []),
    (
      "NetworkError",
      of([
        NetworkError.hostNotFound("h", reason: "x"), .connectionRefused(endpoint), .timedOut(endpoint, seconds: 10),
        .unreachable(endpoint, reason: "x"), .cannotListen("::", reason: "x"), .handshakeTimedOut(seconds: 10),
        .closedDuringHandshake, .socket("x"),
      ]), []
    ),
    ("TLSError", of(tls), ["tls.closed-by-peer"]),
    ("TrustFailure", of(trust), []),
    (
      "SecurityError",
      of([
        SecurityError.openSSL(operation: "x", reasons: []), .unreadableFile(path: "p", reason: "x"),
        .unwritableFile(path: "p", reason: "x"), .corruptFile(path: "p", reason: "x"),
        .incompleteIdentity(present: "a", missing: "b"), .invalidPEM(what: "key", reason: "x"), .encryptedPrivateKey,
        .keyDoesNotMatchCertificate, .wrongPassword(passwordFile: "p"), .passwordNeeded, .invalidPKCS12(reason: "x"),
        .invalidTrustAnchors(reason: "x"),
        .invalidArgument("x"), .exposedPrivateKey(path: "p", reason: "x", fix: "chmod 600 p"),
      ]), ["security.invalid-argument"]
    ),
    (
      "KnownPeersError",
      of([
        KnownPeersError.malformed(path: "p", line: 1, reason: "x"), .unreadable(path: "p", reason: "x"),
        .exposed(path: "p", reason: "x", fix: "chmod 600 p"),
      ]), []
    ),
    (
      "ActionRefusal",
      of([
        ActionRefusal.matchOver, .notStarted, .reconnecting, .chatHeldWhileDisconnected(limit: 10), .noGameInProgress,
        .gameInProgress, .rematchAlreadyOffered, .nothingToClaim,
      ]), ["session.match-over", "session.no-game", "session.chat-held"]
    ),
    ("PlayError", of([PlayError.reconnecting, .illegal(.gameOver)]), []),
    (
      "SetupFailure",
      of([
        SetupFailure.invite(.checkFailed), .notAnAddress("x\u{1B}y"), .notAnAddress("0177.0.0.1"),
        SetupFailure(SecurityError.wrongPassword(passwordFile: "p")),
        SetupFailure(KnownPeersError.unreadable(path: "p", reason: "x")),
      ]), []
    ),
    (
      "InviteError",
      of([
        InviteError.tooLong, .notAnInvite, .noCheck, .checkFailed, .badKey, .noAddress, .tooManyAddresses,
        .badAddress("x"), .hiddenAddress("x"), .badPort("x"),
      ]), []
    ),
    (
      "DiscoveryError",
      of([
        DiscoveryError(.unknown, operation: .browsing), DiscoveryError(.unknown, operation: .resolving),
        DiscoveryError(.nameConflict, operation: .advertising), DiscoveryError(.badParam, operation: .advertising),
        DiscoveryError(.unsupported, operation: .browsing), DiscoveryError(.other(-1), operation: .browsing),
      ]), []
    ),
    (
      "EngineFault",
      of([
        EngineFault.crashed("exited with status 3"), .hung(milliseconds: 2000),
        .illegal(x: 1, y: 1, .occupied(Position(row: 1, column: 1), by: .x)), .garbage(PeerText("x")),
        .unasked(PeerText("x")), .refused(PeerText("x")), .flooded(100),
      ]), []
    ),
    (
      "EngineCommandError",
      of([EngineCommandError.empty, .unclosedQuote("\""), .trailingBackslash, .controlCharacter, .tooLong(4096)]), []
    ),
    (
      "JournalError",
      of([
        JournalError.notAJournal, .unknownVersion("2"), .incomplete, .checksumMismatch, .badLine(number: 3, "x"),
        .otherKeys,
      ]), []
    ),
  ]

  @Test(arguments: samples.map(\.type))
  func everyErrorHasACodeAReasonAndAHint(type: String) throws {
    let sample = try #require(Self.samples.first { $0.type == type })
    for error in sample.errors {
      #expect(error.code.contains("."), "\(type): \(error.code)")
      #expect(!error.reason.isEmpty, "\(type) \(error.code)")
      #expect(error.description.contains(error.reason), "\(type) \(error.code): \(error.description)")
      if sample.hintless.contains(error.code) { continue }
      let hint = try #require(error.hint, "\(type) \(error.code) has no hint: \(error.description)")
      #expect(!hint.isEmpty, "\(type) \(error.code)")
    }
  }

  @Test func eachCaseHasItsOwnCode() {
    for sample in Self.samples where !["TLSError", "MoveError"].contains(sample.type) {
      let codes = sample.errors.map(\.code)
      #expect(Set(codes).count == codes.count, "\(sample.type): \(codes)")
    }
  }

  /// What a player reads says what to do: the hint is in the message, except where the message goes to the
  /// peer or is put in a sentence of another's (moves, frames, invites, SGF locations inside a file's error, a
  /// router's answers inside the port mapping's report, a refused move, which reads as its move error, an
  /// engine's forfeit inside the line that ends its game, an engine command inside the setting's error).
  @Test func theMessageCarriesTheHint() {
    for sample in Self.samples
    where ![
      "MoveError", "MoveInputError", "WireError", "InviteError", "SGFError", "PCPError", "HTTPError", "PlayError",
      "EngineFault", "EngineCommandError",
    ].contains(sample.type) {
      for error in sample.errors {
        guard let hint = error.hint else { continue }
        #expect(error.description.contains(hint), "\(sample.type) \(error.code): \(error.description)")
      }
    }
  }

  /// A discovery that cannot work reaches the pure match as an `ExplainedFailure` (it may not import Discovery):
  /// the player reads the same words, code and hint as the error itself had.
  @Test func aDiscoveryErrorCarriedByTheMatchKeepsItsWords() {
    let samples = Self.samples.first { $0.type == "DiscoveryError" }?.errors ?? []
    #expect(samples.count >= 4)
    for error in samples {
      guard let discovery = error as? DiscoveryError else { continue }
      let end = MatchEnd.discoveryUnavailable(ExplainedFailure(discovery))
      #expect(end.description == discovery.message)
      #expect(ExplainedFailure(discovery).code == discovery.code)
      #expect(ExplainedFailure(discovery).hint == discovery.hint)
    }
  }

  /// Every DNS-SD number, known or not, reads back as itself and has words.
  @Test func discoveryErrorsHaveAReasonAndAHint() {
    let codes: [Int32] = [-65537, -65538, -65539, -65540, -65541, -65542, -65543, -65544, -65545, -65546, -65547]
    for code in codes {
      #expect(DNSSDFailure(number: code).number == code)
      for operation in [DiscoveryError.Operation.browsing, .resolving] {
        let error = DiscoveryError(number: code, operation: operation)
        #expect(!error.reason.isEmpty && error.hint?.isEmpty == false, "\(code) \(operation)")
        #expect(error.message == "\(error.reason) \(error.hint ?? "")", "\(code)")
      }
    }
  }

  /// Each failure class's status, as `ExitStatus.table` lists it, is in the README's table and the man page's
  /// EXIT STATUS section.
  @Test func theREADMEAndTheManPageListEveryExitStatus() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let man = try String(contentsOf: root.appendingPathComponent("Assets/tictactoe.6"), encoding: .utf8)
    let section = man.components(separatedBy: ".Sh EXIT STATUS\n").last?.components(separatedBy: "\n.Sh ").first ?? ""
    let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| ") }
      .map {
        $0.split(separator: "|").first.map { $0.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) } }
          ?? []
      }
    for (status, meaning) in ExitStatus.table {
      #expect(rows.contains { $0.contains(String(status)) }, "README lacks \(status) (\(meaning))")
      #expect(
        section.contains(".It \(status)\n") || section.contains("\(status) on") || section.contains("\(status) when"),
        "the man page lacks \(status) (\(meaning))")
    }
  }

  @Test func aFileThatCannotBeReadSaysWhatToCheck() {
    #expect(
      FileError.unreadable("/x/a.p12").description
        == "/x/a.p12: cannot be read; check that it is there and that you may read it")
    #expect(FileError(path: "/x/s", line: 2, reason: "bad").description == "/x/s line 2: bad")
  }
}
