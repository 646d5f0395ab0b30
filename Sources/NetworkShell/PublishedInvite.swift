import PlayerFiles
import Security

/// Host: the invite `tictactoe invite` prints while this process hosts (`RunningHosts`): published when hosting
/// begins, published again with the router's outside address first once a port is mapped and with a new relay
/// token when the player asks for a new invite, and withdrawn when the match goes.
package final class PublishedInvite {
  private let paths: Paths
  private var path: String?
  /// The invite published last (nil: none yet).
  private(set) var current: Invite?

  init(paths: Paths) { self.paths = paths }

  deinit { RunningHosts.withdraw(path) }

  /// Makes `invite` the one `tictactoe invite` reads for this process.
  package func publish(_ invite: Invite) {
    RunningHosts.withdraw(path)
    current = invite
    path = RunningHosts.publish(invite, paths: paths)
  }
}
