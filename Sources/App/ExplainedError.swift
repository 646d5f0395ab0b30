import GameCore
import GameRecords
import PeerTrust
import PortMapping
import Security
import Session
import Transport
import WireProtocol

/// The shape every module's error has, in the style of swift-certificates: a stable code (for the log, scripts
/// and tests), what happened, and what the player can do. App reads them through this one protocol.
protocol ExplainedError: Error, CustomStringConvertible {
  /// A stable name, "module.failure" (`trust.key-changed`).
  var code: String { get }
  /// What happened, naming what it happened to.
  var reason: String { get }
  /// What the player can do about it; nil only where nothing can be done.
  var hint: String? { get }
}

extension RulesError: ExplainedError {}
extension MoveError: ExplainedError {}
extension MoveInputError: ExplainedError {}
extension WireError: ExplainedError {}
extension SGFError: ExplainedError {}
extension NetworkError: ExplainedError {}
extension TLSError: ExplainedError {}
extension TrustFailure: ExplainedError {}
extension SecurityError: ExplainedError {}
extension KnownPeersError: ExplainedError {}
extension InviteError: ExplainedError {}
extension PCPError: ExplainedError {}
extension HTTPError: ExplainedError {}
extension ActionRefusal: ExplainedError {}
extension PlayError: ExplainedError {}
extension SetupFailure: ExplainedError {}
