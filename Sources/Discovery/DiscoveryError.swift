import CDNSSD

/// A DNS-SD failure: the kDNSServiceErr code, what was being done, and what the player can do about it.
public struct DiscoveryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What the program was doing when the error came.
  public enum Operation: String, Sendable, Hashable {
    case advertising = "advertising the game"
    case updating = "updating the advertised game"
    case browsing = "looking for games"
    case resolving = "looking up a game's address"
    case querying = "looking up a host's address"
  }

  /// The error's meaning, for callers that react differently (e.g. offer "join by address").
  public enum Kind: Sendable, Hashable {
    /// avahi-daemon or D-Bus is not running (Avahi reports kDNSServiceErr_Unknown for both).
    case daemonUnavailable
    /// A game was seen but did not answer the lookup of its address or details (it may have just closed).
    case noAnswer
    /// The service name is taken (Avahi usually renames by itself instead).
    case nameConflict
    /// A name or value was not accepted.
    case invalidInput
    /// The DNS-SD library cannot do this (Avahi's compatibility layer lacks several calls and flags).
    case unsupported
    /// Anything else.
    case other
  }

  /// kDNSServiceErr_Unknown: what Avahi's layer returns when avahi-daemon or D-Bus is not running.
  public static let unknownCode: Int32 = -65_537

  /// The kDNSServiceErr_* value, e.g. -65537.
  public let code: Int32
  public let operation: Operation

  public init(code: Int32, operation: Operation) {
    self.code = code
    self.operation = operation
  }

  /// A name that DNS-SD cannot advertise (empty or longer than 63 bytes of UTF-8).
  static func invalidName(operation: Operation) -> DiscoveryError {
    DiscoveryError(code: Int32(kDNSServiceErr_BadParam), operation: operation)
  }

  public var kind: Kind {
    if isLookupTimeout { return .noAnswer }
    return switch Int(code) {
    case kDNSServiceErr_Unknown, kDNSServiceErr_NotInitialized, kDNSServiceErr_Incompatible:
      .daemonUnavailable
    case kDNSServiceErr_NameConflict, kDNSServiceErr_AlreadyRegistered: .nameConflict
    case kDNSServiceErr_BadParam, kDNSServiceErr_Invalid, kDNSServiceErr_BadInterfaceIndex: .invalidInput
    case kDNSServiceErr_Unsupported, kDNSServiceErr_BadFlags: .unsupported
    default: .other
    }
  }

  /// What happened, in a player's words.
  public var reason: String {
    if isLookupTimeout { return "The game did not answer when asked for its address; it may have just closed." }
    return switch Int(code) {
    case kDNSServiceErr_Unknown:
      "LAN discovery is unavailable: the avahi-daemon is not running (or D-Bus is not)."
    case kDNSServiceErr_NotInitialized, kDNSServiceErr_Incompatible:
      "LAN discovery is unavailable: the DNS-SD library cannot talk to the avahi-daemon running here."
    case kDNSServiceErr_NameConflict, kDNSServiceErr_AlreadyRegistered:
      "Another game on this network already uses that name."
    case kDNSServiceErr_BadParam, kDNSServiceErr_Invalid:
      "The game's name or details cannot be advertised on the LAN (names are 1 to 63 bytes)."
    case kDNSServiceErr_BadInterfaceIndex: "The network interface went away."
    case kDNSServiceErr_Unsupported, kDNSServiceErr_BadFlags:
      "This system's DNS-SD library (Avahi's compatibility layer) does not support this request."
    case kDNSServiceErr_NoMemory: "LAN discovery ran out of memory."
    case kDNSServiceErr_Refused, kDNSServiceErr_NoAuth: "The avahi-daemon refused the request."
    case kDNSServiceErr_NoSuchName, kDNSServiceErr_NoSuchRecord: "That game is no longer on the network."
    case kDNSServiceErr_BadReference, kDNSServiceErr_BadState:
      "LAN discovery failed because of a bug in tictactoe (DNS-SD error \(code))."
    default: "LAN discovery failed (DNS-SD error \(code))."
    }
  }

  /// What the player can do about it.
  public var hint: String? {
    if isLookupTimeout { return "Refresh the list, or join by address." }
    return switch Int(code) {
    case kDNSServiceErr_Unknown: "Start it (on Debian: `sudo systemctl start avahi-daemon`), or join by address."
    case kDNSServiceErr_NotInitialized, kDNSServiceErr_Incompatible: "Restart avahi-daemon, or join by address."
    case kDNSServiceErr_NameConflict, kDNSServiceErr_AlreadyRegistered: "Choose another name and host again."
    case kDNSServiceErr_BadParam, kDNSServiceErr_Invalid: "Choose a shorter name, or let others join by address."
    case kDNSServiceErr_BadInterfaceIndex: "Check the network connection, then try again."
    case kDNSServiceErr_Unsupported, kDNSServiceErr_BadFlags: "Join by address instead."
    case kDNSServiceErr_NoMemory: "Close some programs and try again."
    case kDNSServiceErr_Refused, kDNSServiceErr_NoAuth: "Check its configuration, or join by address."
    case kDNSServiceErr_NoSuchName, kDNSServiceErr_NoSuchRecord: "Refresh the list."
    case kDNSServiceErr_BadReference, kDNSServiceErr_BadState: "Please report it."
    default: "Try again, or join by address."
    }
  }

  /// What happened and what the player can do, in a player's words.
  public var message: String { hint.map { "\(reason) \($0)" } ?? reason }

  /// Avahi reports a resolve or query that timed out with the same code as a missing daemon; while browsing
  /// still works (a missing daemon fails the browse too), it means the game did not answer.
  private var isLookupTimeout: Bool {
    code == Self.unknownCode && (operation == .resolving || operation == .querying)
  }

  public var description: String {
    "\(message) (DNS-SD error \(code) while \(operation.rawValue))"
  }
}
