import UntrustedText

/// The relay's answer to a greeting, read as its bytes arrive, with a deadline: `ok\n` glues the connection to
/// the other player's (what follows `ok\n` in the same read is already theirs, and is handed on, not lost);
/// any other line, a line too long, a close, or the deadline is a `RelayFailure`. Pure: the caller feeds the
/// bytes, the end of the stream and the clock.
public struct RelayAnswer: Sendable {
  /// What the answer came to so far.
  public enum Progress: Sendable, Equatable {
    case waiting
    /// The relay said `ok`: from here every byte is the other player's, starting with `leftover`.
    case glued(leftover: [UInt8])
    case failed(RelayFailure)
  }

  /// Bytes read without a line end before the answer counts as something else (the relay's own words,
  /// `bad handshake` and `impatient`, are shorter).
  public static let longestAnswer = 64
  private static let ok = Array("ok\n".utf8)

  /// When nobody has come, on the caller's clock.
  public let deadline: Double
  private let patience: Double
  private var heard: [UInt8] = []
  public private(set) var progress: Progress = .waiting

  /// An answer awaited from `now` for at most `patience` seconds.
  public init(now: Double, patience: Double) {
    self.patience = patience
    deadline = now + patience
  }

  /// Takes bytes read from the relay.
  @discardableResult
  public mutating func feed(_ bytes: [UInt8]) -> Progress {
    guard progress == .waiting else { return progress }
    heard += bytes
    if let end = heard.firstIndex(of: 10) {
      if heard[...end].elementsEqual(RelayAnswer.ok) {
        progress = .glued(leftover: Array(heard[(end + 1)...]))
      } else {
        progress = .failed(.answered(RelayAnswer.words(heard[..<end])))
      }
    } else if heard.count > RelayAnswer.longestAnswer {
      progress = .failed(.answered(RelayAnswer.words(heard.prefix(RelayAnswer.longestAnswer))))
    }
    return progress
  }

  /// The relay closed the connection: what it said first, if it was not the start of `ok`, or that it closed.
  @discardableResult
  public mutating func ended() -> Progress {
    guard progress == .waiting else { return progress }
    progress = .failed(saidSomethingElse ? .answered(RelayAnswer.words(heard[...])) : .closed)
    return progress
  }

  /// At `now`: the failure when the deadline has passed with no answer (or with words that were no `ok`).
  @discardableResult
  public mutating func check(now: Double) -> Progress {
    guard progress == .waiting, now >= deadline else { return progress }
    progress = .failed(
      saidSomethingElse ? .answered(RelayAnswer.words(heard[...])) : .nobodyCame(seconds: Int(patience.rounded())))
    return progress
  }

  /// Whether what was heard so far cannot be the start of `ok\n`.
  private var saidSomethingElse: Bool { !RelayAnswer.ok.starts(with: heard) }

  private static func words(_ bytes: ArraySlice<UInt8>) -> PeerText {
    PeerText(String(decoding: bytes, as: UTF8.self))
  }
}
