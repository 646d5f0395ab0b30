import EventLoop
import Glibc
import Transport

/// The goodbyes going out (`ClosingSockets`) on the event loop, for the match and the bot: each socket the
/// closing sockets take over is watched for writing and sent what its peer takes as it becomes writable, and
/// given up just before it is closed (its last bytes out, or its deadline passed: the owner calls `expire`).
package final class ClosingOnLoop {
  private let closing: ClosingSockets
  private var registrations: [Int32: LoopRegistration] = [:]

  package init(_ closing: ClosingSockets, loop: EventLoop) {
    self.closing = closing
    for fd in closing.descriptors { watch(fd, on: loop) }
    closing.adopted = { [unowned self, unowned loop] fd in self.watch(fd, on: loop) }
    closing.closingNow = { [unowned self] fd in self.registrations.removeValue(forKey: fd)?.cancel() }
  }

  /// Stops watching them all (the loop is going away); the closing sockets go on without a loop.
  package func detach() {
    closing.adopted = { _ in }
    closing.closingNow = { _ in }
    for registration in registrations.values { registration.cancel() }
    registrations = [:]
  }

  private func watch(_ fd: Int32, on loop: EventLoop) {
    registrations[fd] = LoopRegistration(loop: loop, fd: fd, events: Int16(POLLOUT)) { [unowned closing] _ in
      closing.flush(fd)
    }
  }
}
