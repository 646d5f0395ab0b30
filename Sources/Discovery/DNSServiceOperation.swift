import CDNSSD

/// Owns one DNSServiceRef and the replies its callback collected; deallocating the ref ends the operation.
///
/// Callbacks only append to `replies` (the context pointer is this object, unretained: the ref never outlives it);
/// the owner reads them with `takeReplies()` after `process()`, so no owner state changes inside a C callback.
final class DNSServiceOperation<Reply> {
  let operation: DiscoveryError.Operation
  private var ref: DNSServiceRef?
  /// DNSServiceRefSockFD of the ref; nil once cancelled.
  private(set) var descriptor: Int32?
  var replies: [Reply] = []

  /// Calls `start` with a ref to fill and the context pointer to give the C call.
  init(
    _ operation: DiscoveryError.Operation,
    start: (UnsafeMutablePointer<DNSServiceRef?>, UnsafeMutableRawPointer) -> DNSServiceErrorType
  ) throws(DiscoveryError) {
    self.operation = operation
    DNSSDEnvironment.prepare()
    var newRef: DNSServiceRef?
    let code = start(&newRef, Unmanaged.passUnretained(self).toOpaque())
    guard code == kDNSServiceErr_NoError, let newRef else {
      throw DiscoveryError(
        number: code == kDNSServiceErr_NoError ? Int32(kDNSServiceErr_Unknown) : code, operation: operation)
    }
    ref = newRef
    let fd = DNSServiceRefSockFD(newRef)
    descriptor = fd >= 0 ? fd : nil
  }

  /// Recovers the operation from a callback's context pointer.
  static func from(_ context: UnsafeMutableRawPointer?) -> DNSServiceOperation<Reply>? {
    guard let context else { return nil }
    return Unmanaged<DNSServiceOperation<Reply>>.fromOpaque(context).takeUnretainedValue()
  }

  /// Runs DNSServiceProcessResult once. Call it only when `descriptor` is readable: otherwise it blocks.
  /// Returns the library's error code (0 when fine).
  func process() -> DNSServiceErrorType {
    guard let ref else { return DNSServiceErrorType(kDNSServiceErr_BadReference) }
    return DNSServiceProcessResult(ref)
  }

  /// The replies collected since the last call.
  func takeReplies() -> [Reply] {
    defer { replies = [] }
    return replies
  }

  /// The live ref, for calls such as DNSServiceUpdateRecord.
  var serviceRef: DNSServiceRef? { ref }

  var isActive: Bool { ref != nil }

  /// Ends the operation (withdraws a registration); idempotent.
  func cancel() {
    if let ref {
      DNSServiceRefDeallocate(ref)
    }
    ref = nil
    descriptor = nil
  }

  deinit {
    cancel()
  }
}
