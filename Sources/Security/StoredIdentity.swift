extension Identity {
  /// An identity read back from the texts of its two files (the certificate, with any chain after it, and the
  /// key), each failure naming the file at fault: `certificatePath` and `keyPath` are only for the messages.
  public static func stored(
    certificatePEM: String, keyPEM: String, certificatePath: String, keyPath: String
  ) throws(SecurityError) -> Identity {
    let key: PrivateKey
    do {
      key = try PrivateKey.parse(pem: keyPEM)
    } catch {
      throw SecurityError.corruptFile(path: keyPath, reason: error.description)
    }
    let certificates: [X509Certificate]
    do {
      certificates = try X509Certificate.parseAll(pem: certificatePEM, what: "certificate")
    } catch {
      throw SecurityError.corruptFile(path: certificatePath, reason: error.description)
    }
    do {
      return try Identity(key: key, certificate: certificates[0], chain: Array(certificates.dropFirst()))
    } catch .keyDoesNotMatchCertificate {
      throw SecurityError.corruptFile(
        path: keyPath, reason: "this key does not belong to the certificate in \(certificatePath)")
    }
  }
}
