import ExplainedErrors

/// The little of HTTP a gateway needs: its URLs, and its replies read with a size limit. Pure.
public struct HTTPURL: Sendable, Equatable, CustomStringConvertible {
  public var host: String
  public var port: UInt16
  public var path: String

  /// An `http://HOST[:PORT]/PATH` URL (no other scheme: a gateway on the LAN has no certificate to check).
  public init?(_ text: String) {
    guard text.hasPrefix("http://") else { return nil }
    let rest = text.dropFirst("http://".count)
    let slash = rest.firstIndex(of: "/") ?? rest.endIndex
    let authority = rest[..<slash]
    path = slash == rest.endIndex ? "/" : String(rest[slash...])
    guard !authority.isEmpty, !authority.contains("@"), path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      return nil
    }
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      let after = authority[authority.index(after: close)...]
      if after.isEmpty {
        port = 80
      } else {
        guard after.hasPrefix(":"), let number = UInt16(after.dropFirst()), number > 0 else { return nil }
        port = number
      }
    } else if let colon = authority.lastIndex(of: ":") {
      host = String(authority[..<colon])
      guard let number = UInt16(authority[authority.index(after: colon)...]), number > 0 else { return nil }
      port = number
    } else {
      host = String(authority)
      port = 80
    }
    guard !host.isEmpty else { return nil }
  }

  /// `reference` (absolute, or a path) read against this URL, as a description's control URLs are.
  public func resolving(_ reference: String) -> HTTPURL? {
    if reference.hasPrefix("http://") { return HTTPURL(reference) }
    guard !reference.isEmpty else { return nil }
    var copy = self
    if reference.hasPrefix("/") {
      copy.path = reference
    } else {
      let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
      copy.path = directory + reference
    }
    guard copy.path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
    return copy
  }

  /// The Host header's value.
  var authority: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

  public var description: String { "http://\(authority)\(path)" }
}

/// An HTTP reply: its status and body, read from at most `limit` bytes.
public struct HTTPReply: Sendable, Equatable {
  public var status: Int
  public var body: [UInt8]

  /// Whether `bytes` hold a whole reply: the header, and the body its Content-Length gives (without one, the
  /// reply ends when the connection does).
  public static func isComplete(_ bytes: [UInt8]) -> Bool {
    guard let (headerEnd, length) = header(bytes), let length else { return false }
    return bytes.count - headerEnd >= length
  }

  /// Parses what was read (`ended`: the connection closed); a reply over `limit` bytes, or claiming a body
  /// over it, is refused.
  public static func parse(_ bytes: [UInt8], ended: Bool, limit: Int) throws(HTTPError) -> HTTPReply {
    guard bytes.count <= limit else { throw .tooLarge(limit) }
    guard let (headerEnd, length) = header(bytes) else {
      throw ended ? .malformed("the reply ended before its header did") : .incomplete
    }
    let statusLine = bytes.prefix { $0 != 13 && $0 != 10 }
    let words = String(decoding: statusLine, as: UTF8.self).split(separator: " ")
    guard words.count >= 2, words[0].hasPrefix("HTTP/1."), let status = Int(words[1]), (100...599).contains(status)
    else { throw .malformed("the status line is not HTTP's") }
    if let length {
      guard length <= limit else { throw .tooLarge(limit) }
      guard bytes.count - headerEnd >= length else { throw ended ? .malformed("the body was cut short") : .incomplete }
      return HTTPReply(status: status, body: Array(bytes[headerEnd..<headerEnd + length]))
    }
    guard ended else { throw .incomplete }
    return HTTPReply(status: status, body: Array(bytes[headerEnd...]))
  }

  /// Where the header ends, and the Content-Length it gives (nil without one); nil while the header is not all
  /// there. A chunked body is not supported (the gateways here do not send one): its length reads as absent.
  static func header(_ bytes: [UInt8]) -> (end: Int, length: Int?)? {
    guard bytes.count >= 4 else { return nil }
    var end: Int?
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
      end = index + 4
      break
    }
    guard let end else { return nil }
    let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
    var length: Int?
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      if line[..<colon].lowercased() == "content-length" {
        length = Int(line[line.index(after: colon)...].trimmingSpaces()) ?? Int.max
      }
    }
    return (end, length)
  }
}

public enum HTTPError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  case incomplete
  case tooLarge(Int)
  case malformed(String)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .incomplete: "http.incomplete"
    case .tooLarge: "http.too-large"
    case .malformed: "http.malformed"
    }
  }

  /// What was wrong with the router's reply.
  public var reason: String {
    switch self {
    case .incomplete: "the reply is not complete"
    case .tooLarge(let limit): "the reply is larger than \(limit) bytes"
    case .malformed(let reason): reason
    }
  }

  /// What the player can do: the router's UPnP is broken, so forward the port by hand.
  public var hint: String? { "forward the port on the router by hand if no other protocol maps it" }

  public var description: String { reason }
}

/// SSDP (UPnP discovery) and SOAP (UPnP control) messages. Pure.
public enum UPnPMessage {
  public static let gatewayDevice = "urn:schemas-upnp-org:device:InternetGatewayDevice:1"

  /// An M-SEARCH for internet gateways, sent to the gateway's own address (not multicast).
  public static func search(target: String = gatewayDevice) -> [UInt8] {
    Array(
      ("M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\nST: \(target)\r\n\r\n")
        .utf8)
  }

  /// The LOCATION header of an SSDP answer.
  public static func location(_ answer: [UInt8]) -> String? {
    for line in String(decoding: answer, as: UTF8.self).split(whereSeparator: \.isNewline) {
      guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "location" else { continue }
      return String(line[line.index(after: colon)...].trimmingSpaces())
    }
    return nil
  }

  /// A GET request for `url`.
  public static func get(_ url: HTTPURL) -> [UInt8] {
    Array("GET \(url.path) HTTP/1.1\r\nHost: \(url.authority)\r\nConnection: close\r\n\r\n".utf8)
  }

  /// A SOAP action `action` of `service` with `arguments` (values XML-escaped), POSTed to `url`.
  public static func soap(_ url: HTTPURL, service: String, action: String, arguments: [(String, String)]) -> [UInt8] {
    let body =
      "<?xml version=\"1.0\"?>\r\n<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" "
      + "s:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\"><s:Body><u:\(action) xmlns:u=\"\(service)\">"
      + arguments.map { "<\($0.0)>\(escaped($0.1))</\($0.0)>" }.joined()
      + "</u:\(action)></s:Body></s:Envelope>\r\n"
    let head =
      "POST \(url.path) HTTP/1.1\r\nHost: \(url.authority)\r\nContent-Type: text/xml; charset=\"utf-8\"\r\n"
      + "SOAPAction: \"\(service)#\(action)\"\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
    return Array((head + body).utf8)
  }

  static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}

extension Substring {
  func trimmingSpaces() -> Substring {
    var text = self
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return text
  }
}
