import Foundation
import Security
import TestSupport
import Testing

@testable import MatchCoordination
@testable import NetworkShell

/// CA mode on the real shells in memory: a joiner of a LAN game checks the host's certificate against the game's
/// name (`JoinerMatch.lanGameName`), never against the numeric address it connects to. A certificate for that
/// name is let in; one for another name, announced under it, is refused as a name mismatch.
@Suite(.serialized) struct InMemoryLANNameTests {
  /// A certificate authority and the certificates it issued for `names`, in a new directory (keys 0600).
  static func authority(issuing names: [String]) throws -> String {
    let directory = try TestDirectory.make("lan-ca")
    let authority = try Identity.generateAuthority(commonName: "Test Club CA")
    try write(authority.certificatePEM, to: directory + "/ca.crt")
    for name in names {
      let issued = try Identity.generate(commonName: name, validDays: 30, notBefore: nil, issuer: authority)
      try write(issued.certificatePEM, to: "\(directory)/\(name).crt")
      try write(issued.privateKeyPEM, to: "\(directory)/\(name).key")
    }
    return directory
  }

  static func write(_ text: String, to path: String) throws {
    guard
      FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    else { throw InMemoryMatch.Stuck("cannot write \(path)") }
  }

  /// CA mode with `name`'s certificate from the authority in `directory`.
  static func options(_ directory: String, _ name: String) -> NetworkOptions {
    var options = NetworkOptions()
    options.caFile = directory + "/ca.crt"
    options.certificateFile = "\(directory)/\(name).crt"
    options.keyFile = "\(directory)/\(name).key"
    return options
  }

  /// bob joins the LAN game `game`, hosted with `host`'s certificate, at the address 127.0.0.1.
  static func join(game: String, hostedBy host: String, directory: String) throws -> (
    InMemoryMatch, MemoryPlayer, MemoryPlayer
  ) {
    let table = InMemoryMatch()
    let hosting = try table.host(name: host, options: options(directory, host))
    let joiner = try MemoryPlayer(
      .joiner, name: "bob", options: options(directory, "bob"), network: table.memory.network, loop: table.loop,
      time: table.time)
    joiner.joinerMatch.lanGameName = game
    try table.add(joiner, joining: hosting)
    return (table, hosting, joiner)
  }

  @Test func theGamesNameIsCheckedNotTheAddress() throws {
    let directory = try Self.authority(issuing: ["alice", "mallory", "bob"])
    let (table, host, joiner) = try Self.join(game: "alice", hostedBy: "alice", directory: directory)
    try table.meet(host, joiner)
    #expect(joiner.question == nil && host.question == nil)

    let (other, impostor, fooled) = try Self.join(game: "alice", hostedBy: "mallory", directory: directory)
    #expect(other.run { fooled.end != nil })
    #expect("\(fooled.end.map { "\($0)" } ?? "")".contains("The certificate is for mallory, not for alice."))
    #expect(impostor.myMark == nil)
  }
}
