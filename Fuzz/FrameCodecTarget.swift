/// libFuzzer target `frame-codec`: `FrameDecoder` fed a byte stream in chunks the input chooses.
///
/// Input: a count `k`, then `k` chunk sizes of one byte each (0 feeds an empty chunk), then the stream. The stream
/// is fed in chunks of those sizes and then whatever is left in one piece; after every chunk frames are taken out
/// until `next()` returns nil or throws. A throw ends the connection, so nothing is fed after it.
///
/// Invariants: no crash; no frame is longer than `Frame.maximumLength`; each frame re-encodes to exactly the bytes
/// it was cut from, and those bytes decode alone to the same frame; the frames and the error do not depend on how
/// the stream was chunked (they match feeding the whole stream at once).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameCodec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  let count = Int(input.first ?? 0)
  let sizes = input.dropFirst().prefix(count).map(Int.init)
  let stream = Array(input.dropFirst(1 + sizes.count))

  var chunks: [ArraySlice<UInt8>] = []
  var offset = 0
  for size in sizes {
    let end = min(stream.count, offset + size)
    chunks.append(stream[offset..<end])
    offset = end
  }
  chunks.append(stream[offset...])

  let chunked = decodeFrames(chunks)
  let whole = decodeFrames([stream[...]])
  invariant(chunked == whole, "chunking changed the result: \(chunked) vs. whole stream \(whole)")

  var consumed = 0
  for frame in chunked.frames {
    invariant(frame.payload.count + 1 <= Frame.maximumLength, "a frame of \(frame.payload.count + 1) bytes")
    let bytes = frame.bytes
    invariant(
      Array(stream[consumed..<min(stream.count, consumed + bytes.count)]) == bytes,
      "frame \(frame) re-encodes to bytes other than those it came from")
    consumed += bytes.count
    var decoder = FrameDecoder()
    decoder.feed(bytes)
    do throws(WireError) {
      let first = try decoder.next()
      invariant(first == frame, "the re-encoded frame \(frame) decodes as \(String(describing: first))")
      let second = try decoder.next()
      invariant(second == nil && decoder.pendingCount == 0, "the re-encoded \(frame) leaves bytes over")
    } catch {
      invariant(false, "the re-encoded frame \(frame) does not decode: \(error)")
    }
  }
  if chunked.error == nil {
    invariant(
      chunked.pending == stream.count - consumed, "\(chunked.pending) bytes pending, not \(stream.count - consumed)")
  }
  return 0
}

/// Everything a decoder made of one stream: the frames, the error that stopped it, the bytes still pending.
private struct DecodeResult: Equatable {
  var frames: [Frame] = []
  var error: WireError?
  var pending = 0
}

private func decodeFrames(_ chunks: [ArraySlice<UInt8>]) -> DecodeResult {
  var decoder = FrameDecoder()
  var result = DecodeResult()
  for chunk in chunks {
    decoder.feed(Array(chunk))
    do throws(WireError) {
      while let frame = try decoder.next() { result.frames.append(frame) }
    } catch {
      observe(error.description)
      result.error = error
      return result
    }
  }
  result.pending = decoder.pendingCount
  return result
}
