import GameCore
import WireProtocol

/// A host restarted while its joiner kept the game (PROTOCOL.md rule 19): the host's hello says it takes a kept
/// game back (field 16), the joiner that asked to resume says hello afresh and offers its game after the welcome,
/// and the host's journal decides. Pure.
extension NetSession {
  /// Host: its hello says that it takes back a game its joiner kept while this host's program restarted (rule 19,
  /// field 16, naming the game of `journalGame`). Set before `start`; the practice bot, which keeps no games,
  /// does not.
  public var takesKeptGameBack: Bool {
    get { kept.takesBack }
    set { kept.takesBack = newValue }
  }

  /// Host: a `resume` before the joiner's hello. A host that said it takes a kept game back hears it as the
  /// joiner keeping a game through this host's restart: its hello and game offer follow. Otherwise false (a
  /// violation, rule 11).
  mutating func hostRestartedHearsResume() -> Bool {
    guard configuration.role == .host, !peerGreeted, hostTerms?.keptGame != nil, !kept.peerKeeps else {
      return false
    }
    kept.peerKeeps = true
    return true
  }

  /// Joiner: the host greets afresh after this side asked to resume: its program restarted. A version-3 host
  /// that says it takes a kept game back (field 16), on the same terms, is offered the game in progress: this
  /// side begins the conversation again (its hello now, the offer after the welcome), the clock of the side to
  /// move having run on. nil otherwise: the game is no longer held.
  mutating func restartedHostGreets(_ greeting: Message, _ now: Double) -> [SessionOutput]? {
    guard case .hello(let versions, let name, let software, let terms, _, _) = greeting, let terms,
      terms.keptGame != nil, versions.contains(3), configuration.versions.contains(3), hasGameFlow,
      terms.rules == rules, terms.timeControl == timeControl, let offer = keptOffer(now: now)
    else { return nil }
    // The coin is never tossed again: the offer replaces it, and the kept game's first player is kept.
    var fresh = NetSession(
      configuration: configuration, coinBytes: [UInt8](repeating: 0, count: 32), sha256: sha256, now: now)
    fresh.kept.toOffer = offer
    self = fresh
    let said = start(now: now)
    _ = connection.arrived(greeting, now)  // the host's hello is the new conversation's first counted message
    hostTerms = terms
    return said + hello(versions: versions, name: name, software: software, now)
  }

  /// Joiner: welcomed by a restarted host, it offers the game it kept (rule 19).
  mutating func offerKeptGameBack(_ now: Double) -> [SessionOutput] {
    guard configuration.role == .joiner, hasGameFlow, let offer = kept.toOffer, kept.offered == nil else {
      return []
    }
    kept.offered = offer
    kept.offeredAt = now
    return [send(offer.message, now)]
  }
}

extension NetSession {
  /// Version 4's terms (a rule variant, an opening) cannot be offered to a peer that chose an older version: a host
  /// refuses it (version mismatch, naming what needs version 4) and a joiner greeted with such terms by a host
  /// that does not speak 4 takes it for a violation. nil when the chosen version carries the terms.
  mutating func termsNeedNewerVersion(chosen: UInt16, theirs: [UInt16], _ now: Double) -> [SessionOutput]? {
    guard let terms = hostTerms, chosen < terms.minimumVersion, let needs = terms.version4Terms else { return nil }
    guard configuration.role == .host else {
      return violation("terms with \(needs) from a host that does not speak protocol version 4", now)
    }
    let text =
      "this host plays \(needs), which needs protocol version \(terms.minimumVersion); you speak "
      + "\(ProtocolVersion.describe(theirs)): update tictactoe to join"
    return [
      send(.refuse(.versionMismatch, text: UTF8Clip.clip(text, bytes: Message.maximumTextBytes)), now),
      close(.versionMismatch(ours: configuration.versions, theirs: theirs, needs: needs)),
    ]
  }
}
