import Glibc
import MatchCoordination
import NetworkFacts
import NetworkShell
import Security
import TransitRelay
import Transport

/// `doctor`'s check of the configured relay, the only way a transit relay can be checked: two connections of
/// its own greet it with one throw-away token (each its own side), both must be answered `ok`, a few bytes sent
/// on one must come out of the other, and both are closed. It blocks (for `doctor` only), at most `timeout`
/// seconds for each step.
enum RelayProbe {
  /// What went through: the bytes, and the milliseconds from the first greeting to the bytes' arrival.
  struct Passed: Equatable {
    let bytes: Int
    let milliseconds: Int
  }

  static let sample = Array("tictactoe doctor: relay check\n".utf8)

  static func run(_ relay: Endpoint, timeout: Double = 5) -> Result<Passed, NetworkError> {
    var sockets: [Int32] = []
    defer { for fd in sockets { close(fd) } }
    do throws(NetworkError) {
      let token: RelayToken
      do {
        token = try RelayToken.random()
      } catch {
        throw .socket("no random token: \(error)")
      }
      let start = PeerConnection.monotonic()
      for _ in 0..<2 {
        let fd: Int32
        do {
          fd = try Sockets.connect(relay, timeout: Int(timeout.rounded(.up)))
        } catch {
          throw error.atRelay(relay)
        }
        sockets.append(fd)
        let side: RelaySide
        do {
          side = try RelaySide.random()
        } catch {
          throw .socket("no random side: \(error)")
        }
        try send(RelayGreeting(token: token, side: side).line, on: fd, relay: relay)
      }
      var leftovers: [[UInt8]] = []
      for fd in sockets {
        var answer = RelayAnswer(now: PeerConnection.monotonic(), patience: timeout)
        leftovers.append(try answerOf(&answer, on: fd, relay: relay))
      }
      try send(sample, on: sockets[0], relay: relay)
      var through = leftovers[1]
      let deadline = PeerConnection.monotonic() + timeout
      while through.count < sample.count {
        guard let bytes = read(sockets[1], until: deadline) else {
          throw .socket("the relay \(relay) answered ok to both but passed nothing within \(Int(timeout)) s")
        }
        through += bytes
      }
      guard Array(through.prefix(sample.count)) == sample else {
        throw .socket("the relay \(relay) passed other bytes than were sent")
      }
      let milliseconds = Int(((PeerConnection.monotonic() - start) * 1000).rounded())
      return .success(Passed(bytes: sample.count, milliseconds: milliseconds))
    } catch {
      return .failure(error)
    }
  }

  /// Reads the relay's answer on `fd`; what followed `ok` in the same read.
  private static func answerOf(_ answer: inout RelayAnswer, on fd: Int32, relay: Endpoint) throws(NetworkError)
    -> [UInt8]
  {
    while true {
      let progress: RelayAnswer.Progress
      if let bytes = read(fd, until: answer.deadline) {
        progress = bytes.isEmpty ? answer.ended() : answer.feed(bytes)
      } else {
        progress = answer.check(now: max(PeerConnection.monotonic(), answer.deadline))
      }
      switch progress {
      case .waiting: continue
      case .glued(let leftover): return leftover
      case .failed(let failure): throw .relay(relay, failure)
      }
    }
  }

  /// What `fd` has to read by `deadline`: some bytes, empty at the end of the stream, nil when nothing came.
  private static func read(_ fd: Int32, until deadline: Double) -> [UInt8]? {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let left = deadline - PeerConnection.monotonic()
      guard left > 0 else { return nil }
      let ready = poll(&entry, 1, Int32((left * 1000).rounded(.up)))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: 512)
      let count = Glibc.read(fd, &buffer, buffer.count)
      if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
      return count > 0 ? Array(buffer[0..<count]) : []
    }
  }

  private static func send(_ bytes: [UInt8], on fd: Int32, relay: Endpoint) throws(NetworkError) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written > 0 {
        offset += written
      } else if written < 0 && (errno == EINTR || errno == EAGAIN) {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&entry, 1, 1000)
      } else {
        throw .relay(relay, .closed)
      }
    }
  }

  /// `doctor`'s line about the relay the settings name (none: a note saying how to name one).
  static func finding(settings relay: String?) -> Doctor.Finding {
    guard let relay else {
      return Doctor.Finding(
        .note, "relay", "none named (relay = HOST:PORT in the settings, for players no address reaches)")
    }
    guard let endpoint = RelayAddress.parse(relay) else {
      return Doctor.Finding(.problem, "relay", "\(relay) is not HOST:PORT")
    }
    switch run(endpoint) {
    case .success(let passed):
      return Doctor.Finding(
        .ok, "relay",
        "\(endpoint) paired two connections of ours (a throw-away token, both answered ok) and passed"
          + " \(passed.bytes) bytes in \(passed.milliseconds) ms")
    case .failure(let error):
      return Doctor.Finding(.problem, "relay", error.description)
    }
  }
}
