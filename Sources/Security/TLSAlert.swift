/// TLS alert descriptions (RFC 8446 section 6) by their wire numbers, named as in the RFC.
enum TLSAlert {
  static let closeNotify: Int32 = 0
  static let protocolVersion: Int32 = 70
  static let noApplicationProtocol: Int32 = 120

  /// Alerts by which a peer says it refuses our certificate (or its absence).
  static let certificateRefusals: Set<Int32> = [42, 43, 44, 45, 46, 48, 49, 116]

  /// The RFC name, e.g. `bad_certificate`.
  static func name(_ code: Int32) -> String {
    switch code {
    case 0: return "close_notify"
    case 10: return "unexpected_message"
    case 20: return "bad_record_mac"
    case 22: return "record_overflow"
    case 40: return "handshake_failure"
    case 42: return "bad_certificate"
    case 43: return "unsupported_certificate"
    case 44: return "certificate_revoked"
    case 45: return "certificate_expired"
    case 46: return "certificate_unknown"
    case 47: return "illegal_parameter"
    case 48: return "unknown_ca"
    case 49: return "access_denied"
    case 50: return "decode_error"
    case 51: return "decrypt_error"
    case 70: return "protocol_version"
    case 71: return "insufficient_security"
    case 80: return "internal_error"
    case 86: return "inappropriate_fallback"
    case 90: return "user_canceled"
    case 109: return "missing_extension"
    case 110: return "unsupported_extension"
    case 112: return "unrecognized_name"
    case 113: return "bad_certificate_status_response"
    case 115: return "unknown_psk_identity"
    case 116: return "certificate_required"
    case 120: return "no_application_protocol"
    default: return "alert \(code)"
    }
  }
}
