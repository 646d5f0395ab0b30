import Foundation
import NetworkFacts
import Synchronization
import Testing

@testable import Security

/// The scratch space reads go through: one buffer a thread, kept between uses (no allocation a read), never
/// shared by two uses at once; and what is read through it, whole.
@Suite struct ThreadScratchTests {
  private func address(_ buffer: UnsafeMutableRawBufferPointer) -> UInt {
    UInt(bitPattern: buffer.baseAddress)
  }

  @Test func aThreadGetsTheSameSpaceEachTime() {
    let first = ThreadScratch.withSpace { address($0) }
    let second = ThreadScratch.withSpace { buffer in
      #expect(buffer.count == ThreadScratch.byteCount)
      return address(buffer)
    }
    #expect(first == second)
  }

  @Test func aUseInsideAnotherGetsSpaceOfItsOwnAndTheKeptSpaceStays() {
    let kept = ThreadScratch.withSpace { address($0) }
    let (outer, inner) = ThreadScratch.withSpace { outerBuffer in
      outerBuffer.storeBytes(of: 0xAB, toByteOffset: 0, as: UInt8.self)
      let inner = ThreadScratch.withSpace { innerBuffer in
        innerBuffer.storeBytes(of: 0xCD, toByteOffset: 0, as: UInt8.self)
        return address(innerBuffer)
      }
      // The inner use wrote its own bytes, not the outer's.
      #expect(outerBuffer.load(fromByteOffset: 0, as: UInt8.self) == 0xAB)
      return (address(outerBuffer), inner)
    }
    #expect(outer == kept)
    #expect(inner != outer)
    #expect(ThreadScratch.withSpace { address($0) } == kept)
  }

  @Test func twoThreadsHaveTwoSpaces() {
    let here = ThreadScratch.withSpace { address($0) }
    let there = Mutex<UInt>(0)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let space = ThreadScratch.withSpace { UInt(bitPattern: $0.baseAddress) }
      there.withLock { $0 = space }
      done.signal()
    }
    thread.start()
    done.wait()
    #expect(there.withLock { $0 } != 0)
    #expect(there.withLock { $0 } != here)
  }

  @Test func drainingAppendsEverythingBufferedAfterWhatWasThere() throws {
    // More than the scratch space holds, so the drain takes it in several reads.
    let bytes = (0..<(ThreadScratch.byteCount * 2 + 1_234)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let bio = try MemoryBIO(bytes: bytes)
    var output: [UInt8] = [9, 8, 7]
    MemoryBIO.drain(bio.pointer, appendingTo: &output)
    #expect(output == [9, 8, 7] + bytes)
    MemoryBIO.drain(bio.pointer, appendingTo: &output)
    #expect(output.count == 3 + bytes.count)
  }

  @Test func plaintextReadInPiecesIsTheWholeOfWhatWasSent() throws {
    let pair = try Pair()
    // Three TLS records' worth: the reader takes them a record at a time from the scratch space.
    let sent = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try pair.client.writePlaintext(sent)
    pair.server.feed(ciphertext: pair.client.takeCiphertext())
    var received: [UInt8] = []
    var pieces = 0
    let count = try pair.server.readPlaintext { piece in
      received += piece
      pieces += 1
    }
    #expect(received == sent)
    #expect(count == sent.count)
    #expect(pieces >= 3)
  }
}
