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

extension SourceTree {
  /// Every Swift source under `root` ("Module/File.swift", relative to `root`), with its text.
  static func swiftSources(under root: String) throws -> [(String, String)] {
    try swiftModules(under: root).flatMap { module in
      try swiftFiles(in: root + "/" + module).sorted().map { path in
        (String(path.dropFirst(root.count + 1)), try contents(of: path))
      }
    }
  }

  /// The functions, initialisers, subscripts and computed properties with a body in `text`: where each starts
  /// (1-based), its declaration's first words, and its length from the declaration to its closing brace.
  static func functions(in text: String) -> [(line: Int, declaration: String, lines: Int)] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var found: [(Int, String, Int)] = []
    for (index, line) in lines.enumerated() where isDeclaration(line) {
      var depth = 0
      var started = false
      var end: Int?
      for later in index..<lines.count {
        for character in code(of: lines[later]) {
          if character == "{" {
            depth += 1
            started = true
          } else if character == "}" {
            depth -= 1
          }
        }
        if started && depth <= 0 {
          end = later
          break
        }
        if !started && later > index && code(of: lines[later]).allSatisfy(\.isWhitespace) { break }
      }
      guard let end else { continue }
      let declaration = line.trimmingPrefix(while: \.isWhitespace).prefix(60)
      found.append((index + 1, String(declaration), end - index + 1))
    }
    return found
  }

  /// A line that starts a function, an initialiser, a subscript, `deinit`, or a computed property's body.
  private static func isDeclaration(_ line: String) -> Bool {
    var words = line.split(separator: " ").map(String.init)
    let modifiers: Set<String> = [
      "public", "private", "fileprivate", "internal", "package", "static", "class", "final", "override",
      "mutating", "nonmutating", "nonisolated", "convenience", "required", "@discardableResult", "@inlinable",
    ]
    while let first = words.first, modifiers.contains(first) || first.hasPrefix("@") { words.removeFirst() }
    guard let first = words.first else { return false }
    if first == "func" || first == "deinit" || first.hasPrefix("init(") || first.hasPrefix("init?(")
      || first.hasPrefix("init<") || first.hasPrefix("subscript(")
    {
      return true
    }
    return first == "var" && line.hasSuffix("{") && line.contains(":") && !line.contains("=")
  }

  /// A line without its string literals and its comment.
  private static func code(of line: String) -> String {
    var kept = ""
    var inString = false
    var escaped = false
    var previous: Character = " "
    for character in line {
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "/" && previous == "/" {
        kept.removeLast()
        break
      } else {
        kept.append(character)
      }
      previous = character
    }
    return kept
  }
}
