import Foundation
import Glibc
import PeerTrust
import Security
import Synchronization
import TestSupport
import Testing

@testable import App
@testable import NetworkShell
@testable import PlayerFiles

/// Issue 25, item 9: one rule for the player's files (`FileExposure`), links included. A file or a directory of
/// another user (uid 4242: the tests run as root, who can make them), a 0777 directory reached through a link,
/// and a FIFO where a file should be are refused with the fix, and never hang the program.
@Suite(.serialized) struct PlayerFileRuleTests {
  static let stranger: uid_t = 4242

  /// A file owned by the stranger, in a directory of its own (0700, also the stranger's), holding `text`.
  static func strangersFile(_ root: String, _ text: String) throws -> String {
    let folder = root + "/stranger"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/planted"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    #expect(chmod(path, 0o644) == 0 && chown(path, stranger, stranger) == 0 && chown(folder, stranger, stranger) == 0)
    return path
  }

  /// A file of ours in a 0777 directory, holding `text`.
  static func fileInOpenDirectory(_ root: String, _ text: String) throws -> String {
    let folder = root + "/open"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(chmod(folder, 0o777) == 0)
    let path = folder + "/planted"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    #expect(chmod(path, 0o600) == 0)
    return path
  }

  static func privateDirectory(_ path: String) throws {
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    #expect(chmod(path, 0o700) == 0)
  }

  /// `body` run on a thread, waited for at most 10 s; a FIFO at `fifo` is opened for writing if it is still
  /// waiting then (so the reader sees its end and the test goes on), and the result is nil.
  static func bounded<T: Sendable>(fifo: String, _ body: @escaping @Sendable () -> T) -> T? {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
      let value = body()
      result.withLock { $0 = value }
      done.signal()
    }.start()
    if done.wait(timeout: .now() + 10) == .timedOut {
      let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
      if descriptor >= 0 { close(descriptor) }
      done.wait()
      return nil
    }
    return result.withLock { $0 }
  }

  static func loaded(_ path: String) -> Result<KnownPeers, KnownPeersError> {
    Result { () throws(KnownPeersError) in try KnownPeersFile(path: path).load() }
  }

  @Test func knownPeersThroughALinkFollowTheRuleWhereTheLinkLeads() throws {
    let root = try TestDirectory.make("rule-known-peers")
    let data = root + "/data"
    try Self.privateDirectory(data)
    let line = "mallory \(MatchPair.key(9)) 2026-12-01\n"
    let path = data + "/known_peers"
    #expect(symlink(try Self.strangersFile(root, line), path) == 0)
    guard case .failure(.exposed(_, let reason, _)) = Self.loaded(path) else {
      Issue.record("a link to another user's known_peers was used: \(Self.loaded(path))")
      return
    }
    #expect(reason.contains("is a link to") && reason.contains("uid 4242"), "\(reason)")
    unlink(path)
    #expect(symlink(try Self.fileInOpenDirectory(root, line), path) == 0)
    guard case .failure(.exposed(_, let open, let fix)) = Self.loaded(path) else {
      Issue.record("a link into a 0777 directory was used: \(Self.loaded(path))")
      return
    }
    #expect(open.contains("which others can write (mode 777)") && fix == "chmod 700 \(root)/open", "\(open) \(fix)")
    // A link to a file of ours in a directory of ours is still followed (dotfiles kept elsewhere).
    unlink(path)
    let mine = root + "/mine"
    try Self.privateDirectory(mine)
    try line.write(toFile: mine + "/known_peers", atomically: false, encoding: .utf8)
    #expect(chmod(mine + "/known_peers", 0o600) == 0 && symlink(mine + "/known_peers", path) == 0)
    #expect((try? Self.loaded(path).get())?.lookup(name: "mallory") != nil)
  }

  @Test func aFIFOInPlaceOfKnownPeersIsRefusedWithoutHanging() throws {
    let root = try TestDirectory.make("rule-fifo")
    let data = root + "/data"
    try Self.privateDirectory(data)
    let path = data + "/known_peers"
    #expect(mkfifo(path, 0o600) == 0)
    let result = Self.bounded(fifo: path) { Self.loaded(path) }
    guard case .failure(.exposed(_, let reason, _))? = result else {
      Issue.record("a FIFO as known_peers: \(String(describing: result)) (nil: it hung)")
      return
    }
    #expect(reason.contains("not a regular file"), "\(reason)")
  }

  @Test func settingsThroughALinkFollowTheRule() throws {
    let root = try TestDirectory.make("rule-settings")
    let config = root + "/config"
    try Self.privateDirectory(config)
    let path = config + "/settings.conf"
    #expect(symlink(try Self.strangersFile(root, "name = mallory\n"), path) == 0)
    #expect(throws: FileError.self) { try SettingsFile.load(from: path) }
    unlink(path)
    #expect(symlink(try Self.fileInOpenDirectory(root, "name = mallory\n"), path) == 0)
    do {
      let settings = try SettingsFile.load(from: path)
      Issue.record("settings through a link into a 0777 directory were used: \(String(describing: settings.name))")
    } catch {
      #expect(error.reason.contains("mode 777") && error.reason.contains("chmod 700"), "\(error.reason)")
    }
  }

  @Test func anIdentityKeyInAnotherUsersDirectoryIsRefused() throws {
    let root = try TestDirectory.make("rule-identity")
    let directory = root + "/identity"
    let store = IdentityStore(directory: directory)
    try store.replace(with: try Identity.generate(commonName: "alice"))
    #expect(try store.load() != nil)
    #expect(chown(directory, Self.stranger, Self.stranger) == 0)
    do {
      _ = try store.load()
      Issue.record("a key in another user's directory was used")
    } catch {
      guard case .exposedPrivateKey(_, let reason, let fix) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(reason.contains("belongs to another user (uid 4242)") && fix == "chown $(id -u) \(directory)")
    }
  }

  @Test func theRunningHostsListIsBelievedOnlyWhenItIsTheUsersAlone() throws {
    let root = try TestDirectory.make("rule-hosting")
    let paths = Paths(environment: ["HOME": root, "XDG_STATE_HOME": root + "/state"])
    let hosting = RunningHosts.directory(paths)
    try Self.privateDirectory(hosting)
    // What another user plants: an invite of theirs, under this live process's ID and start time.
    let planted = try #require(Invite(key: MatchPair.key(9), addresses: [.init(host: "192.0.2.66", port: 7177)]))
    let started = try #require(RunningHosts.startTime(of: getpid()))
    let path = hosting + "/\(getpid())"
    try "\(started) \(planted)\n".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(chmod(path, 0o600) == 0)
    #expect(RunningHosts.live(paths: paths).invites == [planted.description], "a file of ours is believed")
    // In a directory others may write, nothing is believed.
    #expect(chmod(hosting, 0o777) == 0)
    let open = RunningHosts.live(paths: paths)
    #expect(open.invites.isEmpty, "\(open)")
    #expect(open.problems.contains { $0.contains("chmod 700 \(hosting)") }, "\(open.problems)")
    // A file of another user's, in a directory of ours, neither.
    #expect(chmod(hosting, 0o700) == 0 && chown(path, Self.stranger, Self.stranger) == 0)
    let owned = RunningHosts.live(paths: paths)
    #expect(owned.invites.isEmpty && owned.problems.contains { $0.contains("uid 4242") }, "\(owned)")
    #expect(FileManager.default.fileExists(atPath: path), "another user's file is not removed")
    // A FIFO there does not hang `tictactoe invite`.
    unlink(path)
    #expect(mkfifo(path, 0o600) == 0)
    let fifo = Self.bounded(fifo: path) { RunningHosts.live(paths: paths).invites }
    #expect(fifo == [], "\(String(describing: fifo)) (nil: it hung)")
  }
}
