import EventLoop
import GameCore
import MatchCoordination
import PlayerFiles
import Session

/// A networked match as the code that runs either side sees it (the front ends, `MatchOnLoop`): the player's
/// actions, the view after them and the loop's part, which `NetworkMatch` has for both sides. What only one side
/// does is reached through `side`, a host's or a joiner's shell.
package protocol MatchShell: AnyObject {
  /// The host's or the joiner's shell.
  var side: HostOrJoiner { get }
  /// Host or joiner: for words that name the other side.
  var role: Role { get }
  /// What the front end shows of the match now.
  var view: MatchView { get }
  var finished: MatchEnd? { get }
  /// Goodbyes and writes still going out.
  var lingering: Int { get }
  var profileName: String { get }
  var warnings: [String] { get }

  func answer(accept: Bool) -> [MatchEvent]
  func play(_ position: Position) throws(PlayError) -> [MatchEvent]
  func choose(_ choice: Swap2.Choice) throws(PlayError) -> [MatchEvent]
  func chat(_ text: String) throws(ActionRefusal) -> [MatchEvent]
  func resign() throws(ActionRefusal) -> [MatchEvent]
  func rematch() throws(ActionRefusal) -> [MatchEvent]
  func offerDraw() throws(ActionRefusal) -> [MatchEvent]
  func declineOffer() throws(ActionRefusal) -> [MatchEvent]
  func takeback() throws(ActionRefusal) -> [MatchEvent]
  func abort() throws(ActionRefusal) -> [MatchEvent]
  func claim() throws(ActionRefusal) -> [MatchEvent]
  func quit() -> [MatchEvent]

  // The loop's part (`MatchOnLoop`, NetworkMatch+Loop.swift).
  /// Every descriptor the match holds open.
  var descriptors: [Int32] { get }
  var nextDeadline: Double? { get }
  /// Puts the match on `loop` (what is new since the last call); `ready` hears what is ready.
  func watch(on loop: EventLoop, ready: @escaping (ReadyRound.Part) -> Void)
  /// Takes the match off its loop.
  func detachFromLoop()
  func handle(_ ready: ReadyRound) -> [MatchEvent]
  func tick() -> [MatchEvent]
  var writes: KnownPeersWrites { get }
  var files: MatchFileWork { get }
}

extension NetworkMatch: MatchShell {
  package var side: HostOrJoiner { Side.either(self) }
}
