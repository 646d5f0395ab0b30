import Glibc

/// The number of descriptors the process may open, which bounds how many joiners the bot can serve at once.
enum OpenFileLimit {
  /// Raises the soft limit to the hard limit and returns the limit now in force (nil when it cannot be read).
  @discardableResult
  static func raiseToHardLimit() -> UInt? {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0 else { return nil }
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      if setrlimit(resource, &raised) == 0 { return raised.rlim_cur }
    }
    return limit.rlim_cur
  }
}
