import COpenSSL

extension Identity {
  /// A new identity: a fresh P-256 key and a self-signed X.509 v3 certificate for
  /// `commonName`, valid for `validDays` from now.
  ///
  /// The certificate has a random 128-bit serial, subject CN=`commonName`, a DNS
  /// subjectAltName when the name looks like a host name, basicConstraints CA:FALSE,
  /// keyUsage digitalSignature, extendedKeyUsage serverAuth+clientAuth, and a SHA-256 signature.
  public static func generate(commonName: String, validDays: Int = 3650) throws(SecurityError) -> Identity {
    try generate(commonName: commonName, validDays: validDays, notBefore: nil, issuer: nil)
  }

  /// A new identity whose certificate starts at `notBefore` (seconds since 1970; nil = now)
  /// and is signed by `issuer` (nil = self-signed). Used to build certificate-authority setups
  /// and, in tests, expired or not-yet-valid certificates.
  public static func generate(
    commonName: String, validDays: Int, notBefore: Int64?, issuer: Identity?
  ) throws(SecurityError) -> Identity {
    let key = try PrivateKey.generateP256()
    let certificate = try CertificateBuilder.build(
      commonName: commonName, key: key, validDays: validDays, notBefore: notBefore,
      issuer: issuer, isAuthority: false)
    return try Identity(key: key, certificate: certificate, chain: [])
  }

  /// A new certificate authority: a P-256 key and a self-signed certificate with
  /// basicConstraints CA:TRUE and keyUsage keyCertSign+cRLSign. Give it as `issuer` to
  /// `generate(commonName:validDays:notBefore:issuer:)` to sign players' certificates.
  public static func generateAuthority(commonName: String, validDays: Int = 3650) throws(SecurityError) -> Identity {
    let key = try PrivateKey.generateP256()
    let certificate = try CertificateBuilder.build(
      commonName: commonName, key: key, validDays: validDays, notBefore: nil,
      issuer: nil, isAuthority: true)
    return try Identity(key: key, certificate: certificate, chain: [])
  }
}
