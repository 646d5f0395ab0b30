import Foundation
import PlayerFiles
import Security
import TestSupport
import Testing

/// Killing the real binary (SIGKILL) while it writes one of its files, at many moments: right after each change
/// it makes in the file's directory (a file created, written, closed, renamed in or removed, seen with inotify),
/// and after a sweep of delays from its start. Every time, what is left is the complete old or the complete new
/// content, it still loads, and the permissions are private.
@Suite struct KillDuringWriteTests {
  @Test func identityNewKilledAtAnyMomentLeavesTheOldOrTheNewIdentity() throws {
    let home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    let store = IdentityStore(directory: home.environment["XDG_DATA_HOME"]! + "/tictactoe/identity")
    #expect(try KillableRun.complete(["identity"], environment: home.environment) == 0)
    var current = try #require(try store.load())
    var outcomes = Outcomes()
    for moment in KillableRun.moments(changes: 12, delays: stride(from: 0, through: 0.04, by: 0.001)) {
      let before = (key: try bytes(store.keyPath), certificate: try bytes(store.certificatePath))
      let killed = try KillableRun.kill(
        ["identity", "new", "--yes"], environment: home.environment, watching: [store.directory], at: moment)
      let loaded: Identity
      do {
        loaded = try #require(try store.load(), "the identity is gone after a kill \(moment)")
      } catch {
        Issue.record("after a kill \(moment) the identity no longer loads: \(error)")
        return
      }
      let after = (key: try bytes(store.keyPath), certificate: try bytes(store.certificatePath))
      if loaded.fingerprint == current.fingerprint {
        #expect(after.key == before.key && after.certificate == before.certificate, "a kill \(moment) changed files")
        outcomes.count(old: true, killed: killed)
      } else {
        #expect(after.key == Array(loaded.privateKeyPEM.utf8), "after a kill \(moment) the key file is not whole")
        #expect(after.certificate == Array(loaded.certificatePEM.utf8), "after a kill \(moment) the certificate")
        outcomes.count(old: false, killed: killed)
      }
      #expect(mode(store.directory) == 0o700 && mode(store.keyPath) == 0o600, "permissions after a kill \(moment)")
      current = loaded
    }
    outcomes.expectBothSeen()
    // The next complete write also clears what the killed ones left (temporary files that may hold a key); the
    // identity it replaced is kept, private.
    #expect(try KillableRun.complete(["identity", "new", "--yes"], environment: home.environment) == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted() == [
        "identity.crt", "identity.key", "identity.past", "identity.previous",
      ])
    #expect(mode(store.previousPath) == 0o600 && mode(store.pastKeysPath) == 0o600)
  }

  @Test func peersForgetKilledAtAnyMomentLeavesTheOldOrTheNewFile() throws {
    let home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    let path = home.environment["XDG_DATA_HOME"]! + "/tictactoe/known_peers"
    let moments = KillableRun.moments(changes: 8, delays: stride(from: 0, through: 0.03, by: 0.001))
    // One peer per kill, plus comments and blank lines, which must survive as they are.
    var text = "# players met\n\n"
    for index in 0..<moments.count {
      let key = Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }).base64EncodedString()
      text += "peer\(index) SHA256:\(key.replacingOccurrences(of: "=", with: "")) 2026-11-\(10 + index % 19)\n"
      if index % 10 == 0 { text += "# a comment after peer\(index)\n" }
    }
    text += "last SHA256:\(String(repeating: "A", count: 43)) 2026-11-29\n"
    try writePrivate(text, to: path)
    var outcomes = Outcomes()
    for (index, moment) in moments.enumerated() {
      let old = try bytes(path)
      let new = Array(
        String(decoding: old, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
          .filter { !$0.hasPrefix("peer\(index) ") }.joined(separator: "\n").utf8)
      let killed = try KillableRun.kill(
        ["peers", "forget", "peer\(index)"], environment: home.environment,
        watching: [(path as NSString).deletingLastPathComponent], at: moment)
      let after = try bytes(path)
      #expect(after == old || after == new, "after a kill \(moment) known_peers is neither the old nor the new file")
      outcomes.count(old: after == old, killed: killed)
      do {
        let peers = try KnownPeersFile(path: path).load()
        let lines = String(decoding: after, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(peers.entries.count == lines.count, "after a kill \(moment) known_peers lost or gained an entry")
      } catch {
        Issue.record("after a kill \(moment) known_peers does not load: \(error)")
      }
      #expect(mode(path) == 0o600, "permissions after a kill \(moment)")
    }
    outcomes.expectBothSeen()
    #expect(try KillableRun.complete(["peers", "forget", "last"], environment: home.environment) == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted() == [
        "known_peers", "known_peers.lock",
      ])
  }

  @Test func aHostKilledWhileRememberingANewPeerLeavesTheOldOrTheNewFile() throws {
    let home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    var environment = home.environment
    environment["USER"] = "alice"
    let data = environment["XDG_DATA_HOME"]! + "/tictactoe"
    let path = data + "/known_peers"
    #expect(try KillableRun.complete(["identity"], environment: environment) == 0)
    try writePrivate("# alice's peers\n", to: path)
    var outcomes = Outcomes()
    // The new peer is one line appended with one write (no temporary file, no rename): a kill leaves the file
    // as it was (killed before the write: the first moment, at once, is before the joiner got in) or with the
    // whole new line. Another round (at most three) when a loaded machine let every kill of one land on the
    // same side of the write.
    let rounds = (0..<3).flatMap { _ in [.afterChanges(0)] + KillableRun.moments(changes: 6, delays: []) }
    for (index, moment) in rounds.enumerated() {
      if index > 0 && index.isMultiple(of: 6) && outcomes.old > 0 && outcomes.new > 0 { break }
      let old = try bytes(path)
      let watch = try ChangeWatch([data])
      let host = try Player(
        ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new"], environment: environment)
      let port = try #require(host.announcedPort())
      let pinned = CPUPinning(holding: host.pid)
      defer { pinned.release() }
      let bobHome = try Binary.sandbox()
      defer { try? FileManager.default.removeItem(atPath: bobHome.root) }
      var bob = bobHome.environment
      bob["USER"] = "bob\(outcomes.total)"
      let joiner = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob)
      guard case .afterChanges(let count) = moment else { continue }
      let seen = watch.wait(forChanges: count, timeout: 10) { host.exitStatus(timeout: 0) == nil }
      host.signal(SIGKILL)
      let killed = host.exitStatus() == 128 + SIGKILL && seen == count
      joiner.signal(SIGKILL)
      let after = try bytes(path)
      let added = String(decoding: after.dropFirst(old.count), as: UTF8.self)
      let isNew =
        after.starts(with: old) && added.hasPrefix("bob\(outcomes.total) SHA256:") && added.hasSuffix("\n")
        && added.split(separator: "\n").count == 1
      #expect(after == old || isNew, "after a kill \(moment) known_peers is neither old nor new:\n\(added)")
      #expect((try? KnownPeersFile(path: path).load()) != nil, "after a kill \(moment) known_peers does not load")
      #expect(mode(path) == 0o600)
      outcomes.count(old: after == old, killed: killed)
    }
    outcomes.expectBothSeen()
  }

  @Test func theCursesUIKilledWhileSavingSettingsLeavesTheOldOrTheNewFile() throws {
    let home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    let directory = home.environment["XDG_CONFIG_HOME"]! + "/tictactoe"
    let path = directory + "/settings.conf"
    try writePrivate("# mine\nsize = 3\nk = 3\nlevel = perfect\nfirst = me\n", to: path)
    var outcomes = Outcomes()
    // On a loaded machine every kill of a round can land on the same side of the rename: go round again (at
    // most six times) until some kill left the old file and some run got to the new one. (Three rounds were
    // not enough once, in a fresh-clone CI run beside two other builds: every kill came after the rename.)
    let rounds = (0..<6).flatMap { _ in KillableRun.moments(changes: 6, delays: []) }
    for (index, moment) in rounds.enumerated() {
      if index > 0 && index.isMultiple(of: 6) && outcomes.old > 0 && outcomes.new > 0 { break }
      guard case .afterChanges(let count) = moment else { continue }
      let old = try bytes(path)
      let oldSize = try #require(Int(setting("size", in: old) ?? ""))
      let watch = try ChangeWatch([directory])
      let tmux = try TmuxSession(command: Binary.path, environment: home.environment)
      try tmux.waitFor(text: "Options")
      let pid = try #require(tmux.panePID)
      let pinned = CPUPinning(holding: pid)
      defer { pinned.release() }
      // Options (the fifth lobby item), one step up in board size, back: the game saves the settings.
      try tmux.send("Down", "Down", "Down", "Down", "Enter")
      try tmux.waitFor(text: "Board size")
      try tmux.send("Right", "q")
      let seen = watch.wait(forChanges: count, timeout: 10) { kill(pid, 0) == 0 }
      kill(pid, SIGKILL)
      let after = try bytes(path)
      let newSize = Int(setting("size", in: after) ?? "")
      #expect(
        after == old || newSize == (oldSize == 15 ? 3 : oldSize + 1),
        "after a kill \(moment) the size is \(String(describing: newSize))")
      #expect(after == old || setting("first", in: after) == "me", "after a kill \(moment) the file is cut short")
      let check = try KillableRun.completeWithOutput(
        ["play", "--ui", "plain", "--hotseat"], environment: home.environment, input: "quit\n")
      #expect(!check.contains("Settings not loaded"), "after a kill \(moment): \(check)")
      #expect(mode(path) == 0o600 && mode(directory) == 0o700)
      outcomes.count(old: after == old, killed: seen == count)
    }
    outcomes.expectBothSeen()
  }

  // MARK: helpers

  /// How the kills turned out: a test where every kill came too early, or too late, tested nothing.
  private struct Outcomes {
    var old = 0
    var new = 0
    var killedMidway = 0
    var total: Int { old + new }

    mutating func count(old isOld: Bool, killed: Bool) {
      if isOld { old += 1 } else { new += 1 }
      if killed { killedMidway += 1 }
    }

    func expectBothSeen(sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(old > 0, "no kill left the old file", sourceLocation: sourceLocation)
      #expect(new > 0, "no run got as far as the new file", sourceLocation: sourceLocation)
      #expect(killedMidway > 0, "no run was killed", sourceLocation: sourceLocation)
    }
  }

  /// Writes a file as the game would have: 0600 in a 0700 directory.
  private func writePrivate(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    chmod(path, 0o600)
  }

  private func bytes(_ path: String) throws -> [UInt8] {
    Array(try #require(FileManager.default.contents(atPath: path), "\(path) is missing"))
  }

  private func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
  }

  /// The value of `key = value` in a settings file.
  private func setting(_ key: String, in bytes: [UInt8]) -> String? {
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      if parts.count == 2 && parts[0] == key { return parts[1] }
    }
    return nil
  }
}

/// Starting the binary and killing it at a chosen moment.
enum KillableRun {
  /// When to kill.
  enum Moment: CustomStringConvertible {
    /// Right after the process made this many changes in the watched directories.
    case afterChanges(Int)
    /// This many seconds after it was started.
    case afterDelay(Double)

    var description: String {
      switch self {
      case .afterChanges(let count): return "after \(count) file changes"
      case .afterDelay(let seconds): return "after \(Int(seconds * 1000)) ms"
      }
    }
  }

  /// Every change count from 1 to `changes`, then every delay.
  static func moments(changes: Int, delays: StrideThrough<Double>) -> [Moment] {
    (1...changes).map(Moment.afterChanges) + delays.map(Moment.afterDelay)
  }

  static func moments(changes: Int, delays: [Double]) -> [Moment] {
    (1...changes).map(Moment.afterChanges) + delays.map(Moment.afterDelay)
  }

  /// Runs the binary with `arguments` and kills it (SIGKILL) at `moment`; true if the kill came before it
  /// finished by itself.
  static func kill(
    _ arguments: [String], environment: [String: String], watching directories: [String], at moment: Moment
  ) throws -> Bool {
    let watch = try ChangeWatch(directories)
    let child = try ChildProcess(Binary.path, arguments, environment: environment)
    let pinned = CPUPinning(holding: child.pid)
    defer { pinned.release() }
    switch moment {
    case .afterChanges(let count):
      _ = watch.wait(forChanges: count, timeout: 10) { child.isRunning }
    case .afterDelay(let seconds):
      usleep(UInt32(seconds * 1_000_000))
    }
    child.signal(SIGKILL)
    child.wait(timeout: 30)
    return child.terminatingSignal == SIGKILL
  }

  /// Runs the binary to its end; its exit status.
  static func complete(_ arguments: [String], environment: [String: String]) throws -> Int32 {
    let child = try ChildProcess(Binary.path, arguments, environment: environment)
    return child.wait(timeout: 60) ?? -1
  }

  /// Runs the binary to its end with `input`; what it wrote to standard output and error.
  static func completeWithOutput(_ arguments: [String], environment: [String: String], input: String) throws
    -> String
  {
    let player = try Player(arguments, environment: environment)
    player.send(input.hasSuffix("\n") ? String(input.dropLast()) : input)
    player.closeInput()
    _ = player.exitStatus()
    return player.output + player.errors
  }
}

/// Makes "kill it right after that change" mean right after: the watched process is put on the CPU the test's
/// thread runs on, at the lowest priority, so when a change wakes the test's thread it runs first and the process
/// cannot go on writing before the kill. (Only timing changes: the process runs the same code.) The affinity
/// calls are glibc extensions Swift does not import, so they are looked up at run time; without them the test
/// still runs, with looser timing.
struct CPUPinning {
  private typealias GetCPU = @convention(c) () -> Int32
  private typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
  private static let getCPU = dlsym(nil, "sched_getcpu").map { unsafeBitCast($0, to: GetCPU.self) }
  private static let getAffinity = dlsym(nil, "sched_getaffinity").map { unsafeBitCast($0, to: Affinity.self) }
  private static let setAffinity = dlsym(nil, "sched_setaffinity").map { unsafeBitCast($0, to: Affinity.self) }

  private var saved = cpu_set_t()
  private var pinned = false

  init(holding pid: pid_t) {
    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), 19)
    guard let getCPU = Self.getCPU, let getAffinity = Self.getAffinity, let setAffinity = Self.setAffinity else {
      return
    }
    let cpu = Int(getCPU())
    guard cpu >= 0, cpu < MemoryLayout<cpu_set_t>.size * 8 else { return }
    var one = cpu_set_t()
    withUnsafeMutableBytes(of: &one) { $0[cpu / 8] |= UInt8(1 << (cpu % 8)) }
    let size = MemoryLayout<cpu_set_t>.size
    guard getAffinity(0, size, &saved) == 0, setAffinity(0, size, &one) == 0 else { return }
    pinned = true
    _ = setAffinity(pid, size, &one)
  }

  /// Gives the test's thread back the CPUs it had.
  func release() {
    guard pinned, let setAffinity = Self.setAffinity else { return }
    var saved = saved
    _ = setAffinity(0, MemoryLayout<cpu_set_t>.size, &saved)
  }
}

/// Counts changes in directories with inotify: a file created, written, closed after writing, moved in or out,
/// or deleted.
final class ChangeWatch {
  private let fd: Int32

  init(_ directories: [String]) throws {
    fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let mask = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
    for directory in directories where inotify_add_watch(fd, directory, mask) < 0 {
      close(fd)
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ENOENT)
    }
  }

  deinit { close(fd) }

  /// Waits until `count` changes were seen, `timeout` passed or `stillRunning` turns false; how many were seen.
  func wait(forChanges count: Int, timeout: Double, stillRunning: () -> Bool) -> Int {
    var seen = 0
    let deadline = monotonicNow() + timeout
    var buffer = [UInt8](repeating: 0, count: 4096)
    while seen < count && monotonicNow() < deadline {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      if poll(&pfd, 1, 5) <= 0 {
        if !stillRunning() { break }
        continue
      }
      let length = read(fd, &buffer, buffer.count)
      guard length > 0 else { continue }
      var offset = 0
      // Count event by event, so the caller can act on the exact one it waits for.
      while offset < length && seen < count {
        let nameLength = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) }
        offset += MemoryLayout<inotify_event>.size + Int(nameLength)
        seen += 1
      }
    }
    return seen
  }
}
