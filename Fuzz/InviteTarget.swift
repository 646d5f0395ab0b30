/// libFuzzer target `invite`: `Invite.parse` on any text (what a player pastes into `join` or the lobby's field).
///
/// Input: the text's bytes (invalid UTF-8 is repaired, as a String of a pasted line is).
///
/// Invariants: no crash; no refusal's words hold a control character (they reach the terminal); when the text
/// parses, the invite prints as text that parses to an equal invite, printed the same, and fits the length limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInvite(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
  let invite: Invite
  do throws(InviteError) {
    invite = try Invite.parse(text)
  } catch {
    invariant(
      !error.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
      "the refusal \(error.description.debugDescription) holds a control character")
    observe(error.description)
    return 0
  }
  let printed = invite.description
  invariant(printed.utf8.count <= Invite.maximumLength, "\(printed.debugDescription) is over the limit")
  do throws(InviteError) {
    let again = try Invite.parse(printed)
    invariant(
      again == invite, "\(text.debugDescription) prints as \(printed.debugDescription), which parses as \(again)")
    invariant(again.description == printed, "\(printed.debugDescription) prints differently once parsed again")
  } catch {
    invariant(false, "\(text.debugDescription) prints as \(printed.debugDescription), which does not parse: \(error)")
  }
  observe(invite.addresses.count)
  observe(invite.relay?.port ?? 0)
  return 0
}
