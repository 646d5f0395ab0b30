import Glibc
import Security

/// The last few addresses joined, offered again on the join screen.
public enum RecentAddresses {
  public static func path(_ paths: Paths) -> String { paths.state + "/recent_addresses" }

  public static func load(_ paths: Paths) -> [String] {
    guard case .contents(let data) = FileExposure.read(path(paths)) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
      .prefix(5).map { $0 }
  }

  public static func save(_ addresses: [String], _ paths: Paths, log: Log) {
    do {
      try AtomicFile.write(addresses.prefix(5).joined(separator: "\n") + "\n", to: path(paths))
    } catch {
      log.write("recent addresses not saved: \(error)")
    }
  }
}
