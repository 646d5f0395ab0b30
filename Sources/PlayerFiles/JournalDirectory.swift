import Glibc
import PeerTrust
import Security
import Session

/// Where the journals of games in progress are kept (PROTOCOL.md rule 19): `<XDG_DATA_HOME>/tictactoe/journal/`,
/// one file per opponent key named by its fingerprint in hex, the directory 0700 and each file 0600, written
/// atomically, and never into a directory or over a file others may write (they could swap the game). Its work is
/// done off the event loop (`MatchFileWork`).
public struct JournalDirectory: Sendable {
  public let directory: String

  public init(paths: Paths) { directory = paths.data + "/journal" }

  /// The journal file of the game against `peer`.
  public func path(peer: Fingerprint) -> String {
    directory + "/" + peer.bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + ".journal"
  }

  /// Writes the journal against `peer` in place of the one before; the error, or nil once it is on disk.
  @discardableResult
  public func keep(_ journal: GameJournal, peer: Fingerprint) -> FileError? {
    let path = path(peer: peer)
    if let (reason, fix) = FileExposure.problem(file: path) {
      return FileError(path: path, reason: "\(reason); not written: run `\(fix)`")
    }
    do {
      try AtomicFile.write(journal.text(sha256: Digest.sha256), to: path)
      return nil
    } catch let error as FileError {
      return error
    } catch {
      return FileError(path: path, reason: "\(error)")
    }
  }

  /// Removes the journal against `peer` (nothing when there is none); the error, or nil.
  @discardableResult
  public func remove(peer: Fingerprint) -> FileError? {
    let path = path(peer: peer)
    guard unlink(path) == 0 || errno == ENOENT else {
      return FileError(path: path, reason: String(cString: strerror(errno)))
    }
    return nil
  }

  /// The journal of the game between `myKey` and the opponent `peer` (whose public key is `peerKey`): nil when
  /// there is none, the error when the file is exposed, unreadable or does not read as that game's journal.
  public func read(peer: Fingerprint, myKey: String, peerKey: String) -> Result<GameJournal, any Error>? {
    let path = path(peer: peer)
    guard FileSystem.exists(path) else { return nil }
    if let (reason, fix) = FileExposure.problem(file: path) {
      return .failure(FileError(path: path, reason: "\(reason); not read: run `\(fix)`"))
    }
    guard let bytes = FileSystem.contents(path) else { return .failure(FileError.unreadable(path)) }
    return Result { () throws(JournalError) in
      try GameJournal(
        text: String(decoding: bytes, as: UTF8.self), myKey: myKey, peerKey: peerKey, sha256: Digest.sha256)
    }.mapError { $0 as any Error }
  }
}
