import COpenSSL
import Glibc
import PeerTrust

/// What the calendar arithmetic (PeerTrust's `UTCCalendar`) needs from the system and OpenSSL: the clock, and
/// certificates' ASN.1 times.
extension UTCCalendar {
  /// The current time in seconds since 1970.
  static func now() -> Int64 {
    Int64(time(nil))
  }

  /// Seconds since 1970 of an ASN.1 time (as found in certificates), nil if it is malformed.
  static func seconds(of asn1Time: UnsafePointer<ASN1_TIME>?) -> Int64? {
    guard let asn1Time else { return nil }
    var parts = tm()
    guard ASN1_TIME_to_tm(asn1Time, &parts) == 1 else { return nil }
    let days = days(
      year: Int64(parts.tm_year) + 1900, month: Int64(parts.tm_mon) + 1, day: Int64(parts.tm_mday))
    return days * 86_400 + Int64(parts.tm_hour) * 3600 + Int64(parts.tm_min) * 60 + Int64(parts.tm_sec)
  }
}
