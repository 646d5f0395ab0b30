import GameRecords
import MatchCoordination
import NetworkFacts
import PeerTrust
import Security
import TransitRelay
import Transport
import WireProtocol

// What the networked match's deciding part is given from OpenSSL, the sockets and the clock: built here, in the
// shell, so MatchCoordination itself imports none of them.

extension MatchEnvironment {
  /// A random coin, OpenSSL's SHA-256 and this program's version.
  public static var program: MatchEnvironment {
    MatchEnvironment(
      coin: { (0..<Message.coinBytes).map { _ in UInt8.random(in: 0...255) } }, sha256: Digest.sha256,
      software: Software.version)
  }
}

extension MatchRecords {
  /// The records of a match signed by `identity`.
  public init(signedBy identity: Identity, isHost: Bool) {
    let exchange = RecordExchange(
      isHost: isHost, sign: { bytes in try? identity.sign(bytes) },
      verify: { signature, bytes, key in RecordSignature.verify(signature, of: bytes, publicKeyBase64: key) })
    self.init(exchange: exchange, myKey: identity.publicKeyBase64, today: RecordOfGame.today)
  }
}

extension RecordOfGame {
  /// Today, `YYYY-MM-DD` in UTC.
  public static func today() -> String { "\(CalendarDay.today())" }
}

extension SetupFailure {
  /// An invite that does not parse or whose check fails.
  public static func invite(_ error: InviteError) -> SetupFailure {
    SetupFailure(code: error.code, reason: "That invite cannot be used: \(error.reason)", hint: error.hint)
  }
}

/// A relay's address as a player writes it, in the settings (`relay = HOST:PORT`) or after `--relay`: the port
/// must be given (a relay has no port of this program's).
public enum RelayAddress {
  public static func parse(_ text: String) -> Endpoint? {
    guard !text.contains(where: \.isWhitespace), let endpoint = Endpoint(parsing: text, defaultPort: 0),
      endpoint.port > 0,
      let token = RelayToken(bytes: Array(repeating: 0, count: RelayToken.byteCount)),
      Invite.Relay(host: endpoint.host, port: endpoint.port, token: token) != nil
    else { return nil }
    return endpoint
  }
}

/// An invite's relay looked up (off the loop): its route, or why its name was not found.
public struct RelayLookup: Sendable {
  public let result: Result<RelayRoute, NetworkError>

  public static func resolve(_ relay: Invite.Relay) -> RelayLookup {
    let endpoint = Endpoint(host: relay.host, port: relay.port)
    do throws(NetworkError) {
      let address = try Sockets.resolve(endpoint)[0]
      return RelayLookup(result: .success(RelayRoute(relay: endpoint, address: address, token: relay.token)))
    } catch {
      return RelayLookup(result: .failure(error.atRelay(endpoint)))
    }
  }
}
