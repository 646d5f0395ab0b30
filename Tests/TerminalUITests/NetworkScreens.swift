import GameCore
import PlayerSettings
import UntrustedText

@testable import TerminalUI

/// Network screens filled with the longest text a player can meet: names at the 32-character limit, a
/// fingerprint, an IPv6 link-local address with its zone, long chat lines.
enum NetworkScreens {
  static let longName = "Bartholomew-Fitzgerald-Mcallister"  // 33: cut to the limit below
  static let host = String("Alexandrina-Konstantinopoulou-XVI".prefix(32))
  static let joiner = PeerText(String(longName.prefix(32)))
  static let fingerprint = "SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA"
  static let longChat =
    "that was a clever opening, but wait until you see what I do on the long diagonal from a1 to o15 next game"

  /// A match on `size`×`size` with `moves` played in notation, seen by the host.
  static func match(size: Int, k: Int, moves: [String], glyphs: Glyphs, width: Int = 80, height: Int = 24) throws
    -> UIController
  {
    var ui = Screens.ui(width, height, glyphs)
    var net = NetGameState(isHost: true, myName: host)
    net.peerName = joiner
    net.peerFingerprint = fingerprint
    let rules = try Rules(size: size, k: k)
    let names = Coordinates(rules)
    net.game = try Game(rules: rules, moves: moves.compactMap(names.position(named:)))
    net.myMark = .x
    net.wins = 2
    net.losses = 1
    net.draws = 0
    net.cursor = Position(row: size / 2, column: size / 2)
    net.addChat(.note("Game 4: you play X and move first."))
    net.addChat(.peer(name: joiner, text: PeerText(longChat)))
    net.addChat(.mine("gl hf"))
    ui.showNetwork(net)
    return ui
  }

  /// The host waiting for a joiner: where to connect, every address whole.
  static func hostWaiting(glyphs: Glyphs) -> UIController {
    var ui = Screens.ui(80, 24, glyphs)
    var net = NetGameState(isHost: true, myName: host)
    net.connection = "Listening on port 7177 (IPv6 and IPv4); waiting for someone to join."
    net.info = [
      "Join with: tictactoe join 192.168.1.20:7177, or [fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177, or"
        + " [2001:db8:85a3:1234:5678:8a2e:370:7334]:7177",
      "Your key: \(fingerprint) (read aloud: tango river lemon nine ...)",
      "If they know you under another name, they will be asked to trust \(fingerprint) again.",
      // An invite of about 90 characters, as the host screen will show one.
      "Invite: tictactoe join 'ttt://[fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177#q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA'",
    ]
    ui.showNetwork(net)
    return ui
  }

  /// The host asked whether to let a joiner in whose name is like a known peer's: both keys whole.
  static func trustQuestion(glyphs: Glyphs, width: Int = 80, height: Int = 24, game: Bool = false) throws
    -> UIController
  {
    var ui = try match(size: 15, k: 5, moves: game ? ["h8"] : [], glyphs: glyphs, width: width, height: height)
    ui.updateNetwork { net in
      if !game { net.game = nil }
      net.question = .init(
        lines: [
          "WARNING: a new player calling itself \(joiner) — not the \(joiner) you know.",
          "  known \(joiner): SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU (known_peers line 12)",
          "  this one:  \(fingerprint)", "Let this new player join?",
        ], fingerprint: fingerprint)
    }
    return ui
  }

  /// The lobby after the settings file could not be read: the path, the line and the reason, whole.
  static func settingsError(glyphs: Glyphs) -> UIController {
    var ui = Screens.ui(80, 24, glyphs)
    ui.showNotice(
      "Settings not loaded: /home/alexandrina-konstantinopoulou/.config/tictactoe/settings.conf line 1:"
        + " board side 16 is out of range: it must be from 3 to 15; using the defaults.")
    return ui
  }

  /// Typing a chat line longer than its field: the end of it is in view.
  static func typingChat(glyphs: Glyphs) throws -> UIController {
    var ui = try match(size: 15, k: 5, moves: ["h8"], glyphs: glyphs)
    _ = ui.handle(.character("c"))
    _ = ui.handle(.paste("I think the long diagonal is mine unless you block it now, at g7 END"))
    return ui
  }

  /// Scrolled back in a long conversation while more came: the marker says so.
  static func scrolledBack(glyphs: Glyphs) throws -> UIController {
    var ui = try match(size: 3, k: 3, moves: ["b2"], glyphs: glyphs)
    ui.updateNetwork { net in
      for n in 1...20 { net.addChat(.peer(name: joiner, text: PeerText("message number \(n) of a long talk"))) }
    }
    _ = ui.handle(.pageUp)
    ui.updateNetwork { $0.addChat(.peer(name: joiner, text: "still there?")) }
    return ui
  }

  /// The joiner after its host left: why, and r to join again.
  static func joinerEnded(glyphs: Glyphs) throws -> UIController {
    var ui = try match(size: 15, k: 5, moves: ["h8", "i9"], glyphs: glyphs)
    ui.updateNetwork { net in
      net.isHost = false
      net.myName = String(joiner.unsanitised)
      net.peerName = PeerText(host)
      net.ended =
        "Your opponent left the game. (The host at [fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177 closed the connection.)"
      net.canRejoin = true
    }
    return ui
  }

  /// The joiner waiting for the host to decide.
  static func joinerWaiting(glyphs: Glyphs) -> UIController {
    var ui = Screens.ui(80, 24, glyphs)
    var net = NetGameState(isHost: false, myName: String(joiner.unsanitised))
    net.peerName = PeerText(host)
    net.peerFingerprint = fingerprint
    net.info = ["\(host) at [fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177"]
    ui.showNetwork(net)
    return ui
  }

  static var all: [(String, () throws -> UIController)] {
    let gomoku = ["h8", "i9", "g7", "j10", "i7", "g9", "h7", "f7", "h9", "h6", "j7", "k7", "g6", "k8"]
    return [
      ("net15x15", { try match(size: 15, k: 5, moves: gomoku, glyphs: .unicode) }),
      ("net15x15ascii", { try match(size: 15, k: 5, moves: gomoku, glyphs: .ascii) }),
      ("net9x9", { try match(size: 9, k: 5, moves: ["e5", "d4", "f6"], glyphs: .unicode) }),
      ("net9x9ascii", { try match(size: 9, k: 5, moves: ["e5", "d4", "f6"], glyphs: .ascii) }),
      ("net3x3", { try match(size: 3, k: 3, moves: ["b2", "a1"], glyphs: .unicode) }),
      ("net3x3ascii", { try match(size: 3, k: 3, moves: ["b2", "a1"], glyphs: .ascii) }),
      ("typingChat", { try typingChat(glyphs: .unicode) }),
      ("scrolledBack", { try scrolledBack(glyphs: .unicode) }),
      ("scrolledBackAscii", { try scrolledBack(glyphs: .ascii) }),
      ("joinerEnded", { try joinerEnded(glyphs: .unicode) }),
      ("joinerEndedAscii", { try joinerEnded(glyphs: .ascii) }),
      ("joinerWaiting", { joinerWaiting(glyphs: .unicode) }),
      ("hostWaiting", { hostWaiting(glyphs: .unicode) }),
      ("hostWaitingAscii", { hostWaiting(glyphs: .ascii) }),
      ("lobbySettingsError", { settingsError(glyphs: .unicode) }),
      ("trust80x24", { try trustQuestion(glyphs: .unicode) }),
      ("trust80x24ascii", { try trustQuestion(glyphs: .ascii) }),
      // A 15×15 board needs more than 60×20; the question over it is drawn all the same, and then the size.
      ("trustOverBoard60x20", { try trustQuestion(glyphs: .unicode, width: 60, height: 20, game: true) }),
      ("boardTooSmall60x20", { try match(size: 15, k: 5, moves: ["h8"], glyphs: .unicode, width: 60, height: 20) }),
    ]
  }
}
