import Glibc

/// Process-wide settings the DNS-SD library reads before its first call.
public enum DNSSDEnvironment {
  /// Sets `AVAHI_COMPAT_NOWARN=1` (unless already set) so Avahi's three-line "compatibility layer" banner never
  /// reaches stderr, where it would corrupt a curses screen. Idempotent; Advertiser and Browser call it first.
  public static func prepare() {
    setenv("AVAHI_COMPAT_NOWARN", "1", 0)
  }
}
