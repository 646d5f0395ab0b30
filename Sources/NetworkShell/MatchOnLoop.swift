import EventLoop
import Glibc
import MatchCoordination
import NetworkFacts
import Transport

/// Runs a networked match (`MatchShell`: a host's or a joiner's) on the event loop: puts it on the loop (its
/// sockets register themselves), gathers what is ready in a round and hands it to the match at once, keeps its
/// next deadline scheduled, and hands everything it reports to the front end, each batch of events with the
/// match's view after them. Its host's port mapping and its joiner's name lookups are the side's own.
package final class MatchOnLoop {
  package let match: any MatchShell
  private let loop: EventLoop
  private let deliver: ([MatchEvent], MatchView) -> Void
  /// On the loop (until `detach`).
  private var attached = true
  private var timer: EventLoop.TimerID?
  private var timerDue: Double?
  /// A joiner's host name is being looked up again (to reconnect).
  private var resolving = false
  /// A host's port mapping on its router, when asked for.
  private var mapping: PortMappingOnLoop?
  /// What the loop found ready this round, handed to the match together once the round's ready handlers have
  /// run (`handleReady`): one pass over the match a round, not one for each descriptor (under a flood of
  /// hundreds of connections the passes cost the host most of its time).
  private var ready = ReadyRound()
  /// Hears each thing ready and gathers the round (made once).
  private var gather: (ReadyRound.Part) -> Void = { _ in }

  package init(_ match: any MatchShell, loop: EventLoop, report: @escaping ([MatchEvent], MatchView) -> Void) {
    self.match = match
    self.loop = loop
    deliver = report
    gather = { [unowned self] part in
      // Due at time 0, it is the first of the round's timers, which run right after its ready handlers.
      if self.ready.isEmpty { _ = self.loop.schedule(at: 0) { [weak self] in self?.handleReady() } }
      self.ready.add(part)
    }
    match.watch(on: loop, ready: gather)
    match.writes.queue.run = { [loop] work, done in loop.perform(work, then: done) }
    match.files.worker = loop
    match.files.report = { [weak self] events in self?.report(events) }
    if case .host(let host) = match.side, host.mapsPort { startPortMapping() }
  }

  /// Hands the front end `events` and the match's view after them.
  private func report(_ events: [MatchEvent]) { deliver(events, match.view) }

  /// Hands the match what was ready this round.
  private func handleReady() {
    let ready = self.ready
    self.ready = ReadyRound()
    guard attached else { return }
    report(match.handle(ready))
  }

  /// Starts asking the router to open the host's port (once; a joiner has none).
  package func startPortMapping() {
    guard mapping == nil, case .host(let host) = match.side else { return }
    let mapping = PortMappingOnLoop(loop: loop, port: host.port, paths: host.paths) { [weak self] lines, external in
      guard let self else { return }
      var events = lines.map { MatchEvent.status($0) }
      if let external, let invite = host.inviteWith(external: external) {
        events.append(.status("Invite: \(invite)"))
      }
      self.report(events)
    }
    self.mapping = mapping
    mapping.start()
  }

  /// Brings the loop up to date with the match (call before each wait).
  package func refresh() {
    if case .joiner(let joiner) = match.side, let endpoint = joiner.nameToResolve, !resolving {
      resolving = true
      let network = joiner.network
      loop.perform(
        { () -> Result<[Sockets.Address], NetworkError> in
          do throws(NetworkError) { return .success(try network.resolve(endpoint, false)) } catch {
            return .failure(error)
          }
        },
        then: { [weak self] result in
          guard let self, self.attached else { return }
          self.resolving = false
          self.report(joiner.reconnect(to: result))
        })
    }
    // A listener or an announcement made since goes on the loop (a flag looked at; connections register
    // themselves).
    if attached { match.watch(on: loop, ready: gather) }
    let due = match.nextDeadline
    guard due != timerDue else { return }
    loop.cancel(timer)
    timerDue = due
    timer = due.map { due in
      loop.schedule(at: due) { [unowned self] in
        self.timerDue = nil
        self.timer = nil
        self.report(self.match.tick())
      }
    }
  }

  /// Joiner: resolves the host's names on a worker thread (DNS can take seconds; the screen and Ctrl-C stay
  /// live), then connects on the loop to the first address that answers, in the order of `endpoints` (an
  /// invite gives several). The join fails with the first error only when no name resolved.
  /// The invite's relay (`JoinerMatch.inviteRelay`) is looked up too, and tried beside them. A host joins
  /// nobody.
  package func join(_ endpoints: [Endpoint]) {
    guard case .joiner(let joiner) = match.side else { return }
    let relay = joiner.inviteRelay
    let network = joiner.network
    let resolve: @Sendable () -> (Result<[(Endpoint, Sockets.Address)], NetworkError>, RelayLookup?) = {
      var found: [(Endpoint, Sockets.Address)] = []
      var firstError: NetworkError?
      for endpoint in endpoints {
        do throws(NetworkError) {
          found += try network.resolve(endpoint, false).map { (endpoint, $0) }
        } catch {
          firstError = firstError ?? error
        }
      }
      let route = relay.map { RelayLookup.resolve($0) }
      if found.isEmpty, let firstError { return (.failure(firstError), route) }
      return (.success(found), route)
    }
    loop.perform(
      resolve,
      then: { [weak self] (result, relay) in
        guard let self, self.attached else { return }  // left while the name was being looked up
        switch result {
        case .success(let candidates): self.report(joiner.join(candidates, relay: relay?.result))
        case .failure(let error) where relay != nil:
          self.report([.status("\(MatchEnd.network(error).sentence)")] + joiner.join([], relay: relay?.result))
        case .failure(let error): self.report(joiner.joinFailed(.network(error)))
        }
      })
  }

  /// Goodbyes going out, writes being made and the router's port mapping being removed.
  package var lingering: Int { match.lingering + (mapping?.removing == true ? 1 : 0) }

  /// The match was left while the program goes on: the router's port mapping is removed off the loop
  /// (`lingering` until it is).
  package func release() {
    mapping?.stop()
  }

  /// Lets go of the loop: nothing of the match is watched any more. A port mapping not released yet is removed
  /// at once (waiting at most a second): this is for the way out, once the loop has stopped.
  package func detach() {
    mapping?.stopNow()
    mapping = nil
    match.detachFromLoop()
    attached = false
    loop.cancel(timer)
    timer = nil
    timerDue = nil
  }
}

/// What the loop found ready for a match in one round, handed to it at once (`NetworkMatch.handle(_:)`).
package struct ReadyRound {
  /// One thing ready: a connection (what its descriptor is ready for), a listening socket or one at the door,
  /// or the announcement's descriptor.
  package enum Part {
    case connection(ConnectionID, PeerConnection, Int16)
    case listening(Int32)
    case announcement
  }

  private(set) var connections: [(ConnectionID, PeerConnection, Int16)] = []
  private(set) var listening: Set<Int32> = []
  private(set) var announcement = false

  var isEmpty: Bool { connections.isEmpty && listening.isEmpty && !announcement }

  mutating func add(_ part: Part) {
    switch part {
    case .connection(let id, let connection, let revents): connections.append((id, connection, revents))
    case .listening(let fd): listening.insert(fd)
    case .announcement: announcement = true
    }
  }
}
