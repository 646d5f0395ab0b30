import Testing

@testable import App

/// The host's door while its pending connections are at their cap: a flood of silent connections is held and
/// closed there, bounded, and whoever speaks goes in first.
@Suite struct DoorstepTests {
  @Test func silentConnectionsAreClosedAfterTheirSecondAndSpeakersWaitLonger() {
    var door = Doorstep<Int>(cap: 10, perAddress: 10, silence: 1, patience: 5)
    #expect(door.arrived(1, from: "a", now: 0).isEmpty)
    #expect(door.arrived(2, from: "b", now: 0.5).isEmpty)
    door.spoke(2)
    #expect(door.silent == [1])
    #expect(door.nextDeadline == 1)
    #expect(door.expire(now: 0.99).isEmpty)
    #expect(door.expire(now: 1) == [1], "silent for its second")
    #expect(door.nextDeadline == 5.5)
    #expect(door.expire(now: 5.4).isEmpty, "one that spoke waits for a place")
    #expect(door.expire(now: 5.5) == [2])
    #expect(door.count == 0 && door.nextDeadline == nil)
  }

  @Test func theOldestThatSpokeGoesInFirst() {
    var door = Doorstep<Int>()
    for key in 1...4 { _ = door.arrived(key, from: "a", now: Double(key)) }
    door.spoke(3)
    door.spoke(2)
    #expect(door.anyoneSpoke)
    let first = door.nextIn()
    let second = door.nextIn()
    let third = door.nextIn()
    #expect(first?.key == 2 && second?.key == 3 && third == nil && !door.anyoneSpoke)
    #expect(door.silent == [1, 4])
  }

  /// Full: the oldest silent connection makes room, so one that spoke is kept (a real joiner is not pushed out by
  /// a flood arriving behind it); with none silent, the oldest.
  @Test func aFullDoorClosesItsOldestSilentConnectionFirst() {
    var door = Doorstep<Int>(cap: 3, perAddress: 10)
    _ = door.arrived(1, from: "joiner", now: 0)
    door.spoke(1)
    _ = door.arrived(2, from: "flood", now: 0.1)
    _ = door.arrived(3, from: "flood", now: 0.2)
    #expect(door.arrived(4, from: "flood", now: 0.3) == [2])
    #expect(door.arrived(5, from: "flood", now: 0.4) == [3])
    #expect(door.waiting.map(\.key) == [1, 4, 5])
    door.spoke(4)
    door.spoke(5)
    #expect(door.arrived(6, from: "flood", now: 0.5) == [1], "none silent: the oldest")
    #expect(door.count == 3)
  }

  @Test func oneAddressHoldsAtMostItsShare() {
    var door = Doorstep<Int>(cap: 100, perAddress: 2)
    _ = door.arrived(1, from: "flood", now: 0)
    _ = door.arrived(2, from: "flood", now: 0)
    _ = door.arrived(3, from: "joiner", now: 0)
    #expect(door.arrived(4, from: "flood", now: 0) == [1])
    #expect(door.waiting.map(\.key) == [2, 3, 4])
  }
}
