/// The turns and mirrors that map a board onto itself (8 on a square board, 4 on another), applied to cell
/// masks of up to 64 cells through tables of 8 cells at a time.
struct BoardSymmetry: Sendable {
  let cellCount: Int
  /// For each symmetry, where each cell goes. The first is the identity.
  let images: [[Int]]
  /// For each symmetry and each byte of a mask, that byte's cells moved: `[symmetry][chunk][byte]` flattened.
  private let chunks: [UInt64]
  private let chunkCount: Int

  init(rows: Int, columns: Int) {
    cellCount = rows * columns
    var maps: [(Int, Int) -> (Int, Int)] = [
      { ($0, $1) }, { (rows - 1 - $0, $1) }, { ($0, columns - 1 - $1) },
      { (rows - 1 - $0, columns - 1 - $1) },
    ]
    if rows == columns {
      maps += [
        { ($1, $0) }, { (columns - 1 - $1, $0) }, { ($1, rows - 1 - $0) },
        { (columns - 1 - $1, rows - 1 - $0) },
      ]
    }
    let count = rows * columns
    images = maps.map { map in
      (0..<count).map { cell in
        let (row, column) = map(cell / columns, cell % columns)
        return row * columns + column
      }
    }
    chunkCount = (count + 7) / 8
    var chunks = [UInt64](repeating: 0, count: images.count * chunkCount * 256)
    for (symmetry, image) in images.enumerated() {
      for chunk in 0..<chunkCount {
        for byte in 0..<256 {
          var moved: UInt64 = 0
          for bit in 0..<8 where byte & (1 << bit) != 0 && chunk * 8 + bit < count {
            moved |= 1 << UInt64(image[chunk * 8 + bit])
          }
          chunks[(symmetry * chunkCount + chunk) * 256 + byte] = moved
        }
      }
    }
    self.chunks = chunks
  }

  /// `mask`'s cells moved by symmetry `symmetry`.
  @inline(__always) func apply(_ symmetry: Int, to mask: UInt64) -> UInt64 {
    var moved: UInt64 = 0
    var rest = mask
    var base = symmetry * chunkCount * 256
    while rest != 0 {
      moved |= chunks[base + Int(rest & 0xFF)]
      rest >>= 8
      base += 256
    }
    return moved
  }

  /// The least image of the pair (first mask first) over every symmetry, and the symmetry that gives it.
  func canonical(_ first: UInt64, _ second: UInt64) -> (first: UInt64, second: UInt64, symmetry: Int) {
    var best = (first, second, 0)
    for symmetry in 1..<images.count {
      let a = apply(symmetry, to: first)
      if a > best.0 { continue }
      let b = apply(symmetry, to: second)
      if a < best.0 || b < best.1 { best = (a, b, symmetry) }
    }
    return best
  }

  /// The cell that symmetry `symmetry` moves onto `cell` (its inverse).
  func preimage(of cell: Int, under symmetry: Int) -> Int {
    images[symmetry].firstIndex(of: cell) ?? cell
  }
}
