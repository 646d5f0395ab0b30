import CDNSSD
import ExplainedErrors

/// A DNS-SD result the program tells apart (`kDNSServiceErr_*`), or any other by its number.
public enum DNSSDFailure: Sendable, Hashable, CustomStringConvertible {
  /// kDNSServiceErr_Unknown (-65537): what Avahi's layer returns when avahi-daemon or D-Bus is not running, and
  /// for a resolve or query that timed out.
  case unknown
  case noSuchName, noMemory, badParam, badReference, badState, badFlags, unsupported, notInitialized
  case alreadyRegistered, nameConflict, invalid, incompatible, badInterfaceIndex, refused, noSuchRecord, noAuth
  /// Another number.
  case other(Int32)

  private static let known: [(DNSSDFailure, Int)] = [
    (.unknown, kDNSServiceErr_Unknown), (.noSuchName, kDNSServiceErr_NoSuchName),
    (.noMemory, kDNSServiceErr_NoMemory), (.badParam, kDNSServiceErr_BadParam),
    (.badReference, kDNSServiceErr_BadReference), (.badState, kDNSServiceErr_BadState),
    (.badFlags, kDNSServiceErr_BadFlags), (.unsupported, kDNSServiceErr_Unsupported),
    (.notInitialized, kDNSServiceErr_NotInitialized), (.alreadyRegistered, kDNSServiceErr_AlreadyRegistered),
    (.nameConflict, kDNSServiceErr_NameConflict), (.invalid, kDNSServiceErr_Invalid),
    (.incompatible, kDNSServiceErr_Incompatible), (.badInterfaceIndex, kDNSServiceErr_BadInterfaceIndex),
    (.refused, kDNSServiceErr_Refused), (.noSuchRecord, kDNSServiceErr_NoSuchRecord), (.noAuth, kDNSServiceErr_NoAuth),
  ]

  /// The failure a `kDNSServiceErr_*` number stands for.
  public init(number: Int32) {
    self = Self.known.first { $0.1 == Int(number) }?.0 ?? .other(number)
  }

  /// The `kDNSServiceErr_*` number (`-65537`).
  public var number: Int32 {
    if case .other(let number) = self { return number }
    return Int32(Self.known.first { $0.0 == self }!.1)
  }

  public var description: String { "DNS-SD error \(number)" }
}

/// A DNS-SD failure: the kDNSServiceErr code, what was being done, and what the player can do about it.
public struct DiscoveryError: ExplainedError, Sendable, Hashable, CustomStringConvertible {
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

  /// What DNS-SD answered.
  public let failure: DNSSDFailure
  public let operation: Operation

  public init(_ failure: DNSSDFailure, operation: Operation) {
    self.failure = failure
    self.operation = operation
  }

  /// The failure behind a `kDNSServiceErr_*` number.
  public init(number: Int32, operation: Operation) {
    self.init(DNSSDFailure(number: number), operation: operation)
  }

  /// A name that DNS-SD cannot advertise (empty or longer than 63 bytes of UTF-8).
  static func invalidName(operation: Operation) -> DiscoveryError {
    DiscoveryError(.badParam, operation: operation)
  }

  /// A stable name for the failure, by its kind (`discovery.daemon-unavailable`).
  public var code: String {
    switch kind {
    case .daemonUnavailable: "discovery.daemon-unavailable"
    case .noAnswer: "discovery.no-answer"
    case .nameConflict: "discovery.name-conflict"
    case .invalidInput: "discovery.invalid-input"
    case .unsupported: "discovery.unsupported"
    case .other: "discovery.failed"
    }
  }

  public var kind: Kind {
    if isLookupTimeout { return .noAnswer }
    return switch failure {
    case .unknown, .notInitialized, .incompatible: .daemonUnavailable
    case .nameConflict, .alreadyRegistered: .nameConflict
    case .badParam, .invalid, .badInterfaceIndex: .invalidInput
    case .unsupported, .badFlags: .unsupported
    default: .other
    }
  }

  /// What happened, in a player's words.
  public var reason: String {
    if isLookupTimeout { return "The game did not answer when asked for its address; it may have just closed." }
    return switch failure {
    case .unknown: "LAN discovery is unavailable: the avahi-daemon is not running (or D-Bus is not)."
    case .notInitialized, .incompatible:
      "LAN discovery is unavailable: the DNS-SD library cannot talk to the avahi-daemon running here."
    case .nameConflict, .alreadyRegistered: "Another game on this network already uses that name."
    case .badParam, .invalid:
      "The game's name or details cannot be advertised on the LAN (names are 1 to 63 bytes)."
    case .badInterfaceIndex: "The network interface went away."
    case .unsupported, .badFlags:
      "This system's DNS-SD library (Avahi's compatibility layer) does not support this request."
    case .noMemory: "LAN discovery ran out of memory."
    case .refused, .noAuth: "The avahi-daemon refused the request."
    case .noSuchName, .noSuchRecord: "That game is no longer on the network."
    case .badReference, .badState: "LAN discovery failed because of a bug in tictactoe (\(failure))."
    case .other: "LAN discovery failed (\(failure))."
    }
  }

  /// What the player can do about it.
  public var hint: String? {
    if isLookupTimeout { return "Refresh the list, or join by address." }
    return switch failure {
    case .unknown: "Start it (on Debian: `sudo systemctl start avahi-daemon`), or join by address."
    case .notInitialized, .incompatible: "Restart avahi-daemon, or join by address."
    case .nameConflict, .alreadyRegistered: "Choose another name and host again."
    case .badParam, .invalid: "Choose a shorter name, or let others join by address."
    case .badInterfaceIndex: "Check the network connection, then try again."
    case .unsupported, .badFlags: "Join by address instead."
    case .noMemory: "Close some programs and try again."
    case .refused, .noAuth: "Check its configuration, or join by address."
    case .noSuchName, .noSuchRecord: "Refresh the list."
    case .badReference, .badState: "Please report it."
    case .other: "Try again, or join by address."
    }
  }

  /// What happened and what the player can do, in a player's words.
  public var message: String { hint.map { "\(reason) \($0)" } ?? reason }

  /// Avahi reports a resolve or query that timed out with the same code as a missing daemon; while browsing
  /// still works (a missing daemon fails the browse too), it means the game did not answer.
  private var isLookupTimeout: Bool {
    failure == .unknown && (operation == .resolving || operation == .querying)
  }

  public var description: String {
    "\(message) (\(failure) while \(operation.rawValue))"
  }
}
