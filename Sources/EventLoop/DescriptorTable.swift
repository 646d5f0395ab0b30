/// Values kept by descriptor number, in an array indexed by the number: the kernel hands out the lowest free
/// number, so the numbers in use stay dense, and the loop finds a ready descriptor's handler without hashing it
/// (a busy practice bot looks one up for every move).
struct DescriptorTable<Value> {
  private var slots: [Value?] = []
  /// How many numbers hold a value.
  private(set) var count = 0

  /// The value kept for `fd`; nil for a number never given one, removed, or negative. Setting nil removes it.
  subscript(fd: Int32) -> Value? {
    get { fd >= 0 && Int(fd) < slots.count ? slots[Int(fd)] : nil }
    set {
      guard fd >= 0 else { return }
      let index = Int(fd)
      if index >= slots.count {
        guard newValue != nil else { return }
        slots.append(contentsOf: repeatElement(nil, count: index + 1 - slots.count))
      }
      switch (slots[index] != nil, newValue != nil) {
      case (false, true): count += 1
      case (true, false): count -= 1
      default: break
      }
      slots[index] = newValue
    }
  }
}
