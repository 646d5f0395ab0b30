/// Which end of the connection this side is: the joining player connects (client), the
/// hosting player accepts (server). Both present certificates.
public enum TLSRole: Sendable, Equatable {
  case client
  case server
}
