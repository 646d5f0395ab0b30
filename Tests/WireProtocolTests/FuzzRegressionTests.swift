import Foundation
import GameCore
import Testing

@testable import WireProtocol

/// Replays the fuzzers' saved inputs (FuzzCorpus/TARGET/, one file per input; scripts/fuzz.sh adds every crash it
/// finds) with the invariants of the matching target in Fuzz/.
@Suite struct FuzzRegressionTests {
  @Test(arguments: ["frame-codec", "message-decode", "hello-negotiation"])
  func corpusIsThere(target: String) {
    #expect(!FuzzCorpus.inputs(target).isEmpty, "no inputs in \(FuzzCorpus.directory.path)/\(target)")
  }

  /// What a saved input must come to.
  enum Outcome: Equatable {
    /// Decodes (for frame-codec: the whole stream is read without an error).
    case accepted
    /// A message of a type this version does not know: skipped, as the protocol says.
    case ignored
    /// Refused with an error whose description starts with this text.
    case refused(String)
  }

  /// Each saved input's outcome. A new input (a crash scripts/fuzz.sh saved) fails its replay until it is
  /// triaged and listed here.
  static let expected: [String: Outcome] = [
    "frame-codec/empty-frame": .refused("a frame of length 0"),
    "frame-codec/ends-mid-frame": .accepted,
    "frame-codec/max-length-frame": .accepted,
    "frame-codec/oversize-header": .refused("a frame of 4097 bytes (the limit is 4096)"),
    "frame-codec/past-8k-compaction": .accepted,
    "frame-codec/valid-hello-byte-by-byte": .accepted,
    "message-decode/abort-after-two-moves": .refused("a bad moves seen: an abort after 2 moves"),
    "message-decode/duplicate-field": .refused("field 2 appears twice"),
    "message-decode/hello-per-move-with-increment": .refused("a bad time control: kind 2 with base 1000 ms"),
    "message-decode/hello-rules-without-clock": .accepted,  // found by the fuzzer: it re-encoded longer
    "message-decode/hello-with-terms": .accepted,
    "message-decode/timed-move": .accepted,
    "message-decode/invalid-utf8-chat": .refused("the chat text is not valid UTF-8"),
    "message-decode/name-too-long": .refused("a player name of 65 bytes (the limit is 64)"),
    "message-decode/truncated-field": .refused("field 2 runs past the end of its frame"),
    "message-decode/unknown-field-dropped": .accepted,
    "message-decode/valid-hello": .accepted,
    "message-decode/welcome-bad-rules": .refused("a bad rules: "),
  ]

  /// The outcome `input` must come to (nil, with an issue recorded, when it has none).
  static func expectation(_ input: FuzzCorpus.Input) -> Outcome? {
    guard let outcome = expected[input.testDescription] else {
      Issue.record("\(input.testDescription) has no expected outcome: triage it and add it to `expected`")
      return nil
    }
    return outcome
  }

  static func outcome(of error: WireError?, expected: Outcome) -> Bool {
    switch (error, expected) {
    case (nil, .accepted): return true
    case (let error?, .refused(let start)): return error.description.hasPrefix(start)
    default: return false
    }
  }

  @Test(arguments: FuzzCorpus.inputs("frame-codec"))
  func frameCodec(input: FuzzCorpus.Input) throws {
    let expected = try #require(Self.expectation(input))
    let bytes = try input.bytes()
    let count = Int(bytes.first ?? 0)
    let sizes = bytes.dropFirst().prefix(count).map(Int.init)
    let stream = Array(bytes.dropFirst(1 + sizes.count))
    var chunks: [ArraySlice<UInt8>] = []
    var offset = 0
    for size in sizes {
      let end = min(stream.count, offset + size)
      chunks.append(stream[offset..<end])
      offset = end
    }
    chunks.append(stream[offset...])

    let chunked = Decoded(chunks)
    #expect(chunked == Decoded([stream[...]]), "chunking changed the frames or the error")
    var consumed = 0
    for frame in chunked.frames {
      #expect(frame.payload.count + 1 <= Frame.maximumLength)
      let encoded = frame.bytes
      #expect(Array(stream[consumed..<min(stream.count, consumed + encoded.count)]) == encoded)
      consumed += encoded.count
      #expect(Decoded([encoded[...]]) == Decoded(frames: [frame]), "the re-encoded frame decodes alone")
    }
    if chunked.error == nil { #expect(chunked.pending == stream.count - consumed) }
    #expect(
      Self.outcome(of: chunked.error, expected: expected), "\(String(describing: chunked.error)), expected \(expected)")
  }

  @Test(arguments: FuzzCorpus.inputs("message-decode"))
  func messageDecode(input: FuzzCorpus.Input) throws {
    let expected = try #require(Self.expectation(input))
    let bytes = try input.bytes()
    let type = try #require(bytes.first, "an empty input has no frame type")
    let frame = Frame(type: type, payload: Array(bytes.dropFirst()))
    let decoded: Message?
    do throws(WireError) {
      decoded = try Message.decode(frame)
    } catch {
      #expect(Self.outcome(of: error, expected: expected), "refused with “\(error)”, expected \(expected)")
      return
    }
    guard let message = decoded else {
      #expect(expected == .ignored, "type \(type) was ignored, expected \(expected)")
      return
    }
    #expect(expected == .accepted, "decoded to \(message), expected \(expected)")
    let encoded = message.frame
    #expect(encoded.type == frame.type)
    #expect(encoded.payload.count <= frame.payload.count)
    #expect(try Message.decode(encoded) == message)
  }

  /// The wire half of the `hello-negotiation` target: the stream's frames, each decoded message's round trip, and
  /// the version choice for each hello. The session half needs the Session module, which this target does not
  /// import; scripts/fuzz.sh replays these inputs through it (they seed the fuzzer's corpus).
  @Test(arguments: FuzzCorpus.inputs("hello-negotiation"))
  func helloNegotiation(input: FuzzCorpus.Input) throws {
    var decoder = FrameDecoder()
    decoder.feed(try input.bytes())
    while let frame = try? decoder.next() {
      guard let message = try? Message.decode(frame) else { continue }
      #expect(try Message.decode(message.frame) == message)
      guard case .hello(let versions, _, _, _, _, _) = message else { continue }
      let ours = ProtocolVersion.supported
      let chosen = ProtocolVersion.choose(ours: ours, theirs: versions)
      #expect(chosen == ProtocolVersion.choose(ours: versions, theirs: ours))
      #expect(chosen == ours.filter(versions.contains).max())
    }
  }

  /// What a decoder made of a stream fed in chunks: the frames, the error that stopped it, the bytes left over.
  struct Decoded: Equatable {
    var frames: [Frame] = []
    var error: WireError?
    var pending = 0

    init(frames: [Frame]) { self.frames = frames }

    init(_ chunks: [ArraySlice<UInt8>]) {
      var decoder = FrameDecoder()
      for chunk in chunks {
        decoder.feed(Array(chunk))
        do throws(WireError) {
          while let frame = try decoder.next() { frames.append(frame) }
        } catch {
          self.error = error
          return
        }
      }
      pending = decoder.pendingCount
    }
  }
}

/// The saved inputs of the wire protocol's fuzz targets, next to this file.
enum FuzzCorpus {
  /// One saved input, shown in test results by target and file name.
  struct Input: Sendable, CustomTestStringConvertible {
    let url: URL
    var testDescription: String { "\(url.deletingLastPathComponent().lastPathComponent)/\(url.lastPathComponent)" }

    func bytes() throws -> [UInt8] { Array(try Data(contentsOf: url)) }
  }

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "FuzzCorpus")

  /// Every file in FuzzCorpus/`target`, by name.
  static func inputs(_ target: String) -> [Input] {
    let folder = directory.appendingPathComponent(target)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { Input(url: folder.appendingPathComponent($0)) }
  }
}
