import GameRecords
import Glibc
import Security

/// The records directory's tally index on disk (`.tally-index`, see `TallyIndex`): read, brought up to date with
/// the record files (a new or changed file is read, a removed one dropped) and written back when it changed.
public enum TallyIndexFile {
  public static let name = ".tally-index"

  /// What every readable record in `directory` says for the tallies.
  public static func summaries(_ directory: String) -> [RecordSummary] {
    let path = directory + "/" + name
    // Believed only when it passes the rule for the player's files (else the records are read again).
    guard case .contents(let bytes) = FileExposure.read(path) else { return summaries(directory, index: "") }
    return summaries(directory, index: String(validating: bytes, as: UTF8.self) ?? "")
  }

  private static func summaries(_ directory: String, index text: String) -> [RecordSummary] {
    let path = directory + "/" + name
    let index = TallyIndex.parse(text)
    var fresh: [TallyIndex.FileStamp: RecordSummary] = [:]
    for file in FileSystem.entries(of: directory) where RecordDirectory.isRecordName(file) {
      var info = stat()
      guard lstat(directory + "/" + file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
      let stamp = TallyIndex.FileStamp(name: file, size: Int(info.st_size), modified: modified)
      if let summary = index[stamp] {
        fresh[stamp] = summary
      } else if let record = try? GameLibrary.read(directory + "/" + file) {
        fresh[stamp] = RecordSummary(record)
      }
    }
    let rendered = TallyIndex.render(fresh)
    // Not written where others may write (GameArchive writes no record there either).
    if rendered != text && FileSystem.exists(directory) && FileExposure.problem(file: path) == nil {
      try? AtomicFile.write(rendered, to: path)
    }
    return Array(fresh.values)
  }
}
