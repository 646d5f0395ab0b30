import Glibc

/// Reads that may come to nothing, directory listings and path parts: the rest of the file helpers.
extension FileSystem {
  /// The whole file, or nil when it cannot be opened or read.
  public static func contents(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = Glibc.read(fd, &chunk, chunk.count)
      if count < 0 && errno == EINTR { continue }
      if count < 0 { return nil }
      if count == 0 { return bytes }
      bytes += chunk[0..<count]
    }
  }

  public static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Makes the directory `path` and any missing parents, each with `mode` (like `mkdir -p`).
  public static func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(FileError) {
    // Nearly always there already (the bot's records directory, before each batch): one call says so.
    if mkdir(path, mode) == 0 || errno == EEXIST { return }
    var made = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      made += "/" + component
      if mkdir(made, mode) != 0 && errno != EEXIST {
        throw FileError(path: made, reason: String(cString: strerror(errno)))
      }
    }
  }

  /// The directory part of a path: "/a/b/c" → "/a/b", "/c" → "/", "c" → ".".
  public static func directory(of path: String) -> String {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }

  /// The last component of a path: "/a/b/c" → "c".
  public static func lastComponent(of path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  /// The names in a directory (without "." and ".."); empty when it cannot be read.
  /// The regular files of `directory` whose names pass `include`, with their sizes (symbolic links left out).
  public static func regularFileSizes(in directory: String, _ include: (String) -> Bool) -> [(name: String, bytes: Int)]
  {
    entries(of: directory).filter(include).compactMap { name in
      var info = stat()
      guard lstat(directory + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
      return (name, Int(info.st_size))
    }
  }

  public static func entries(of directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The user's home directory from the password database ("/" when there is no entry).
  public static func homeDirectory() -> String {
    guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
    return String(cString: directory)
  }
}
