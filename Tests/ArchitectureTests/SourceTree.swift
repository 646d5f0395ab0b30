import Glibc

/// The modules under Sources/ and the imports of their Swift files, read with the C library (the test target
/// links nothing of the project).
enum SourceTree {
  struct Unreadable: Error, CustomStringConvertible {
    let path: String
    var description: String { "cannot read \(path)" }
  }

  /// The modules written in Swift (a C module's folder holds only its module map and header).
  static func swiftModules(under root: String) throws -> [String] {
    try entries(of: root).filter { !$0.hasPrefix(".") }.sorted().filter {
      !(try swiftFiles(in: root + "/" + $0)).isEmpty
    }
  }

  /// (file, imported module) for each import of each Swift file of `module`, in its subfolders too.
  static func imports(of module: String, under root: String) throws -> [(String, String)] {
    let files = try swiftFiles(in: root + "/" + module)
    if files.isEmpty { throw Unreadable(path: root + "/" + module + "/*.swift") }
    return try files.flatMap { file in
      importedModules(in: try contents(of: file)).map { (file, $0) }
    }
  }

  /// The modules a Swift source imports (`import X`, `@testable import X`, `import struct X.Y`).
  static func importedModules(in text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      var words = line.split(separator: " ").map(String.init)
      while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal"].contains(first) {
        words.removeFirst()
      }
      guard words.first == "import", words.count >= 2 else { return nil }
      let target =
        words.count >= 3 && ["struct", "enum", "class", "func", "protocol"].contains(words[1])
        ? words[2] : words[1]
      return String(target.split(separator: ".").first ?? "")
    }
  }

  private static func swiftFiles(in directory: String) throws -> [String] {
    try entries(of: directory).flatMap { name -> [String] in
      let path = directory + "/" + name
      if name.hasSuffix(".swift") { return [path] }
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, !name.hasPrefix(".") else { return [] }
      return try swiftFiles(in: path)
    }
  }

  private static func entries(of directory: String) throws -> [String] {
    guard let handle = opendir(directory) else { throw Unreadable(path: directory) }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  private static func contents(of path: String) throws -> String {
    guard let file = fopen(path, "r") else { throw Unreadable(path: path) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      if count == 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
