import Testing

@testable import EventLoop

/// The loop's table of handlers by descriptor number: an array indexed by the number, which must read like the
/// dictionary it replaced (nil for a number never set, removed or negative) and count what it holds.
@Suite struct DescriptorTableTests {
  @Test func keepsValuesByNumberAndCountsThem() {
    var table = DescriptorTable<String>()
    #expect(table[3] == nil && table.count == 0)
    table[7] = "seven"
    table[3] = "three"
    #expect(table[7] == "seven" && table[3] == "three" && table[5] == nil && table[8] == nil && table.count == 2)
    table[7] = "again"
    #expect(table[7] == "again" && table.count == 2, "replacing is not adding")
    table[7] = nil
    #expect(table[7] == nil && table[3] == "three" && table.count == 1)
    table[7] = nil
    table[1_000] = nil
    #expect(table.count == 1, "removing what is not there changes nothing")
    table[0] = "zero"
    #expect(table[0] == "zero" && table.count == 2)
  }

  @Test func negativeNumbersHoldNothing() {
    var table = DescriptorTable<Int>()
    table[-1] = 1
    #expect(table[-1] == nil && table.count == 0)
  }

  @Test func aNumberReusedAfterRemovalStartsAfresh() {
    var table = DescriptorTable<Int>()
    for fd in Int32(0)..<64 { table[fd] = Int(fd) }
    for fd in Int32(0)..<64 where fd % 2 == 0 { table[fd] = nil }
    #expect(table.count == 32 && table[2] == nil && table[3] == 3)
    table[2] = 200
    #expect(table.count == 33 && table[2] == 200)
  }
}
