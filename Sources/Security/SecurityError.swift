import ExplainedErrors

/// Why an identity, key or file operation failed, in words a player can act on.
///
/// Every case names the file or the object involved and the reason, so that no failure is silent.
public enum SecurityError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// OpenSSL refused an operation; `reasons` is the drained OpenSSL error queue.
  case openSSL(operation: String, reasons: [String])
  /// A file could not be read (missing, permissions, I/O).
  case unreadableFile(path: String, reason: String)
  /// A file could not be written or its directory could not be prepared.
  case unwritableFile(path: String, reason: String)
  /// A file exists but its contents are not what they should be. It is left untouched.
  case corruptFile(path: String, reason: String)
  /// Only one of the two identity files exists.
  case incompleteIdentity(present: String, missing: String)
  /// Text that should be PEM (a certificate or key) could not be understood.
  case invalidPEM(what: String, reason: String)
  /// The private key is protected by a passphrase, which this program does not ask for.
  case encryptedPrivateKey
  /// The private key does not belong to the certificate.
  case keyDoesNotMatchCertificate
  /// The PKCS#12 password is wrong: typed at the terminal, or read from `passwordFile`.
  case wrongPassword(passwordFile: String?)
  /// The PKCS#12 file is protected by a password and none was given.
  case passwordNeeded
  /// The PKCS#12 data is not a valid PKCS#12 file, or lacks a key or certificate.
  case invalidPKCS12(reason: String)
  /// The certificate authority certificates given for verification could not be loaded.
  case invalidTrustAnchors(reason: String)
  /// An argument was refused before anything was attempted.
  case invalidArgument(String)
  /// A private key (or the directory holding it) others could read or change, as OpenSSH refuses one.
  case exposedPrivateKey(path: String, reason: String, fix: String)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .openSSL: "security.openssl"
    case .unreadableFile: "security.unreadable-file"
    case .unwritableFile: "security.unwritable-file"
    case .corruptFile: "security.corrupt-file"
    case .incompleteIdentity: "security.incomplete-identity"
    case .invalidPEM: "security.invalid-pem"
    case .encryptedPrivateKey: "security.encrypted-private-key"
    case .keyDoesNotMatchCertificate: "security.key-does-not-match-certificate"
    case .wrongPassword: "security.wrong-password"
    case .passwordNeeded: "security.password-needed"
    case .invalidPKCS12: "security.invalid-pkcs12"
    case .invalidTrustAnchors: "security.invalid-trust-anchors"
    case .invalidArgument: "security.invalid-argument"
    case .exposedPrivateKey: "security.exposed-private-key"
    }
  }

  /// What happened, naming the file or object.
  public var reason: String {
    switch self {
    case .openSSL(let operation, let reasons):
      let detail = reasons.isEmpty ? "no further detail" : reasons.joined(separator: "; ")
      return "Could not \(operation) (OpenSSL: \(detail))."
    case .unreadableFile(let path, let reason): return "Could not read \(path): \(reason)."
    case .unwritableFile(let path, let reason): return "Could not write \(path): \(reason)."
    case .corruptFile(let path, let reason): return "\(path) is damaged (\(reason))."
    case .incompleteIdentity(let present, let missing): return "\(present) exists but \(missing) is missing."
    case .invalidPEM(let what, let reason): return "The \(what) is not valid PEM: \(reason)."
    case .encryptedPrivateKey: return "The private key is protected by a passphrase."
    case .keyDoesNotMatchCertificate: return "The private key does not belong to the certificate."
    case .wrongPassword: return "The password for the PKCS#12 file is wrong."
    case .passwordNeeded: return "The PKCS#12 file is protected by a password, and none was given."
    case .invalidPKCS12(let reason): return "This is not a usable PKCS#12 file: \(reason)."
    case .invalidTrustAnchors(let reason): return "Could not load the certificate authority certificates: \(reason)."
    case .invalidArgument(let reason): return reason
    case .exposedPrivateKey(let path, let reason, _):
      return "\(path) \(reason), so someone else could take your identity. It was not used:"
    }
  }

  /// What the player can do about it.
  public var hint: String? {
    switch self {
    case .openSSL: return "Try again; if it keeps failing, report it with the log."
    case .unreadableFile: return "Check that the file exists and that you may read it."
    case .unwritableFile: return "Check that the directory exists and is yours."
    case .corruptFile: return "It was left untouched: move it away to start over, or restore it from a backup."
    case .incompleteIdentity(let present, let missing):
      return "Restore \(missing), or move \(present) away to create a new identity (other players will then see a"
        + " new key)."
    case .invalidPEM: return "Give the PEM file itself (the text from -----BEGIN to -----END)."
    case .encryptedPrivateKey:
      return "Export it without a passphrase, or import it as a PKCS#12 file with its password."
    case .keyDoesNotMatchCertificate: return "Use the key that was created together with this certificate."
    case .wrongPassword(let file?):
      return "Check the file given with --password-file (\(file)): it holds the password alone."
    case .wrongPassword(nil): return "Type the password it was exported with."
    case .passwordNeeded:
      return "Give it with --password-file F (a file holding the password alone), or run `tictactoe identity "
        + "import FILE.p12` at a terminal to be asked for it."
    case .invalidPKCS12: return "Export the identity again as a PKCS#12 file holding its key and certificate."
    case .invalidTrustAnchors: return "Give --ca a PEM file of certificate authority certificates, or system."
    case .invalidArgument: return nil
    case .exposedPrivateKey(_, _, let fix):
      return "run `\(fix)`, or make a new identity if others may have copied it."
    }
  }

  public var description: String { hint.map { "\(reason) \($0)" } ?? reason }
}
