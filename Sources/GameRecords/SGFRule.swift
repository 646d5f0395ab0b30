import GameCore

/// The rule of a game of five in a row in SGF's RU property, as the `renju` package (PyPI) writes and reads it:
/// `Freestyle`, `Standard` (Gomocup's name for exact five) and `Renju`. A record without RU is freestyle, as
/// every record was before the rule could be chosen; a freestyle game is written without one.
public enum SGFRule {
  /// RU's value for `variant`.
  public static func text(_ variant: RuleVariant) -> String {
    switch variant {
    case .freestyle: "Freestyle"
    case .exactFive: "Standard"
    case .renju: "Renju"
    }
  }

  /// The variant RU names, in any case (`exact5`, the command line's name, too), or nil for a rule this program
  /// does not play.
  public static func variant(_ text: String) -> RuleVariant? {
    switch text.trimmed.lowercased() {
    case "freestyle": .freestyle
    case "standard", "exact5": .exactFive
    case "renju": .renju
    default: nil
    }
  }
}
