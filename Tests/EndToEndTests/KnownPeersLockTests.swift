import Foundation
import PeerTrust
import PlayerFiles
import Security
import TestSupport
import Testing

/// Issue 25, item 11: `peers forget` and `peers rename` run at once by many processes change known_peers under
/// its lock, each on the file as the one before left it: none is lost (12 concurrent forgets used to bring 8
/// keys back).
@Suite(.serialized) struct KnownPeersLockTests {
  @Test func manyProcessesChangingKnownPeersAtOnceLoseNothing() throws {
    let home = try NetworkTests.Home("bob")
    let data = try #require(home.environment["XDG_DATA_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(
      atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let key = { (index: Int) in Fingerprint(bytes: [UInt8](repeating: UInt8(index), count: 32))! }
    let lines = (1...24).map { "peer\($0) \(key($0)) 2026-11-30\n" }.joined()
    try lines.write(toFile: data + "/known_peers", atomically: true, encoding: .utf8)
    // 12 forget a peer each and 12 rename one each, all started before any is waited for.
    let runs = try (1...24).map { index in
      let arguments =
        index <= 12 ? ["peers", "forget", "peer\(index)"] : ["peers", "rename", "peer\(index)", "friend\(index)"]
      return (
        arguments,
        try ChildProcess(
          Binary.path, arguments, environment: home.environment, output: .file(TestDirectory.path("lock-out")),
          errors: .file(TestDirectory.path("lock-err")))
      )
    }
    for (arguments, child) in runs {
      #expect(child.wait(timeout: 60) == 0, "tictactoe \(arguments): status \(String(describing: child.exitStatus))")
    }
    let peers = try KnownPeersFile(path: data + "/known_peers").load()
    #expect(peers.count == 12, "\(peers.render())")
    for index in 1...12 {
      #expect(peers.lookup(fingerprint: key(index)) == nil, "peer\(index) came back: \(peers.render())")
    }
    for index in 13...24 {
      #expect(peers.lookup(fingerprint: key(index))?.name == "friend\(index)", "rename lost: \(peers.render())")
    }
  }
}
