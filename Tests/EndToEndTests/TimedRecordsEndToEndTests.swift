import Foundation
import GameRecords
import TestSupport
import Testing

/// The records of a timed game between two real programs in plain mode (issue 24): a 10-second game that O lets
/// run out. Both records are the same bytes, say B+T with the time control and every move's times, verify
/// (`tictactoe verify 1`), check with openssl over the signed bytes rebuilt from the SGF text alone, and read in
/// sgfmill.
@Suite(.serialized) struct TimedRecordsEndToEndTests {
  @Test func aGameLostOnTimeLeavesTwoSignedRecordsWithItsTimes() throws {
    let alice = try NetworkTests.Home("alice").environment
    let bob = try NetworkTests.Home("bob").environment
    let host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new", "--clock", "10s+0"],
      environment: alice)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob)
    defer {
      joiner.send("quit")
      host.send("quit")
      _ = joiner.exitStatus()
      _ = host.exitStatus()
    }
    #expect(joiner.waitFor("Play on these terms? [y/n]: "), "\(joiner.output)")
    joiner.send("y")
    #expect(host.waitFor("game 1:") && joiner.waitFor("game 1:"))
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline && host.count("your move (X): ") + joiner.count("your move (X): ") == 0 { usleep(20_000) }
    let (x, o) = host.count("your move (X): ") > 0 ? (host, joiner) : (joiner, host)
    x.send("5")
    #expect(o.waitFor(" plays 5 (row 2, column 2)"))
    o.send("1")
    #expect(x.waitFor(" plays 1 (row 1, column 1)"))
    x.send("9")
    #expect(x.waitFor("result: X wins (O lost on time)", timeout: 20), "\(x.output)")
    #expect(o.waitFor("result: X wins (O lost on time)", timeout: 5), "\(o.output)")

    // Each side rewrites its record once both signatures have crossed.
    var texts: [String] = []
    let signed = Date().addingTimeInterval(20)
    while Date() < signed {
      texts = [alice, bob].map { (try? RecordsEndToEndTests.records($0).first?.text) ?? "" }
      if texts.allSatisfy({ $0.contains("TTSB[") && $0.contains("TTSW[") }) { break }
      usleep(20_000)
    }
    #expect(texts[0] == texts[1], "the two records differ:\n\(texts[0])\n\(texts[1])")
    let text = texts[0]
    for property in ["RE[B+T]", "TTE[time]", "TM[10]OT[0 fischer]", "TTSV[2]", "TTF[B ", ";B[bb]BL[10]TTQ[0]"] {
      #expect(text.contains(property), "\(property) in \(text)")
    }
    #expect(text.contains(";W[aa]WL[10]TTQ[0]") && text.contains(";B[cc]BL["), "\(text)")
    let record = try GameRecord.parse(text)
    #expect(record.times.count == 3 && record.flag?.claimant == .x && record.timesProblem == nil)

    // `verify 1` on each side: verified, with the times.
    for home in [alice, bob] {
      let verify = try Binary.run(["verify", "1"], environment: home)
      #expect(verify.status == 0 && verify.stdout.hasSuffix("verified\n"), "\(verify.stdout)\(verify.stderr)")
      #expect(verify.stdout.contains("times: 10 s a game, 3 moves with their time charged and left; X claimed"))
      #expect(verify.stdout.components(separatedBy: "signature good").count == 3, "\(verify.stdout)")
    }
    // Anyone can check the signatures over version 2's lines, rebuilt from the text; a time changed does not.
    let bytes = try SignedRecordTests.signedBytes(text)
    #expect(bytes.hasPrefix("tictactoe game record signature v2\nrules 3 3 3\nclock fischer 10000 0\n"), "\(bytes)")
    #expect(bytes.contains("\ntimes 0/10000 0/10000 "), "\(bytes)")
    for (key, signature) in [("TTPB", "TTSB"), ("TTPW", "TTSW")] {
      let key = try #require(SignedRecordTests.property(key, text))
      let signature = try #require(SignedRecordTests.property(signature, text))
      #expect(try SignedRecordTests.openssl(bytes: bytes, key: key, signature: signature).contains("Verified OK"))
      let tampered = bytes.replacingOccurrences(of: "times 0/10000 0/10000 ", with: "times 0/10000 0/10001 ")
      #expect(try SignedRecordTests.openssl(bytes: tampered, key: key, signature: signature).contains("failure"))
    }
    // sgfmill reads it: the moves, the winner, TM, OT and each move's time left.
    let read = try SgfmillTests.readWithSgfmill(try SgfmillTests.files(alice))
    #expect(read.count == 1)
    for read in read { SgfmillTests.expect(read, is: record) }
  }
}
