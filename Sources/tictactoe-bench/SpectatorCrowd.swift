import EventLoop
import GameCore
import NetworkFacts
import PeerTrust
import Security
import Transport
import WireProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// Spectators of one game of the bot host, run in a child process (`--spectator-probe PORT GAME COUNT`) until
/// killed: COUNT connections from 127.0.0.1 (which the bot's limits exempt from 8 spectators an address), one key
/// for all, each asking for game GAME (PROTOCOL.md rule 27), reading everything the bot sends and saying a
/// heartbeat every 2 s, as a `tictactoe watch` does. Prints "watching N moves M lost L" when its figures change,
/// at most every 0.2 s: N spectators that have their snapshot, M `watch move`s received in all, L connections
/// refused or ended (none is opened again).
enum SpectatorCrowd {
  static let probeArgument = "--spectator-probe"

  private final class Spectator {
    let connection: PeerConnection
    var watching = false
    var lastBeat = 0.0
    init(connection: PeerConnection) { self.connection = connection }
  }

  /// What the crowd reports.
  struct Report: Equatable {
    var watching = 0
    var moves = 0
    var lost = 0

    var line: String { "watching \(watching) moves \(moves) lost \(lost)" }

    /// Reads a line written by `line` (nil when it is not one).
    init?(line: Substring) {
      let words = line.split(separator: " ")
      guard words.count == 6, words[0] == "watching", words[2] == "moves", words[4] == "lost",
        let watching = Int(words[1]), let moves = Int(words[3]), let lost = Int(words[5])
      else { return nil }
      (self.watching, self.moves, self.lost) = (watching, moves, lost)
    }

    init() {}
  }

  static func run(port: UInt16, game: UInt16, count: Int) -> Never {
    do {
      let identity = try Identity.generate(commonName: "bench-spectators")
      let context = try TLSContext(role: .client, identity: identity, options: TrustOptions(policy: .insecure))
      let pollSet = PollSet()
      var spectators: [Int32: Spectator] = [:]
      for _ in 0..<count {
        let fd = try Sockets.connect(Endpoint(host: "127.0.0.1", port: port))
        let connection = try PeerConnection(fd: fd, context: context, peerAddress: "bot")
        spectators[fd] = Spectator(connection: connection)
        pollSet.insert(fd, events: Int16(POLLIN))
        try connection.start()
      }
      var report = Report()
      var said = Report()
      said.watching = -1
      var nextSay = 0.0
      while true {
        let now = Clock.seconds()
        for spectator in spectators.values {
          let connection = spectator.connection
          if spectator.watching && now - spectator.lastBeat >= 2 {
            spectator.lastBeat = now
            try? connection.send(.heartbeat)
          }
          pollSet.setEvents(connection.fd, Int16(POLLIN | (connection.wantsWrite ? POLLOUT : 0)))
        }
        for (fd, revents) in pollSet.wait(timeout: 100) {
          guard let spectator = spectators[fd] else { continue }
          if revents & Int16(POLLOUT) != 0 { spectator.connection.flush() }
          guard read(spectator, game: game, into: &report, now: now) else { continue }
          report.lost += 1
          if spectator.watching { report.watching -= 1 }
          pollSet.remove(fd)
          spectator.connection.close(gracefully: false)
          spectators[fd] = nil
        }
        if report != said && Clock.seconds() >= nextSay {
          say(report.line)
          said = report
          nextSay = Clock.seconds() + 0.2
        }
      }
    } catch {
      printError("tictactoe-bench: spectators: \(error)")
      exit(1)
    }
  }

  /// Reads what arrived on `spectator`, counting it in `report`; true when its connection is over.
  private static func read(_ spectator: Spectator, game: UInt16, into report: inout Report, now: Double) -> Bool {
    let connection = spectator.connection
    guard let arrivals = try? connection.readable() else { return true }
    for arrival in arrivals {
      switch arrival {
      case .introduced:
        continue
      case .secured:
        try? connection.send(
          .hello(versions: ProtocolVersion.supported, name: "bench-spectator", software: "tictactoe-bench", watch: game)
        )
        spectator.lastBeat = now
      case .message(.watchSnapshot):
        if !spectator.watching { report.watching += 1 }
        spectator.watching = true
      case .message(.watchMove):
        report.moves += 1
      case .message(.refuse(_, let text)), .message(.bye(_, let text)), .message(.error(let text)):
        printError("tictactoe-bench: a spectator was sent away: \(text)")
        return true
      case .malformed, .ended:
        return true
      case .message:
        continue
      }
    }
    return connection.isClosed
  }

  private static func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
  }
}
