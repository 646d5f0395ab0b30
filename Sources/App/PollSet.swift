import Glibc

/// The descriptors one poll() loop watches, kept from round to round: adding, removing and changing what a
/// descriptor is watched for cost O(1), so a round with a thousand connections rebuilds nothing.
struct PollSet {
  private var entries: [pollfd] = []
  /// Where each descriptor's entry is in `entries`.
  private var slots: [Int32: Int] = [:]

  var count: Int { entries.count }

  func contains(_ fd: Int32) -> Bool { slots[fd] != nil }

  /// What `fd` is watched for (nil when it is not in the set).
  func events(of fd: Int32) -> Int16? { slots[fd].map { entries[$0].events } }

  /// Watches `fd` for `events` (POLLIN, POLLOUT, both, or 0 to keep it without watching it for now).
  mutating func insert(_ fd: Int32, events: Int16) {
    if let slot = slots[fd] {
      entries[slot].events = events
      return
    }
    slots[fd] = entries.count
    entries.append(pollfd(fd: fd, events: events, revents: 0))
  }

  mutating func setEvents(_ fd: Int32, _ events: Int16) {
    guard let slot = slots[fd] else { return }
    entries[slot].events = events
  }

  /// Stops watching `fd` (the last entry takes its place).
  mutating func remove(_ fd: Int32) {
    guard let slot = slots.removeValue(forKey: fd) else { return }
    let last = entries.count - 1
    if slot != last {
      entries[slot] = entries[last]
      slots[entries[slot].fd] = slot
    }
    entries.removeLast()
  }

  /// Waits up to `timeout` milliseconds (-1: forever) and returns the descriptors poll reported, with what it
  /// reported for each (POLLIN, POLLOUT, POLLHUP, POLLERR, POLLNVAL). An interrupted wait reports nothing.
  mutating func wait(timeout: Int32) -> [(fd: Int32, revents: Int16)] {
    let ready = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
    guard ready > 0 else { return [] }
    var result: [(fd: Int32, revents: Int16)] = []
    result.reserveCapacity(Int(ready))
    for entry in entries where entry.revents != 0 { result.append((entry.fd, entry.revents)) }
    return result
  }
}
