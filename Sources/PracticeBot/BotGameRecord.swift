import GameCore
import GameRecords
import Session

/// One game the bot played, as its log records it.
package struct BotGameRecord: Equatable {
  /// How the game ended, from the bot's side.
  enum Outcome: Equatable {
    case botWon
    case peerWon
    case draw
    case botResigned
    case peerResigned
    /// The game stopped before its end (the peer left or vanished, or the bot shut down).
    case unfinished(String)

    /// How a game that ended with `result` ended for the bot, which played `botMark`.
    init(_ result: GameResult, botMark mark: Mark) {
      switch result {
      case .draw, .drawAgreed, .deadPosition: self = .draw
      case .line(let winner): self = winner == mark ? .botWon : .peerWon
      case .resigned(let loser): self = loser == mark ? .botResigned : .peerResigned
      case .abandoned(let loser), .lostOnTime(let loser): self = loser == mark ? .peerWon : .botWon
      case .aborted, .disputed: self = .unfinished("\(result)")
      }
    }

    /// The word the log uses.
    var token: String {
      switch self {
      case .botWon: return "bot-won"
      case .peerWon: return "peer-won"
      case .draw: return "draw"
      case .botResigned: return "bot-resigned"
      case .peerResigned: return "peer-resigned"
      case .unfinished: return "unfinished"
      }
    }
  }

  /// The game's number on its connection (1 for the first, then one per rematch).
  var number: Int
  var botMark: Mark
  var outcome: Outcome
  /// Moves played by both sides.
  var moves: Int
  /// Seconds from the start of the game to its end.
  var duration: Double
  /// The game as its SGF record keeps it (the keys are added by the host, which holds them): nil for a game that
  /// stopped unfinished without anyone leaving it (a vanished peer, the bot shutting down).
  var record: GameRecord? = nil

  /// Who the bot played: the name the peer gave, its key, and where it connected from.
  struct Peer: Equatable {
    /// The name trust was decided on (a known key's known name), else the name the peer gave.
    var name: String
    var fingerprint: String
    var address: String
    /// The name the peer gave, when it is not `name`.
    var claimed: String? = nil
  }

  /// The game's line in the log: `key=value` fields, the peer's name quoted (it is chosen by the peer), e.g.
  /// `bot game: peer="bob" key=SHA256:… address=127.0.0.1:50312 game=2 bot=O result=draw moves=9 duration=0.021s`.
  func logLine(peer: Peer) -> String {
    // Appended piece by piece to one string with its room reserved (a line per game, thousands a second): no
    // array of fields to join, and no string made for a piece before it is appended.
    var line = "bot game: peer="
    line.reserveCapacity(200)
    BotGameRecord.appendQuoted(peer.name, to: &line)
    if let claimed = peer.claimed {
      line += " claimed="
      BotGameRecord.appendQuoted(claimed, to: &line)
    }
    let field = BotGameRecord.appendField
    field(" key=", peer.fingerprint, &line)
    field(" address=", peer.address, &line)
    field(" game=", String(number), &line)
    field(" bot=", botMark.description, &line)
    field(" result=", outcome.token, &line)
    field(" moves=", String(moves), &line)
    field(" duration=", BotGameRecord.seconds(duration), &line)
    line += "s"
    if case .unfinished(let reason) = outcome {
      line += " reason="
      BotGameRecord.appendQuoted(reason, to: &line)
    }
    return line
  }

  /// Appends ` key=value` (`key` with its space and `=`) to `line`, with no string made for the pair.
  private static func appendField(_ key: String, _ value: String, _ line: inout String) {
    line += key
    line += value
  }

  /// `text` in double quotes, with quotes, backslashes and control characters escaped, so a name cannot forge
  /// fields or lines.
  static func quoted(_ text: String) -> String {
    var result = ""
    appendQuoted(text, to: &result)
    return result
  }

  /// Appends `text` quoted (as `quoted` does) to `line`.
  static func appendQuoted(_ text: String, to line: inout String) {
    // Printable ASCII without a quote or a backslash (most names) needs no escaping: appended whole, not a
    // scalar at a time (a practice bot logs thousands of games a second).
    if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
      line += "\""
      line += text
      line += "\""
      return
    }
    line += escapedQuoted(text)
  }

  private static func escapedQuoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  /// Seconds with three decimals (milliseconds), never negative.
  package static func seconds(_ value: Double) -> String {
    let milliseconds = Int((max(0, value) * 1000).rounded())
    let fraction = String(milliseconds % 1000)
    return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}

extension GameRecord {
  /// Puts the bot's and its peer's public keys on their sides.
  mutating func addKeys(bot: String?, peer: String?, botMark: Mark) {
    if botMark == .x {
      black.publicKey = bot
      white.publicKey = peer
    } else {
      black.publicKey = peer
      white.publicKey = bot
    }
  }
}
