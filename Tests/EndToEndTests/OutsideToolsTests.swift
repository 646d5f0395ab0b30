import Foundation
import Glibc
import TestSupport
import Testing

/// Tools from outside the project against a real host on 127.0.0.1: the openssl command-line client, raw TCP
/// clients and the sslyze scanner. Each test starts its own host (port 0, private XDG directories), checks what a
/// stranger's client sees, then proves the host still serves by playing a whole game with a real joiner, and stops
/// the host by its PID. sslyze is $SSLYZE when set, otherwise what scripts/setup-sslyze.sh installs.
@Suite(.serialized) struct OutsideToolsTests {
  // MARK: openssl s_client

  @Test func opensslSeesTLS13TheGameProtocolAndTheHostsOwnKey() throws {
    let home = try Sandbox()
    let hostKey = try home.identity()
    let client = try Sandbox()
    _ = try client.identity()
    let host = try Host(home, options: ["--accept-new"])
    defer { host.stop() }
    #expect(host.announcedKey == hostKey, "the host announced another key than `tictactoe identity` shows")

    let session = try openSSLClient(
      host, ["-tls1_3", "-alpn", "tictactoe/1", "-cert", client.certificate, "-key", client.key], from: client)
    let transcript = session.transcript
    #expect(transcript.contains("New, TLSv1.3, Cipher is TLS_"), "no TLS 1.3 session:\n\(transcript)")
    #expect(transcript.contains("ALPN protocol: tictactoe/1"), "ALPN not agreed:\n\(transcript)")
    let pem = try #require(firstCertificate(in: transcript), "s_client showed no server certificate:\n\(transcript)")
    let file = client.root + "/server.crt"
    try pem.write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try fingerprint(ofCertificate: file, in: client) == hostKey, "the host presented another key")
    try expectStillServing(host)
  }

  @Test func aTLS12OnlyClientIsRefusedAndTheHostKeepsServing() throws {
    let host = try Host(try Sandbox(), options: ["--accept-new"])
    defer { host.stop() }
    let client = try Sandbox()
    _ = try client.identity()
    let session = try openSSLClient(
      host, ["-tls1_2", "-alpn", "tictactoe/1", "-cert", client.certificate, "-key", client.key], from: client)
    let transcript = session.transcript
    #expect(session.exitCode != 0, "s_client -tls1_2 succeeded:\n\(transcript)")
    #expect(transcript.contains("Cipher is (NONE)"), "a cipher was negotiated over TLS 1.2:\n\(transcript)")
    #expect(transcript.contains("alert protocol version"), "no protocol_version alert:\n\(transcript)")
    try expectStillServing(host)
  }

  @Test func garbageAndHTTPAreClosedWithoutAReplyAndTheHostKeepsServing() throws {
    let host = try Host(try Sandbox(), options: ["--accept-new"])
    defer { host.stop() }
    let probes: [(String, [UInt8])] = [
      (
        "garbage",
        [0x01, 0x02, 0xFF, 0xFE, 0x00] + Array("not TLS at all\n\n\n".utf8) + Array(repeating: 0x41, count: 300)
      ),
      ("an HTTP request", Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
    ]
    for (what, bytes) in probes {
      let exchange = rawExchange(port: host.port, sending: bytes, timeout: 10)
      #expect(exchange.failure == nil, "\(what): \(exchange.failure ?? "")")
      #expect(exchange.closed, "\(what): the host kept the connection open for 10 s\n\(host.context)")
      let text = String(decoding: exchange.reply, as: UTF8.self)
      #expect(!text.contains("HTTP/"), "\(what): the host answered like a web server: \(text)")
      // Nothing at all, or at most a TLS alert record (content type 21).
      #expect(exchange.reply.isEmpty || exchange.reply.first == 0x15, "\(what): unexpected reply \(exchange.reply)")
    }
    try expectStillServing(host)
  }

  @Test func aClientOfferingOnlyHTTP11IsRefused() throws {
    let host = try Host(try Sandbox(), options: ["--accept-new"])
    defer { host.stop() }
    let client = try Sandbox()
    _ = try client.identity()
    let session = try openSSLClient(
      host, ["-tls1_3", "-alpn", "http/1.1", "-cert", client.certificate, "-key", client.key], from: client)
    let transcript = session.transcript
    #expect(session.exitCode != 0, "s_client with ALPN http/1.1 succeeded:\n\(transcript)")
    #expect(transcript.contains("alert no application protocol"), "no no_application_protocol alert:\n\(transcript)")
    #expect(transcript.contains("Cipher is (NONE)"), "a session was set up:\n\(transcript)")
    try expectStillServing(host)
  }

  @Test func aClientOfferingNoALPNIsRefused() throws {
    let host = try Host(try Sandbox(), options: ["--accept-new"])
    defer { host.stop() }
    let client = try Sandbox()
    _ = try client.identity()
    // -ign_eof keeps the connection open after the handshake, so whatever the host does next is seen: a refusal
    // is an alert and a close; acceptance is the host's hello frame, which carries its version string.
    let session = try openSSLClient(
      host, ["-tls1_3", "-cert", client.certificate, "-key", client.key, "-ign_eof"], from: client, timeout: 20)
    let transcript = session.transcript
    let version = try versionString()
    #expect(
      !transcript.contains(version),
      "the host accepted a client that offered no ALPN and sent it its hello (\"\(version)\"):\n\(transcript)")
    // The handshake itself completes (so TLS scanners such as sslyze, which send no ALPN, can assess the
    // configuration); the host then refuses the connection before saying anything, and logs why.
    #expect(
      host.context.contains("is not a tictactoe peer (the protocols offered were: nothing)"),
      "the host did not log why it refused a client that offered no ALPN:\n\(transcript)\n\(host.context)")
    try expectStillServing(host)
  }

  // MARK: CA mode, as certs/README.md describes it

  @Test func aCAModeGameBetweenTwoPlainProcesses() throws {
    let certificates = try Sandbox()
    let dir = certificates.root + "/certs"
    try makeCertificates(in: dir, for: ["alice", "bob"], scratch: certificates)
    let host = try Host(
      try Sandbox(), options: ["--cert", dir + "/alice.crt", "--key", dir + "/alice.key", "--ca", dir + "/ca.crt"])
    defer { host.stop() }
    try expectStillServing(
      host,
      joinOptions: [
        "--identity", dir + "/bob.p12", "--password-file", dir + "/bob.p12.password", "--ca", dir + "/ca.crt",
        "--peer-name", "alice",
      ])
  }

  // MARK: sslyze

  @Test func sslyzeFindsACAModeHostCompliantWithMozillaModern() throws {
    let sslyze = try sslyzeExecutable()
    let certificates = try Sandbox()
    let dir = certificates.root + "/certs"
    // Mozilla's modern profile wants leaf certificates that live less than 90 days.
    try makeCertificates(in: dir, for: ["alice", "bob"], scratch: certificates, days: 89)
    let host = try Host(
      try Sandbox(), options: ["--cert", dir + "/alice.crt", "--key", dir + "/alice.key", "--ca", dir + "/ca.crt"])
    defer { host.stop() }
    // NAME:PORT{IP} makes sslyze connect to 127.0.0.1 while checking the certificate for the name "alice".
    let scan = try run(
      sslyze,
      [
        "--mozilla_config=modern", "--certinfo_ca_file", dir + "/ca.crt", "--cert", dir + "/bob.crt", "--key",
        dir + "/bob.key", "alice:\(host.port){127.0.0.1}",
      ],
      in: certificates, label: "sslyze", timeout: 180)
    let report = scan.output
    #expect(scanRan(report), "sslyze could not scan the host:\n\(scan.transcript)\n\(host.context)")
    #expect(scan.exitCode == 0, "sslyze: \(scan.exitDescription)\n\(complianceSection(report))")
    #expect(report.contains("alice:\(host.port): OK - Compliant."), "\(complianceSection(report))")
    #expect(failedChecks(report).isEmpty, "failed checks: \(failedChecks(report))")
    try expectStillServing(
      host,
      joinOptions: [
        "--cert", dir + "/bob.crt", "--key", dir + "/bob.key", "--ca", dir + "/ca.crt", "--peer-name", "alice",
      ])
  }

  /// A trust-on-first-use host presents its own self-signed ten-year certificate: Mozilla's profile, written for
  /// web servers, faults that certificate, but every check of the TLS configuration itself must pass.
  @Test func sslyzeFaultsOnlyTheSelfSignedCertificateOfADefaultHost() throws {
    let sslyze = try sslyzeExecutable()
    let host = try Host(try Sandbox(), options: ["--accept-new"])
    defer { host.stop() }
    let client = try Sandbox()
    _ = try client.identity()
    let scan = try run(
      sslyze,
      ["--mozilla_config=modern", "--cert", client.certificate, "--key", client.key, "127.0.0.1:\(host.port)"],
      in: client, label: "sslyze", timeout: 180)
    let report = scan.output
    #expect(scanRan(report), "sslyze could not scan the host:\n\(scan.transcript)\n\(host.context)")
    let certificateChecks: Set<String> = ["certificate_path_validation", "maximum_certificate_lifespan"]
    let failed = failedChecks(report)
    // The self-signed certificate is faulted (so the scan did judge it), and nothing else is.
    #expect(
      failed.contains("certificate_path_validation"), "sslyze did not fault the self-signed certificate:\n\(report)")
    #expect(
      Set(failed).isSubset(of: certificateChecks),
      "sslyze faults the TLS configuration, not only the certificate:\n\(complianceSection(report))")
    try expectStillServing(host)
  }

  // MARK: the host still serves

  /// Plays a whole game against `host` with a real `tictactoe join` (plain mode, moves fed on stdin as the
  /// prompts come), so a probe that broke the host shows here.
  private func expectStillServing(
    _ host: Host, joinOptions: [String] = ["--accept-new"], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    guard host.child.isRunning else {
      Issue.record("the host is gone after the probe: \(host.context)", sourceLocation: sourceLocation)
      return
    }
    let home = try Sandbox()
    let joiner = try Child(
      Binary.path, ["join", "127.0.0.1:\(host.port)", "--ui", "plain", "--name", "bob"] + joinOptions,
      environment: home.environment, in: home.root, label: "join", input: true)
    defer { joiner.stop() }
    let both = [host.child, joiner]
    let started = waitUntil(timeout: 20) {
      both.allSatisfy { $0.output.contains("game 1:") } || both.contains { !$0.isRunning }
    }
    guard started && both.allSatisfy({ $0.output.contains("game 1:") }) else {
      Issue.record(
        "no game started after the probe\n\(host.context)\n--- joiner: \(joiner.summary(logOf: home))",
        sourceLocation: sourceLocation)
      return
    }
    // Each prompt gets the next cell number; a taken cell is answered with "error:" and a new prompt.
    var nextCell = [1, 1]
    let finished = waitUntil(timeout: 30) {
      for (index, player) in both.enumerated() {
        let prompts = player.output.components(separatedBy: "your move (").count - 1
        while nextCell[index] <= prompts && nextCell[index] <= 9 {
          player.send("\(nextCell[index])\n")
          nextCell[index] += 1
        }
      }
      return both.allSatisfy { $0.output.contains("result: ") } || both.contains { !$0.isRunning }
    }
    #expect(
      finished && both.allSatisfy { $0.output.contains("result: ") },
      "the game did not finish\n\(host.context)\n--- joiner: \(joiner.summary(logOf: home))",
      sourceLocation: sourceLocation)
    joiner.closeInput()
    #expect(joiner.wait(timeout: 10), "the joiner did not quit at the end of its input", sourceLocation: sourceLocation)
    #expect(
      joiner.exitCode == 0, "joiner \(joiner.exitDescription): \(joiner.errors)", sourceLocation: sourceLocation)
  }
}

// MARK: - Helpers

/// Why a helper gave up, with what it saw.
private struct HelperFailure: Error, CustomStringConvertible {
  let description: String
}

/// The repository this file belongs to (for certs/ and scripts/).
private func repositoryRoot(_ file: String = #filePath) -> String {
  URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
}

/// A player's private XDG directories (Binary.sandbox), removed when no longer used.
private final class Sandbox {
  let root: String
  let environment: [String: String]

  init() throws {
    (root, environment) = try Binary.sandbox()
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  private var data: String { environment["XDG_DATA_HOME"] ?? root + "/data" }
  var certificate: String { data + "/tictactoe/identity/identity.crt" }
  var key: String { data + "/tictactoe/identity/identity.key" }
  var logPath: String { (environment["XDG_STATE_HOME"] ?? root + "/state") + "/tictactoe/tictactoe.log" }

  /// Runs `tictactoe identity` here (it makes the identity on first use) and returns its fingerprint line.
  func identity() throws -> String {
    let result = try run(Binary.path, ["identity"], in: self, label: "identity", timeout: 30)
    guard result.exitCode == 0, let first = result.output.split(separator: "\n").first, first.hasPrefix("SHA256:")
    else {
      throw HelperFailure(description: "tictactoe identity: \(result.exitDescription)\n\(result.transcript)")
    }
    return String(first)
  }

  func logTail(_ lines: Int = 15) -> String {
    let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(no log)"
    return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
  }
}

/// A program a test runs (TestSupport's ChildProcess): standard input from a socket the test writes to (or
/// /dev/null), standard output and error into files of the sandbox named after `label`, for failure messages.
private final class Child {
  let label: String
  private let process: ChildProcess
  private let outputPath: String
  private let errorPath: String

  init(
    _ executable: String, _ arguments: [String], environment: [String: String], in directory: String,
    label: String, input: Bool = false
  ) throws {
    self.label = label
    let stamp = UUID().uuidString.prefix(8)
    outputPath = "\(directory)/\(label)-\(stamp).out"
    errorPath = "\(directory)/\(label)-\(stamp).err"
    do {
      process = try ChildProcess(
        executable, arguments, environment: environment, input: input ? .writer : .null, output: .file(outputPath),
        errors: .file(errorPath))
    } catch {
      throw HelperFailure(description: "\(error)")
    }
  }

  var pid: pid_t { process.pid }
  var output: String { Self.read(outputPath) }
  var errors: String { Self.read(errorPath) }
  var transcript: String { output + (errors.isEmpty ? "" : "\n[stderr]\n" + errors) }

  private static func read(_ path: String) -> String {
    String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
  }

  /// Writes to the child's standard input; false if it is closed or the child stopped reading.
  @discardableResult
  func send(_ text: String) -> Bool { process.send(text) }

  func closeInput() { process.closeInput() }

  var isRunning: Bool { process.isRunning }

  /// Waits (bounded) for the child to end; true if it did.
  func wait(timeout: Double) -> Bool { process.wait(timeout: timeout) != nil }

  /// Ends the child: its input closed, then SIGTERM, then SIGKILL, each sent to this PID only.
  func stop() { process.stop() }

  /// The exit code, if the child exited by itself.
  var exitCode: Int32? { process.terminatingSignal == nil ? process.exitStatus : nil }

  var exitDescription: String {
    if isRunning { return "still running" }
    if let code = exitCode { return "exited with status \(code)" }
    let signal = process.terminatingSignal ?? 0
    let names: [Int32: String] = [SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV"]
    return "killed by signal \(signal)\(names[signal].map { " (\($0))" } ?? "")"
  }

  func summary(logOf sandbox: Sandbox) -> String {
    "\(label) (pid \(pid)) \(exitDescription)\n[stdout]\n\(output)\n[stderr]\n\(errors)\n[log]\n\(sandbox.logTail())"
  }
}

/// Runs a program to its end with a bound; one that overstays is killed and recorded.
private func run(
  _ executable: String, _ arguments: [String], in sandbox: Sandbox, label: String, timeout: Double,
  environment: [String: String] = [:]
) throws -> Child {
  let child = try Child(
    executable, arguments, environment: sandbox.environment.merging(environment) { $1 }, in: sandbox.root,
    label: label)
  if !child.wait(timeout: timeout) {
    child.stop()
    Issue.record("\(label) did not finish within \(timeout) s: \(executable) \(arguments)\n\(child.transcript)")
  }
  return child
}

/// `tictactoe host` on 127.0.0.1, an OS-chosen port, plain mode; its input is held open (and fed by the game).
private final class Host {
  let sandbox: Sandbox
  let child: Child
  let port: Int
  let announcedKey: String

  init(_ sandbox: Sandbox, options: [String]) throws {
    self.sandbox = sandbox
    child = try Child(
      Binary.path, ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--name", "alice"] + options,
      environment: sandbox.environment, in: sandbox.root, label: "host", input: true)
    let child = child
    _ = waitUntil(timeout: 20) { child.output.contains("Your key: ") || !child.isRunning }
    let lines = child.output.split(separator: "\n").map(String.init)
    guard let hosting = lines.first(where: { $0.hasPrefix("Hosting ") }),
      let portText = hosting.components(separatedBy: " on port ").last?.trimmingCharacters(in: ["."]),
      let port = Int(portText),
      let key = lines.first(where: { $0.hasPrefix("Your key: ") })?.dropFirst("Your key: ".count)
    else {
      child.stop()
      throw HelperFailure(
        description: "the host announced no port and key within 20 s: \(child.summary(logOf: sandbox))")
    }
    self.port = port
    announcedKey = String(key)
  }

  deinit { stop() }

  func stop() { child.stop() }

  /// What the host printed and logged, for failure messages.
  var context: String { "--- host: \(child.summary(logOf: sandbox))" }
}

/// `openssl s_client` against the host, standard input empty (it hangs up after the handshake unless -ign_eof).
private func openSSLClient(_ host: Host, _ options: [String], from sandbox: Sandbox, timeout: Double = 15) throws
  -> Child
{
  try run(
    "openssl", ["s_client", "-connect", "127.0.0.1:\(host.port)"] + options, in: sandbox, label: "s_client",
    timeout: timeout)
}

/// The first PEM certificate in s_client's output: the one the server presented.
private func firstCertificate(in text: String) -> String? {
  guard let begin = text.range(of: "-----BEGIN CERTIFICATE-----"),
    let end = text.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<text.endIndex)
  else { return nil }
  return String(text[begin.lowerBound..<end.upperBound]) + "\n"
}

/// SHA256:<unpadded base64 of SHA-256 over the DER SubjectPublicKeyInfo>, computed with the openssl CLI.
private func fingerprint(ofCertificate path: String, in sandbox: Sandbox) throws -> String {
  let pipeline =
    "openssl x509 -pubkey -noout -in '\(path)' | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64"
  let result = try run("/bin/sh", ["-c", pipeline], in: sandbox, label: "fingerprint", timeout: 30)
  guard result.exitCode == 0 else { throw HelperFailure(description: "fingerprint: \(result.transcript)") }
  return "SHA256:"
    + result.output.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "=", with: "")
}

/// What `tictactoe --version` prints (the host's hello carries it as its software string).
private func versionString() throws -> String {
  let sandbox = try Sandbox()
  let result = try run(Binary.path, ["--version"], in: sandbox, label: "version", timeout: 30)
  let version = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  guard result.exitCode == 0, !version.isEmpty else {
    throw HelperFailure(description: "--version: \(result.transcript)")
  }
  return version
}

/// Runs certs/make-certs.sh DIR NAMES... (and DAYS when given).
private func makeCertificates(in dir: String, for names: [String], scratch: Sandbox, days: Int? = nil) throws {
  let result = try run(
    "bash", [repositoryRoot() + "/certs/make-certs.sh", dir] + names, in: scratch, label: "make-certs", timeout: 60,
    environment: days.map { ["DAYS": "\($0)"] } ?? [:])
  guard result.exitCode == 0 else {
    throw HelperFailure(description: "make-certs.sh \(result.exitDescription):\n\(result.transcript)")
  }
}

/// sslyze: $SSLYZE when set, otherwise the one scripts/setup-sslyze.sh installs (quick once installed).
private func sslyzeExecutable() throws -> String {
  if let path = ProcessInfo.processInfo.environment["SSLYZE"], !path.isEmpty {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw HelperFailure(description: "SSLYZE=\(path) is not an executable")
    }
    return path
  }
  let sandbox = try Sandbox()
  // The real HOME, so the environment is cached between runs.
  let home = ProcessInfo.processInfo.environment["HOME"].map { ["HOME": $0] } ?? [:]
  let result = try run(
    "bash", [repositoryRoot() + "/scripts/setup-sslyze.sh"], in: sandbox, label: "setup-sslyze", timeout: 600,
    environment: home)
  let path = result.output.split(separator: "\n").last.map(String.init) ?? ""
  guard result.exitCode == 0, FileManager.default.isExecutableFile(atPath: path) else {
    throw HelperFailure(description: "scripts/setup-sslyze.sh \(result.exitDescription):\n\(result.transcript)")
  }
  return path
}

/// sslyze exits 0 even when it could not reach the server ("discarding scan"): look for a verdict.
private func scanRan(_ report: String) -> Bool {
  !report.contains("discarding scan") && !report.contains("Scan did not run successfully")
    && (report.contains("OK - Compliant.") || report.contains("FAILED - Not compliant."))
}

/// The part of sslyze's report after "COMPLIANCE AGAINST TLS CONFIGURATION".
private func complianceSection(_ report: String) -> String {
  guard let start = report.range(of: "COMPLIANCE AGAINST TLS CONFIGURATION") else { return report }
  return String(report[start.lowerBound...])
}

/// The names of the checks sslyze lists as failed ("* name: reason" lines of the compliance section).
private func failedChecks(_ report: String) -> [String] {
  complianceSection(report).split(separator: "\n").compactMap { line in
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("* "), let colon = trimmed.firstIndex(of: ":") else { return nil }
    return String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<colon])
  }
}

/// Connects to 127.0.0.1:`port` over plain TCP, sends `bytes`, and reads until the host closes or `timeout` passes.
private func rawExchange(port: Int, sending bytes: [UInt8], timeout: Double) -> (
  reply: [UInt8], closed: Bool, failure: String?
) {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return ([], false, "socket: \(String(cString: strerror(errno)))") }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
  }
  guard connected == 0 else { return ([], false, "connect: \(String(cString: strerror(errno)))") }
  let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  guard sent == bytes.count else { return ([], false, "send: \(String(cString: strerror(errno)))") }
  var reply: [UInt8] = []
  let deadline = Date().addingTimeInterval(timeout)
  var buffer = [UInt8](repeating: 0, count: 4096)
  while Date() < deadline {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let remaining = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
    guard poll(&poller, 1, remaining) > 0 else { continue }
    let count = recv(fd, &buffer, buffer.count, 0)
    if count > 0 {
      reply += buffer[0..<count]
    } else if count == 0 || errno == ECONNRESET {
      return (reply, true, nil)
    } else if errno != EINTR {
      return (reply, false, "recv: \(String(cString: strerror(errno)))")
    }
  }
  return (reply, false, nil)
}
