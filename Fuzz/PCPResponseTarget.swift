/// libFuzzer target `pcp-response`: `PCPMessage.parseMapResponse` on any datagram (what a gateway, or anyone on
/// the LAN able to answer from its address, sends back to a MAP request).
///
/// Input: the datagram. The request it answers has the nonce 1…12 and internal port 7177.
///
/// Invariants: no crash; an accepted success carries the request's nonce and port, and an IPv4 address in
/// dotted form; nothing over 1100 bytes is accepted.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPCPResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzInput(data, size)
  let nonce: [UInt8] = Array(1...12)
  do throws(PCPError) {
    let answer = try PCPMessage.parseMapResponse(bytes, nonce: nonce, internalPort: 7177)
    invariant(bytes.count <= PCPMessage.maximumLength, "accepted \(bytes.count) bytes")
    if answer.result == .success {
      invariant(Array(bytes[24..<36]) == nonce, "accepted another request's nonce")
      let parts = answer.externalAddress.split(separator: ".")
      invariant(parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }, "address \(answer.externalAddress)")
    }
    observe(answer.externalPort)
  } catch {
    observe(error.description)
  }
  return 0
}
