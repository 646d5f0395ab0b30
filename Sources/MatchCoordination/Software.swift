/// This program as it names itself to peers (in its hello) and to players (`--version`).
public enum Software {
  public static let version = "tictactoe 0.2.0"
}
