import Security

/// Full TLS 1.3 handshakes with client certificates, in memory: the project's pair against the baseline,
/// alternating so both see the same machine state.
enum HandshakeBenchmark {
  struct Result {
    var project = Samples()
    var baseline = Samples()
  }

  static func run(iterations: Int, warmUp: Int, contexts: ProjectTLSPair.Contexts, baseline: BaselineContexts)
    throws -> Result
  {
    var result = Result()
    for index in 0..<(warmUp + iterations) {
      // Alternate which goes first, so neither always runs on a warmer cache.
      var project = 0.0
      var plain = 0.0
      if index.isMultiple(of: 2) {
        project = try timeProject(contexts)
        plain = try timeBaseline(baseline)
      } else {
        plain = try timeBaseline(baseline)
        project = try timeProject(contexts)
      }
      if index >= warmUp {
        result.project.append(project)
        result.baseline.append(plain)
      }
    }
    return result
  }

  private static func timeProject(_ contexts: ProjectTLSPair.Contexts) throws -> Double {
    try Clock.measure {
      let pair = try ProjectTLSPair(contexts)
      try pair.handshake()
    }
  }

  private static func timeBaseline(_ baseline: BaselineContexts) throws -> Double {
    try Clock.measure {
      let pair = try BaselineTLSPair(client: baseline.client, server: baseline.server)
      try pair.handshake()
    }
  }
}

/// The baseline's client and server contexts, loaded with the same keys and pins as the project's.
struct BaselineContexts {
  let client: BaselineContext
  let server: BaselineContext

  init(_ contexts: ProjectTLSPair.Contexts) throws {
    client = try BaselineContext(
      server: false, certificatePEM: contexts.clientIdentity.certificatePEM,
      privateKeyPEM: contexts.clientIdentity.privateKeyPEM, pinnedSPKISHA256: contexts.serverIdentity.fingerprint.bytes)
    server = try BaselineContext(
      server: true, certificatePEM: contexts.serverIdentity.certificatePEM,
      privateKeyPEM: contexts.serverIdentity.privateKeyPEM, pinnedSPKISHA256: contexts.clientIdentity.fingerprint.bytes)
  }
}
