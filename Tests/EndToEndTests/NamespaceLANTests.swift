import Foundation
import TestSupport
import Testing

/// LAN play between two real hosts: scripts/netns-lan-test.sh builds them from network namespaces (a veth pair,
/// its own D-Bus and avahi-daemon in each, 10.99.0.0/24 made unreachable from the root namespace first) and
/// checks list, join by name, a whole game and the refusal of a spoofed advertisement, then tears it all down.
/// Needs root, `ip` (iproute2), `mount`, dbus-daemon and avahi-daemon: without root it is skipped, or fails
/// under CI; as root, a skip of the script (exit 77) counts as a failure.
@Suite struct NamespaceLANTests {
  /// The script beside this file's package: Tests/EndToEndTests/ -> the package root.
  private static var script: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/netns-lan-test.sh").path
  }

  @Test func twoNamespacesFindEachOtherPlayAGameAndRefuseASpoof() throws {
    try Requirement.require(geteuid() == 0, "root (network namespaces need it)")
    let run = try ScriptRun(Self.script, [Binary.path], timeout: 120)
    #expect(!run.timedOut, "the script did not finish within 120 s; its output:\n\(run.output)")
    #expect(run.status == 0, "scripts/netns-lan-test.sh exited \(run.status); its output:\n\(run.output)")
    #expect(run.output.contains("PASS: netns LAN test"), "\(run.output)")
  }
}

/// Runs a shell script to completion (TestSupport's ChildProcess: default signal handling, which matters here:
/// the script stops its daemons with SIGTERM), its stdout and stderr together in a temporary file, within a
/// bound. On timeout it gets SIGTERM (its trap tears down what it built), then SIGKILL after a grace period.
private struct ScriptRun {
  var status: Int32 = -1
  var output = ""
  var timedOut = false

  init(_ script: String, _ arguments: [String], timeout: Double, grace: Double = 20) throws {
    let outputPath = TestDirectory.path("script")
    defer { unlink(outputPath) }
    let child = try ChildProcess("/bin/bash", [script] + arguments, output: .file(outputPath), errors: .withOutput)
    if child.wait(timeout: timeout) == nil {
      timedOut = true
      child.stop(grace: grace)
    }
    status = child.exitStatus ?? -1
    output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
  }
}
