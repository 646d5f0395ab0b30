import CDNSSD
import Glibc

/// Process-wide settings the DNS-SD library needs before its first call.
public enum DNSSDEnvironment {
  /// Sets `AVAHI_COMPAT_NOWARN=1` (unless already set) so Avahi's three-line "compatibility layer" banner never
  /// reaches stderr, where it would corrupt a curses screen, and makes Avahi's allocations zeroed (see shim.h: a
  /// crash in Avahi 0.8 when the daemon stops). Idempotent; Advertiser and Browser call it first.
  public static func prepare() {
    setenv("AVAHI_COMPAT_NOWARN", "1", 0)
    _ = zeroingAllocatorInstalled
  }

  /// Whether Avahi's allocations are zeroed (false if this libdns_sd is not Avahi's).
  public static var isCrashWorkaroundInstalled: Bool { zeroingAllocatorInstalled }
}

/// Installed once, before the first DNS-SD call (Swift runs a global's initializer exactly once).
private let zeroingAllocatorInstalled: Bool = tictactoe_avahi_zero_allocations() == 1
