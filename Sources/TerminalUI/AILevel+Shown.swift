import GameCore

extension AILevel {
  /// The level as shown for a game on `rules`: "perfect" is exact only up to 16 cells and on 5×5 with 4 in a
  /// row; beyond, its moves come from a search and it says so ("perfect, searching").
  public func shown(on rules: Rules) -> String {
    self == .perfect && !AILevel.playsExactly(rules) ? "perfect, searching" : rawValue
  }
}
