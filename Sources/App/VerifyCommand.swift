import FrontEnds
import GameCore
import GameRecords
import NetworkShell
import PeerTrust
import PlayerFiles
import Security
import UntrustedText

/// `tictactoe verify FILE|N`: whether the moves are legal and give the stated result, and whether each player
/// signed the record with the key it names (docs/RECORDS.md, "Signatures").
enum VerifyCommand: Command {
  static let name = CommandLineGrammar.Command.verify

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    guard arguments.words.count == 1 else { throw UsageError(message: "verify needs one FILE or game number") }
    return .verify(arguments.words[0])
  }

  /// The verdict on a record: one line per check, and whether every check passed.
  static func verdict(_ record: GameRecord) -> (lines: [String], ok: Bool) {
    var ok = true
    var lines: [String] = []
    if let problem = record.resultProblem {
      ok = false
      lines.append("moves: WRONG: \(problem)")
    } else {
      lines.append("moves: \(record.moves.count), legal, giving the stated result: \(record.result)")
    }
    if let line = timesLine(record) {
      ok = ok && !line.hasPrefix("times: WRONG")
      lines.append(line)
    }
    // The day is signed with the moves: a signature over a day that never was (0000-00-00) proves nothing.
    if CalendarDay(parsing: record.date) == nil {
      ok = false
      lines.append("date: WRONG: \"\(VisibleText.escaping(record.date))\" is not a calendar day (yyyy-mm-dd)")
    }
    // A game played on this machine (against the computer, an engine, or hot seat) names no key: there was no
    // one to sign it with, so there is nothing to check beyond its moves.
    if record.black.publicKey == nil && record.white.publicKey == nil {
      lines.append("signatures: none to check: a game played on one machine names no keys, so nothing was signed")
      return (lines, ok)
    }
    let bytes = record.signedBytes
    for mark in Mark.allCases {
      let player = record.player(mark)
      let side = "\(mark) (\(mark == .x ? "black" : "white"), \(VisibleText.escaping(player.name)))"
      guard let key = player.publicKey else {
        ok = false
        lines.append("\(side): no key in the record: not a network game, so nothing to check a signature against")
        continue
      }
      let fingerprint = Fingerprint(publicKeyBase64: key).map { "\($0)" } ?? "a key that is not base64"
      guard let text = player.signature else {
        ok = false
        lines.append("\(side), key \(fingerprint): NOT SIGNED: this side never signed the record")
        continue
      }
      if let signature = RecordBase64.decode(text),
        RecordSignature.verify(signature, of: bytes, publicKeyBase64: key)
      {
        lines.append("\(side), key \(fingerprint): signature good")
      } else {
        ok = false
        lines.append("\(side), key \(fingerprint): BAD SIGNATURE: the record was changed or not signed by this key")
      }
    }
    return (lines, ok)
  }

  /// The line about a timed game's times (none for an untimed game): whether they can be a game's and whether
  /// the signatures cover them (version 2 of the signed bytes signs the time control and every move's times).
  static func timesLine(_ record: GameRecord) -> String? {
    guard record.timeControl.isTimed || !record.times.isEmpty || record.flag != nil else { return nil }
    if let problem = record.timesProblem { return "times: WRONG: \(problem)" }
    let signed = record.black.publicKey != nil || record.white.publicKey != nil
    if signed && record.signedVersion < 2 {
      return "times: WRONG: the record carries times, but its signatures (version 1) do not cover them"
    }
    var line = "times: \(record.timeControl.spoken), \(record.times.count) moves with their time charged and left"
    if let flag = record.flag {
      line +=
        "; \(flag.claimant) claimed the other side's time ran out (\(SGFSeconds.text(flag.timeLeft)) s left, "
        + "\(SGFSeconds.text(flag.observed)) s seen; the mover's own clock: \(SGFSeconds.text(flag.thinking)) s)"
    }
    return line + (signed ? ", signed" : "")
  }

  static func run(_ target: String, environment: [String: String]) -> Int32 {
    let record: GameRecord
    do throws(FileError) {
      record = try ReplayCommand.find(target, paths: Paths(environment: environment))
    } catch {
      writeError("tictactoe: \(VisibleText.escaping(error.description))\n")
      return FileSystem.exists(error.path) ? ExitStatus.badFile : ExitStatus.usage
    }
    let (lines, ok) = verdict(record)
    let signed = record.black.publicKey != nil || record.white.publicKey != nil
    let verdict =
      ok ? (signed ? "verified" : "verified: the moves only; a local game has nothing to sign") : "NOT verified"
    writeMessage(1, lines.joined(separator: "\n") + "\n" + verdict + "\n", hang: 2)
    return ok ? ExitStatus.ok : ExitStatus.failure
  }
}
