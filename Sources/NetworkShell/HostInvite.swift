import Glibc
import PeerTrust
import PlayerFiles
import Security
import Transport

/// The invites of the games this user is hosting, kept where `tictactoe invite` finds them: one file per
/// hosting process in `$XDG_STATE_HOME/tictactoe/hosting/`, named by its process ID and holding the process's
/// start time (so a file left by a process that died, whose ID was reused since, is not believed) and the
/// invite. The file is removed when the host stops; one that outlived its process is removed by the next look.
package enum RunningHosts {
  static func directory(_ paths: Paths) -> String { paths.state + "/hosting" }

  /// The invite for a host with `key` listening on `port`, at `bind` or else at every address of this machine
  /// that a friend could reach (loopback when there is none); `external` (a port the router opened) first, and
  /// `relay` (where the host waits at a transit relay, with its token) last.
  package static func invite(
    key: Fingerprint, port: UInt16, bind: String?, external: Invite.Address? = nil, relay: Invite.Relay? = nil
  ) -> Invite? {
    let wildcard = bind == nil || bind == "0.0.0.0" || bind == "::"
    // A link-local address's zone is this machine's interface: meaningless to a friend's, so left out.
    var hosts = wildcard ? Sockets.localAddresses().filter { !$0.lowercased().hasPrefix("fe80") } : [bind ?? ""]
    if hosts.isEmpty { hosts = ["127.0.0.1"] }
    let local = hosts.map { Invite.Address(host: $0, port: port) }.filter { $0 != external }
    let addresses = (external.map { [$0] } ?? []) + local
    return Invite(key: key, addresses: Array(addresses.prefix(Invite.maximumAddresses)), relay: relay)
  }

  /// Records `invite` as this process's; returns the file's path, to remove when hosting stops.
  static func publish(_ invite: Invite, paths: Paths) -> String? {
    let pid = getpid()
    guard let started = startTime(of: pid) else { return nil }
    let path = directory(paths) + "/\(pid)"
    do {
      try AtomicFile.write("\(started) \(invite)\n", to: path)
      return path
    } catch {
      return nil
    }
  }

  static func withdraw(_ path: String?) {
    if let path { unlink(path) }
  }

  /// The invites of the live hosting processes; files of processes that are gone are removed. A directory or a
  /// file that fails the rule for the player's files (`FileExposure`: someone else could have put it there) is
  /// not believed: the problem is returned instead, and nothing there is removed.
  package static func live(paths: Paths) -> (invites: [String], problems: [String]) {
    let directory = directory(paths)
    if let (reason, fix) = FileExposure.problem(directory: directory) {
      return ([], ["the list of running hosts \(reason), so someone else could have put an invite there: run `\(fix)`"])
    }
    let names = FileSystem.entries(of: directory).filter {
      !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) }
    }
    var invites: [String] = []
    var problems: [String] = []
    for name in names.sorted(by: { (Int($0) ?? 0) < (Int($1) ?? 0) }) {
      let path = directory + "/" + name
      guard let pid = Int32(name) else { continue }
      let data: [UInt8]
      switch FileExposure.read(path, limit: 4096) {
      case .contents(let bytes): data = bytes
      case .missing, .unreadable: continue
      case .exposed(let reason, let fix):
        problems.append("\(path) \(reason), so it was not believed: run `\(fix)`")
        continue
      }
      let fields = String(decoding: data, as: UTF8.self).split(separator: " ", maxSplits: 1)
      guard fields.count == 2, let started = UInt64(fields[0]), started == startTime(of: pid),
        let invite = try? Invite.parse(String(fields[1]))
      else {
        unlink(path)
        continue
      }
      invites.append(invite.description)
    }
    return (invites, problems)
  }

  /// The start time of process `pid` in clock ticks since boot (field 22 of /proc/PID/stat); nil when there is
  /// no such process.
  static func startTime(of pid: Int32) -> UInt64? {
    guard let data = FileSystem.contents("/proc/\(pid)/stat") else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ")".
    guard let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 19 else { return nil }
    return UInt64(fields[19])
  }
}
