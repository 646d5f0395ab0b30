import NetworkFacts
import TransitRelay

/// A connection's stage at a transit relay: it sends the greeting (token and side), then waits for the relay's
/// `ok`, which comes when another connection named the same token (docs/INTERNET.md, "A relay"). The relay
/// glues the two sockets, so TLS runs end to end across it in whichever role this connection plays: the host
/// waiting at a relay connected out, but is the TLS server.
public struct RelayPrelude: ConnectionPrelude {
  /// Keepalive on a connection waiting at a relay: nothing may be sent before `ok`, and a NAT between the
  /// player and the relay may drop a connection idle for a few minutes. A probe after 60 s of silence, then
  /// every 10 s; three unanswered and the connection is dropped (a dead relay is noticed within 90 s).
  public static let waitingKeepAlive = KeepAlive(idle: 60, interval: 10, count: 3)

  /// Where the relay is (named in every failure).
  public let relay: Endpoint
  public let greeting: RelayGreeting
  private var answer: RelayAnswer

  /// A wait at `relay` from `now`, for at most `patience` seconds until someone comes with the same token.
  public init(greeting: RelayGreeting, relay: Endpoint, now: Double, patience: Double) {
    self.relay = relay
    self.greeting = greeting
    answer = RelayAnswer(now: now, patience: patience)
  }

  public var opening: [UInt8] { greeting.line }
  public var deadline: Double { answer.deadline }
  public var keepAlive: KeepAlive? { RelayPrelude.waitingKeepAlive }

  public mutating func feed(_ bytes: [UInt8]) -> PreludeStep {
    step(answer.feed(bytes))
  }

  public mutating func ended() -> NetworkError {
    if case .failed(let failure) = answer.ended() { return .relay(relay, failure) }
    return .relay(relay, .closed)
  }

  public mutating func expired(now: Double) -> NetworkError? {
    if case .failed(let failure) = answer.check(now: now) { return .relay(relay, failure) }
    return nil
  }

  private func step(_ progress: RelayAnswer.Progress) -> PreludeStep {
    switch progress {
    case .waiting: .more
    case .glued(let leftover): .finished(leftover: leftover)
    case .failed(let failure): .failed(.relay(relay, failure))
    }
  }
}
