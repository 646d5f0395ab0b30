/// The DNS-SD service type tictactoe hosts advertise.
public enum ServiceType {
  /// `_tictactoe._tcp`: a TLS game server on TCP.
  public static let tictactoe = "_tictactoe._tcp"
  /// The longest service instance name DNS-SD allows, in UTF-8 bytes.
  public static let maximumNameLength = 63
}
