import CDNSSD
import Glibc

/// What happened to an advertisement, as reported by `Advertiser.process()`.
public enum AdvertiserEvent: Sendable, Equatable {
  /// The service is on the network under `name`, which differs from the requested name after a conflict
  /// (`Alice` → `Alice #2`). It can come again later if another host's game takes the name.
  case registered(name: String)
}

/// Advertises one hosted game as `_tictactoe._tcp` on every interface the daemon serves, until cancelled.
///
/// Event loop: poll `descriptor` for input and call `process()` when it is readable (never otherwise: it blocks).
public final class Advertiser {
  /// The name asked for (shortened to 63 bytes of UTF-8 if needed).
  public let requestedName: String
  public let port: UInt16
  /// The TXT record currently published (or about to be).
  public private(set) var txt: ServiceTXT
  /// The name the daemon confirmed; nil until the first `.registered` event.
  public private(set) var registeredName: String?
  /// Called from `process()` with each confirmed name, after `registeredName` is set.
  public var onRegistered: ((String) -> Void)?

  private let registration: DNSServiceOperation<RegisterReply>

  /// Starts advertising: `name` is the instance name players see, `port` the TCP port the game listens on.
  /// Throws at once when the daemon is missing (`DiscoveryError.Kind.daemonUnavailable`) or the name is empty.
  ///
  /// Avahi renames a registration that collides with another host's service by itself (`Alice` → `Alice #2`),
  /// but refuses at once one that collides with a service this machine already publishes; that case is renamed
  /// here the same way, so `registeredName` is the name to show either way.
  public init(name: String, port: UInt16, txt: ServiceTXT) throws(DiscoveryError) {
    let base = Advertiser.shortened(name, reserving: 0)
    guard !base.isEmpty else { throw .invalidName(operation: .advertising) }
    requestedName = base
    self.port = port
    self.txt = txt
    let record = txt.encoded
    var attempt = 1
    while true {
      let candidate = attempt == 1 ? base : Advertiser.alternative(base, number: attempt)
      do {
        registration = try DNSServiceOperation(.advertising) { ref, context in
          record.withUnsafeBytes { bytes in
            DNSServiceRegister(
              ref, 0, 0, candidate, ServiceType.tictactoe, nil, nil, port.bigEndian, UInt16(bytes.count),
              bytes.baseAddress, Advertiser.registerCallback, context)
          }
        }
        return
      } catch {
        guard error.kind == .nameConflict, attempt < Advertiser.maximumAttempts else { throw error }
        attempt += 1
      }
    }
  }

  /// How many names `init` tries (`Alice`, `Alice #2`, … `Alice #20`) before reporting the conflict.
  static let maximumAttempts = 20

  /// The descriptor to poll for input; nil once cancelled or failed.
  public var descriptor: Int32? { registration.descriptor }

  /// True until cancelled or failed.
  public var isActive: Bool { registration.isActive }

  /// Handles what the daemon sent. Call only when `descriptor` is readable. Throws when the advertisement has
  /// failed (the daemon stopped, or a conflict it could not resolve); the advertisement is then withdrawn.
  public func process() throws(DiscoveryError) -> [AdvertiserEvent] {
    guard registration.isActive else { return [] }
    let code = registration.process()
    var events: [AdvertiserEvent] = []
    for reply in registration.takeReplies() {
      guard reply.error == kDNSServiceErr_NoError else {
        registration.cancel()
        throw DiscoveryError(number: reply.error, operation: .advertising)
      }
      let name = reply.name ?? requestedName
      registeredName = name
      events.append(.registered(name: name))
      onRegistered?(name)
    }
    guard code == kDNSServiceErr_NoError else {
      registration.cancel()
      throw DiscoveryError(number: code, operation: .advertising)
    }
    return events
  }

  /// Replaces the published TXT record (e.g. `state` from waiting to playing).
  public func update(txt newTXT: ServiceTXT) throws(DiscoveryError) {
    guard let ref = registration.serviceRef else {
      throw DiscoveryError(.badReference, operation: .updating)
    }
    let record = newTXT.encoded
    let code = record.withUnsafeBytes { bytes in
      DNSServiceUpdateRecord(ref, nil, 0, UInt16(bytes.count), bytes.baseAddress, 0)
    }
    guard code == kDNSServiceErr_NoError else { throw DiscoveryError(number: code, operation: .updating) }
    txt = newTXT
  }

  /// Withdraws the advertisement (the daemon sends goodbye packets); idempotent. Deinit does the same.
  public func cancel() {
    registration.cancel()
  }

  /// `Alice #2`: Avahi's pattern for alternative names, shortened so the whole stays within 63 bytes.
  static func alternative(_ name: String, number: Int) -> String {
    let suffix = " #\(number)"
    return shortened(name, reserving: suffix.utf8.count) + suffix
  }

  /// At most 63 bytes of UTF-8 minus `reserving`, cut at a character boundary.
  private static func shortened(_ name: String, reserving: Int) -> String {
    name.prefix(utf8Bytes: ServiceType.maximumNameLength - reserving)
  }

  private static let registerCallback: DNSServiceRegisterReply = { _, _, error, name, _, _, context in
    DNSServiceOperation<RegisterReply>.from(context)?.replies.append(
      RegisterReply(error: error, name: name.map { String(cString: $0) }))
  }
}

/// One call of the register callback.
struct RegisterReply {
  let error: DNSServiceErrorType
  let name: String?
}
