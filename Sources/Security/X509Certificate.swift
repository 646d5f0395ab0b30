import COpenSSL
import Glibc
import PeerTrust

/// An OpenSSL `X509` certificate owned by Swift, with the few readers this program needs.
final class X509Certificate {
  let pointer: OpaquePointer

  /// Takes ownership of one reference to `pointer`.
  init(owning pointer: OpaquePointer) {
    self.pointer = pointer
  }

  /// Takes a new reference to a certificate owned elsewhere (for example by a verify context).
  init?(retaining pointer: OpaquePointer) {
    guard X509_up_ref(pointer) == 1 else { return nil }
    self.pointer = pointer
  }

  deinit {
    X509_free(pointer)
  }

  /// Parses DER bytes.
  convenience init(der: [UInt8]) throws(SecurityError) {
    let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
      var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
      return d2i_X509(nil, &cursor, buffer.count)
    }
    guard let parsed else {
      throw SecurityError.invalidPEM(what: "certificate", reason: "not a DER certificate")
    }
    self.init(owning: parsed)
  }

  /// Every certificate in a PEM text, in order. Throws if there is none or one is damaged.
  static func parseAll(pem: String, what: String) throws(SecurityError) -> [X509Certificate] {
    let bio = try MemoryBIO(text: pem)
    var certificates: [X509Certificate] = []
    OpenSSLErrorQueue.clear()
    while let certificate = PEM_read_bio_X509(bio.pointer, nil, nil, nil) {
      certificates.append(X509Certificate(owning: certificate))
    }
    let errors = OpenSSLErrorQueue.drainEntries()
    // Reaching the end of the text shows up as "no start line"; anything else is damage.
    let damage = errors.filter { !($0.library == ERR_LIB_PEM && $0.reason == PEM_R_NO_START_LINE) }
    if !damage.isEmpty {
      throw SecurityError.invalidPEM(what: what, reason: damage.map(\.text).joined(separator: "; "))
    }
    if certificates.isEmpty {
      throw SecurityError.invalidPEM(what: what, reason: "no BEGIN CERTIFICATE block found")
    }
    return certificates
  }

  /// The DER encoding.
  var der: [UInt8] {
    let length = i2d_X509(pointer, nil)
    guard length > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(length))
    bytes.withUnsafeMutableBufferPointer { buffer in
      var cursor = buffer.baseAddress
      _ = i2d_X509(pointer, &cursor)
    }
    return bytes
  }

  /// The PEM encoding (one BEGIN CERTIFICATE block).
  func pem() throws(SecurityError) -> String {
    let bio = try MemoryBIO()
    guard PEM_write_bio_X509(bio.pointer, pointer) == 1 else {
      throw OpenSSLErrorQueue.error("encode a certificate as PEM")
    }
    return bio.readString()
  }

  /// The DER SubjectPublicKeyInfo: the public key, with its algorithm.
  var publicKeyInfo: [UInt8]? {
    guard let publicKey = X509_get_X509_PUBKEY(pointer) else { return nil }
    let length = i2d_X509_PUBKEY(publicKey, nil)
    guard length > 0 else { return nil }
    var info = [UInt8](repeating: 0, count: Int(length))
    info.withUnsafeMutableBufferPointer { buffer in
      var cursor = buffer.baseAddress
      _ = i2d_X509_PUBKEY(publicKey, &cursor)
    }
    return info
  }

  /// SHA-256 of the DER SubjectPublicKeyInfo.
  var fingerprint: Fingerprint? {
    guard let info = publicKeyInfo else { return nil }
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var digestLength: UInt32 = 0
    let ok = info.withUnsafeBytes { input in
      EVP_Digest(input.baseAddress, input.count, &digest, &digestLength, EVP_sha256(), nil)
    }
    guard ok == 1 else { return nil }
    return Fingerprint(bytes: Array(digest[0..<Int(digestLength)]))
  }

  /// The subject's common name, or "" when there is none.
  var commonName: String {
    X509Certificate.commonName(of: X509_get_subject_name(pointer)) ?? ""
  }

  /// The issuer's common name, or "" when there is none.
  var issuerCommonName: String {
    X509Certificate.commonName(of: X509_get_issuer_name(pointer)) ?? ""
  }

  /// The DNS names of the subjectAltName extension.
  var dnsNames: [String] {
    guard let raw = X509_get_ext_d2i(pointer, NID_subject_alt_name, nil, nil) else { return [] }
    let names = OpenSSLObject(OpaquePointer(raw)) { GENERAL_NAMES_free($0) }
    var result: [String] = []
    for index in 0..<tictactoe_sk_GENERAL_NAME_num(names.pointer) {
      guard let dns = tictactoe_GENERAL_NAMES_dns(names.pointer, index),
        let data = ASN1_STRING_get0_data(dns)
      else { continue }
      let bytes = UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(dns)))
      result.append(String(decoding: bytes, as: UTF8.self))
    }
    return result
  }

  /// The IP addresses in the subjectAltName extension, as inet_ntop writes them ("127.0.0.1", "::1").
  var ipAddresses: [String] {
    guard let raw = X509_get_ext_d2i(pointer, NID_subject_alt_name, nil, nil) else { return [] }
    let names = OpenSSLObject(OpaquePointer(raw)) { GENERAL_NAMES_free($0) }
    var result: [String] = []
    for index in 0..<tictactoe_sk_GENERAL_NAME_num(names.pointer) {
      guard let ip = tictactoe_GENERAL_NAMES_ip(names.pointer, index), let data = ASN1_STRING_get0_data(ip) else {
        continue
      }
      let bytes = Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(ip))))
      let family = bytes.count == 4 ? AF_INET : bytes.count == 16 ? AF_INET6 : -1
      guard family != -1 else { continue }
      var text = [CChar](repeating: 0, count: 64)
      guard inet_ntop(family, bytes, &text, 64) != nil else { continue }
      result.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return result
  }

  /// The DNS names and IP addresses of the subjectAltName extension, for messages.
  var subjectAltNames: [String] { dnsNames + ipAddresses }

  /// Whether the certificate has a subjectAltName extension (then its common name is never taken as a name).
  var hasSubjectAltName: Bool {
    X509_get_ext_by_NID(pointer, NID_subject_alt_name, -1) >= 0
  }

  /// Whether it says it is a certificate authority (basicConstraints CA:TRUE).
  var isAuthority: Bool {
    tictactoe_X509_is_authority(pointer) != 0
  }

  /// Start of validity, seconds since 1970.
  var notBefore: Int64 {
    UTCCalendar.seconds(of: X509_get0_notBefore(pointer)) ?? Int64.max
  }

  /// End of validity, seconds since 1970.
  var notAfter: Int64 {
    UTCCalendar.seconds(of: X509_get0_notAfter(pointer)) ?? Int64.min
  }

  /// Whether the certificate is signed by its own key.
  var isSelfSigned: Bool {
    X509_self_signed(pointer, 1) == 1
  }

  private static func commonName(of name: OpaquePointer?) -> String? {
    guard let name else { return nil }
    let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
    guard index >= 0, let entry = X509_NAME_get_entry(name, index),
      let data = X509_NAME_ENTRY_get_data(entry)
    else { return nil }
    var utf8: UnsafeMutablePointer<UInt8>?
    let length = ASN1_STRING_to_UTF8(&utf8, data)
    guard length >= 0, let utf8 else { return nil }
    defer { tictactoe_OPENSSL_free(utf8) }
    return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
  }
}
