/// libFuzzer target `known-peers`: `KnownPeers.parse` on any text, and the file it renders.
///
/// Input: the file's bytes (invalid UTF-8 is repaired as the file loader repairs it).
///
/// Invariants: no crash; when the text parses, what it renders parses again, to an equal value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKnownPeers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
  let peers: KnownPeers
  do throws(KnownPeersError) {
    peers = try KnownPeers.parse(text, path: "fuzz")
  } catch {
    observe(error.description)
    return 0
  }
  let rendered = peers.render()
  do throws(KnownPeersError) {
    let again = try KnownPeers.parse(rendered, path: "fuzz")
    invariant(again == peers, "\(peers) renders as \(rendered.debugDescription), which parses as \(again)")
  } catch {
    invariant(false, "\(peers) renders as \(rendered.debugDescription), which does not parse: \(error)")
  }
  observe(peers.entries.count)
  return 0
}
