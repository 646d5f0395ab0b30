import EventLoop
import Transport

/// A match on the event loop: what of it is watched, and how it is let go.
extension NetworkMatch {
  /// Puts the match on `loop`: each connection registers itself (`MatchSockets`, now and as it is added), and
  /// the listener with its door and the announcement, which may be made after, the first time this is called
  /// once they are (`MatchOnLoop.refresh`: a flag looked at, nothing compared). `ready` hears what is ready.
  package func watch(on loop: EventLoop, ready: @escaping (ReadyRound.Part) -> Void) {
    if !sockets.isWatched {
      sockets.isConnecting = { [unowned self] in coordinator.connections[$0]?.phase == .connecting }
      sockets.watch(on: loop) { ready(.connection($0, $1.connection, $2)) }
    }
    if let listener, !listener.isWatched { listener.watch(on: loop) { ready(.listening($0)) } }
    if let announcement, !announcement.isWatched { announcement.watch(on: loop) { ready(.announcement) } }
  }

  /// Takes the match off its loop: nothing of it is watched any more (its sockets stay open).
  package func detachFromLoop() {
    sockets.detach()
    listener?.detach()
    announcement?.detach()
  }

  /// Every descriptor the match holds open: its listening sockets and door, its connections, the goodbyes going
  /// out and the announcement's.
  package var descriptors: [Int32] {
    (listener?.descriptors ?? []) + sockets.descriptors + [announcement?.descriptor].compactMap { $0 }
  }
}
