import NetworkShell
import PeerTrust
import PlayerFiles
import Security

/// The network options as the command line gives them: read from `host`'s and `join`'s flags, and checked
/// together.
extension NetworkOptions {
  /// The options of `host` and `join` as given (checked one by one; `validate()` checks them together).
  init(_ arguments: CommandArguments) throws(UsageError) {
    self.init()
    acceptNew = arguments.has("--accept-new")
    for text in arguments.values("--pin") { pins.append(try Self.pin(text)) }
    caFile = arguments.value("--ca")
    peerName = arguments.value("--peer-name")
    allowExpired = arguments.has("--allow-expired")
    verifyName = !arguments.has("--no-verify-name")
    insecure = arguments.has("--insecure")
    if arguments.has("--map-port") && arguments.has("--no-map-port") {
      throw UsageError(message: "--map-port and --no-map-port cannot be combined")
    }
    mapPort = arguments.has("--map-port") ? true : arguments.has("--no-map-port") ? false : nil
    certificateFile = arguments.value("--cert")
    keyFile = arguments.value("--key")
    pkcs12File = arguments.value("--identity")
    passwordFile = arguments.value("--password-file")
    name = try arguments.playerName()
    gracePeriod = try arguments.seconds("--grace", in: 5...3600) ?? gracePeriod
  }

  /// `--pin`: a fingerprint, or the key of a certificate file.
  private static func pin(_ text: String) throws(UsageError) -> PinnedKey {
    if let fingerprint = Fingerprint(parsing: text) { return PinnedKey(fingerprint) }
    guard let bytes = FileSystem.contents(text) else {
      throw UsageError(
        message: "--pin needs a fingerprint like SHA256:… or a certificate file (PEM or DER), not \"\(text)\"")
    }
    do {
      return try PinnedKey.fromCertificate(bytes, file: text)
    } catch {
      throw UsageError(message: "--pin \(text): \(error)")
    }
  }

  /// Checks that the flags make sense together.
  public func validate() throws(UsageError) {
    let modes = [!pins.isEmpty, caFile != nil, insecure].filter { $0 }.count
    if modes > 1 { throw UsageError(message: "choose one of --pin, --ca and --insecure") }
    if (certificateFile == nil) != (keyFile == nil) { throw UsageError(message: "--cert and --key go together") }
    if pkcs12File != nil && certificateFile != nil {
      throw UsageError(message: "--identity and --cert/--key cannot be combined")
    }
    if passwordFile != nil && pkcs12File == nil { throw UsageError(message: "--password-file belongs to --identity") }
    if caFile == nil && peerName != nil { throw UsageError(message: "--peer-name belongs to --ca") }
    if caFile == nil && !verifyName { throw UsageError(message: "--no-verify-name belongs to --ca") }
  }
}
