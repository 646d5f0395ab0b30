/// libFuzzer target `message-decode`: `Message.decode` on a frame of any type and payload.
///
/// Input: the type byte, then the payload.
///
/// Invariants: no crash; a decoded message re-encodes to a frame that decodes to the same message, and that frame
/// is no longer than the one it came from (so it stays within `Frame.maximumLength` when the original did).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessageDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  guard let type = input.first else { return 0 }
  let frame = Frame(type: type, payload: Array(input.dropFirst()))
  let decoded: Message?
  do throws(WireError) {
    decoded = try Message.decode(frame)
  } catch {
    observe(error.description)
    return 0
  }
  guard let message = decoded else { return 0 }
  observe(message.name)
  let encoded = message.frame
  invariant(encoded.type == frame.type, "\(message) re-encodes as type \(encoded.type), not \(frame.type)")
  invariant(
    encoded.payload.count <= frame.payload.count,
    "\(message) re-encodes to \(encoded.payload.count) payload bytes, more than the \(frame.payload.count) it came from"
  )
  do throws(WireError) {
    let again = try Message.decode(encoded)
    invariant(again == message, "\(message) re-encoded decodes as \(String(describing: again))")
  } catch {
    invariant(false, "\(message) re-encoded does not decode: \(error)")
  }
  return 0
}
