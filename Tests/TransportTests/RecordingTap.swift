import Glibc
import NetworkFacts
import Transport

/// A loopback TCP proxy between one player and the relay that records every byte it forwards: what a relay (or
/// anyone on the path) sees. Driven by the test's loop (`descriptors`, `pump`), it never waits.
final class RecordingTap {
  let listener: Int32
  let upstream: Endpoint
  /// The player's side and the relay's side, once a player connected.
  private(set) var player: Int32 = -1
  private(set) var relay: Int32 = -1
  /// Bytes from the player to the relay, and from the relay to the player.
  private(set) var sent: [UInt8] = []
  private(set) var received: [UInt8] = []

  init(to upstream: Endpoint) throws {
    self.upstream = upstream
    listener = try Sockets.listen(bind: "127.0.0.1", port: 0)[0]
  }

  deinit {
    for fd in [listener, player, relay] where fd >= 0 { close(fd) }
  }

  var endpoint: Endpoint { Endpoint(host: "127.0.0.1", port: Sockets.localPort(listener)) }

  /// What to poll for reading.
  var descriptors: [Int32] { [listener, player, relay].filter { $0 >= 0 } }

  /// Accepts the player (connecting to the relay for it) and moves what either side sent.
  func pump() throws {
    if player < 0, let accepted = Sockets.accept(listener) {
      player = accepted.fd
      relay = try Sockets.connect(upstream)
    }
    guard player >= 0 else { return }
    sent += move(from: player, to: relay)
    received += move(from: relay, to: player)
  }

  /// Moves what `source` has to `target` (a loopback socket takes it at once); at the end of `source`, ends
  /// `target`'s sending side too.
  private func move(from source: Int32, to target: Int32) -> [UInt8] {
    var moved: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      if count > 0 {
        let chunk = Array(buffer[0..<count])
        var offset = 0
        while offset < chunk.count {
          let written = chunk[offset...].withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
          if written > 0 { offset += written } else if errno != EINTR && errno != EAGAIN { break }
        }
        moved += chunk
      } else if count == 0 {
        shutdown(target, Int32(SHUT_WR))
        return moved
      } else if errno != EINTR {
        return moved
      }
    }
  }
}
