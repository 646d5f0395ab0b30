import GameCore

/// Who moves first in a game against the computer.
public enum FirstPlayer: String, Sendable, CaseIterable {
  case me, them, random
}

/// The player's choices, kept between runs.
public struct Settings: Sendable, Equatable {
  public var size = 3
  public var k = 3
  public var aiLevel = AILevel.normal
  public var first = FirstPlayer.me
  /// The name shown to other players; nil means the login name.
  public var name: String?
  /// Whether finished games are kept as records (`records = off` in settings.conf turns them off).
  public var records = true
  /// Whether hosting asks the router to open the port (UPnP, NAT-PMP, PCP); nil: not decided yet (the
  /// full-screen host offers it, and nothing else asks the router).
  public var mapPort: Bool?
  /// The port a host listens on when none is given (the lobby's host, `host` without `--port`); nil: 7177.
  /// 0 picks a free port.
  public var port: UInt16?
  /// A transit relay where a host also waits for joiners (`relay = HOST:PORT`), as the settings file writes it;
  /// nil: none. Checked when the file is read.
  public var relay: String?
  /// Addresses and prefixes a host refuses (`deny = 203.0.113.0/24, 2001:db8::/32`), as the settings file
  /// writes them; nil: none. Checked when the file is read.
  public var deny: String?
  /// Addresses the per-address limits do not apply to (`limits_exempt = 127.0.0.1, ::1`, the default);
  /// `none` exempts nobody (for a host behind a tunnel, where every joiner seems to come from loopback).
  public var limitsExempt: String?
  /// Who may watch the host's games: anyone (nil: the default), known, none.
  public var spectators: String?
  /// How many moves late spectators see the host's games (`watch_delay = 2`); nil: live.
  public var watchDelay: Int?
  /// Connections open at once from one source address at a host (`connections_per_address = 32`, the
  /// default when nil); the bot reads it again on SIGHUP.
  public var connectionsPerAddress: Int?
  /// Addresses trusted to send a PROXY protocol version 2 header before TLS (`proxy_from = 127.0.0.2, ::1`), as
  /// the settings file writes them; nil: none. Only the practice bot reads it.
  public var proxyFrom: String?
  /// An outside Gomocup engine's command (`engine = pbrain-x --fast`), split as `--engine` splits it; nil: none.
  public var engine: String?
  /// Whether the lobby's game and `play` face the engine rather than the built-in computer (`opponent = engine`).
  public var useEngine = false
  /// The time control a host offers, and of a local game against the computer or at one keyboard, when
  /// `--clock` does not say (`clock = 5+3`); none: untimed.
  public var clock = TimeControl.none
  /// The rule of a game of five in a row (`rule = renju`): freestyle, exact five or renju. A rule other than
  /// freestyle holds only while k is 5; with any other k the game is freestyle.
  public var rule = RuleVariant.freestyle
  /// How a local game opens (`opening = swap2`): as usual, or with Swap2. Swap2 holds only where it is played,
  /// five in a row on boards from 9×9 (`Swap2.supports`); elsewhere games open as usual.
  public var opening = Opening.standard

  public init() {}

  /// The opening a game on the current rules gets: Swap2 only where it is played.
  public var openingInPlay: Opening { Swap2.supports(rules) ? opening : .standard }

  /// What Options offers for `clock`, in order: none, then bullet to classical.
  public static let clockChoices: [TimeControl] = [
    .none, .fischer(base: 60_000, increment: 0), .fischer(base: 180_000, increment: 2_000),
    .fischer(base: 300_000, increment: 3_000), .fischer(base: 600_000, increment: 5_000),
    .fischer(base: 900_000, increment: 10_000), .perMove(30_000),
  ]

  public var rules: Rules {
    (try? Rules(size: size, k: k, variant: rule)) ?? (try? Rules(size: size, k: k)) ?? .standard
  }

  /// Keeps k within the board after the size changes.
  public mutating func clamp() {
    size = min(max(size, Rules.sideRange.lowerBound), Rules.sideRange.upperBound)
    k = min(max(k, 3), size)
  }
}
