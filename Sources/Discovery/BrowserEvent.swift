/// A change in the set of games a `Browser` sees.
public enum BrowserEvent: Sendable, Equatable {
  /// A game was announced; its details (`Browser.games`) fill in with later `.updated` events.
  case appeared(ServiceID)
  /// A game's host, port, addresses or TXT record changed (or resolving it failed: see `resolveError`).
  case updated(ServiceID)
  /// A game was withdrawn (or its announcement expired).
  case disappeared(ServiceID)
  /// Browsing stopped (e.g. the avahi-daemon went away); every game was reported `.disappeared` first.
  /// Create a new `Browser` to browse again.
  case failed(DiscoveryError)
}
