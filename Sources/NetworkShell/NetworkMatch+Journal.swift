import MatchCoordination
import PeerTrust
import Security
import Session
import UntrustedText

extension NetworkMatch {
  /// Reads the journal of a game this player's program kept with the peer `facts` names, if there is one, for
  /// the coordinator to check an offered game against (PROTOCOL.md rule 19): a joiner's from before it restarted,
  /// a host's from before it restarted. A journal that cannot be used is left in place and the player told why.
  func readJournal(_ facts: PeerFacts) -> [MatchEvent] {
    guard let myKey = identity.publicKeyBase64, let peer = facts.certificate?.fingerprint,
      let peerKey = facts.certificate?.publicKeyBase64, coordinator.journal?.found[peer] == nil,
      let read = files.journals.read(peer: peer, myKey: myKey, peerKey: peerKey)
    else { return [] }
    switch read {
    case .success(let journal):
      log.write("journal of game \(journal.gameNumber) with \(peer) found: \(journal.moves.count) moves")
      coordinator.journal?.found[peer] = journal.kept
      return []
    case .failure(let error):
      let path = files.journals.path(peer: peer)
      let text =
        "The journal of your game with this \(role == .host ? "opponent" : "host") (\(path)) cannot be used: \(VisibleText.escaping("\(error)"))"
      log.write(text)
      return [.status(text)]
    }
  }
}
