import PeerTrust
import Security

#if canImport(Glibc)
  import Glibc
#endif

/// Resident memory of a fresh copy of this program, bare or after creating an identity and a TLS context.
/// Each is measured in its own process, so nothing the other benchmarks allocated is counted.
enum MemoryBenchmark {
  /// The argument that makes this program print its resident memory instead of benchmarking.
  static let probeArgument = "--memory-probe"

  /// Runs in the child: prints VmRSS in bytes after doing what `what` names ("bare" or "tls").
  static func probe(_ what: String) throws {
    if what == "tls" {
      let identity = try Identity.generate(commonName: "bench-memory")
      let context = try TLSContext(
        role: .server, identity: identity, options: TrustOptions(policy: .pinned([PinnedKey(identity.fingerprint)])))
      try withExtendedLifetime(context) { print(try residentBytes()) }
    } else {
      print(try residentBytes())
    }
  }

  /// VmRSS from /proc/self/status, in bytes.
  static func residentBytes() throws -> Int {
    guard let file = fopen("/proc/self/status", "r") else { throw BenchError("cannot open /proc/self/status") }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard text.hasPrefix("VmRSS:") else { continue }
      let digits = text.filter(\.isNumber)
      if let kilobytes = Int(digits) { return kilobytes * 1024 }
    }
    throw BenchError("no VmRSS line in /proc/self/status")
  }

  /// Runs this program again with `--memory-probe what` and reads the number it prints.
  static func measure(_ what: String) throws -> Double {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw BenchError("cannot create a pipe") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    let arguments: [UnsafeMutablePointer<CChar>?] =
      ["/proc/self/exe", probeArgument, what].map { (text: String) in strdup(text) } + [nil]
    defer { for argument in arguments { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nil, arguments, environ)
    close(pipeEnds[1])
    defer { close(pipeEnds[0]) }
    guard spawned == 0 else { throw BenchError("cannot start the memory probe (error \(spawned))") }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 256)
    while true {
      let count = read(pipeEnds[0], &chunk, chunk.count)
      if count <= 0 { break }
      output += chunk[0..<count]
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let text = String(decoding: output, as: UTF8.self).filter(\.isNumber)
    guard let bytes = Int(text) else { throw BenchError("the memory probe printed no number") }
    return Double(bytes)
  }
}
