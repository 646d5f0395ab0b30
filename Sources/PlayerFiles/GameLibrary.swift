import GameCore
import GameRecords
import Glibc
import PeerTrust
import Security
import UntrustedText

/// The saved games as `games`, `replay` and `verify` read them: the record files, newest first.
public enum GameLibrary {
  /// One file of the records directory and what it holds.
  public struct Entry {
    public let path: String
    public let record: Result<GameRecord, FileError>
    /// For a game of the bot's day collection: its place in the file (1 for the first); nil for a record file.
    public var game: Int? = nil
  }

  public static func directory(_ paths: Paths) -> String { paths.data + "/games" }

  /// Every record file's game and every game of the bot's day collections, newest first (a day's collection
  /// after that day's record files, its latest game first), each read (or why it could not be).
  public static func entries(_ paths: Paths) -> [Entry] {
    let folder = directory(paths)
    let names = FileSystem.entries(of: folder)
    var keyed: [(key: String, entries: [Entry])] = names.filter(RecordDirectory.isRecordName).map { name in
      let path = folder + "/" + name
      do throws(FileError) {
        return (name, [Entry(path: path, record: .success(try read(path)))])
      } catch {
        return (name, [Entry(path: path, record: .failure(error))])
      }
    }
    for name in names where RecordDirectory.isBotCollectionName(name) {
      // "bot-2026-12-01.sgf" sorts as that day's start ("2026-12-01" comes before "2026-12-01T…").
      let day = String(name.dropFirst(4).prefix(10))
      let path = folder + "/" + name
      do throws(FileError) {
        let games = try readCollection(path)
        keyed.append((day, games.enumerated().reversed().map { Entry(path: path, record: .success($1), game: $0 + 1) }))
      } catch {
        keyed.append((day, [Entry(path: path, record: .failure(error))]))
      }
    }
    return keyed.sorted { $0.key > $1.key }.flatMap(\.entries)
  }

  /// The games of one of the bot's day collections.
  public static func readCollection(_ path: String) throws(FileError) -> [GameRecord] {
    let text = try text(path)
    do throws(SGFError) {
      return try GameRecord.parseCollection(text)
    } catch {
      throw FileError(path: path, reason: error.description)
    }
  }

  /// Reads one record file: a regular file of at most the parser's size, UTF-8, one GM[4] game.
  public static func read(_ path: String) throws(FileError) -> GameRecord {
    let text = try text(path)
    do throws(SGFError) {
      return try GameRecord.parse(text)
    } catch {
      throw FileError(path: path, reason: error.description)
    }
  }

  /// A record file's text: a regular file of at most the parser's size, UTF-8.
  private static func text(_ path: String) throws(FileError) -> String {
    var info = stat()
    guard stat(path, &info) == 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    guard info.st_mode & S_IFMT == S_IFREG else { throw FileError(path: path, reason: "is not a regular file") }
    let limit = SGFLimits.standard.maximumBytes
    guard Int(info.st_size) <= limit else {
      throw FileError(path: path, reason: "is \(info.st_size) bytes, more than a record may be (\(limit))")
    }
    guard let bytes = FileSystem.contents(path) else { throw FileError.unreadable(path) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw FileError(path: path, reason: "is not UTF-8 text")
    }
    return text
  }
}

/// One game as `tictactoe games` shows it, from the player's side where the record says which side that was.
public struct GameRow: Equatable {
  public var date: String
  public var opponent: String
  public var rules: String
  public var result: String
  public var moves: Int

  /// `myKey` is this player's public key; `petname` gives the name this player knows a key by.
  /// `asBot`: a game of this player's practice bot (its day collection), seen from the bot's side.
  public init(_ record: GameRecord, myKey: String?, petname: (String) -> String?, asBot: Bool = false) {
    self.init(record, mine: OwnKeys(current: myKey), petname: petname, asBot: asBot)
  }

  /// `mine` are this player's keys: the one in use and the ones it replaced, so an old game stays the player's.
  public init(_ record: GameRecord, mine: OwnKeys, petname: (String) -> String?, asBot: Bool = false) {
    date = record.date.isEmpty ? "?" : VisibleText.escaping(record.date)
    rules = record.rules.description
    moves = record.moves.count
    let me: Mark?
    if asBot {
      me = record.black.level != nil ? .x : record.white.level != nil ? .o : nil
    } else if record.black.level != nil {
      me = .o
    } else if record.white.level != nil {
      me = .x
    } else if mine.contains(record.black.publicKey) {
      me = .x
    } else if mine.contains(record.white.publicKey) {
      me = .o
    } else {
      me = nil
    }
    func named(_ player: GameRecord.Player) -> String {
      // An outside engine is named by its program (its level is "engine"), the computer by its level.
      if player.level == GameRecord.Player.engineLevel { return "\(VisibleText.escaping(player.name)) (engine)" }
      if let level = player.level { return "\(GameRecord.Player.computerName) (\(VisibleText.escaping(level)))" }
      if let key = player.publicKey, let known = petname(key) { return VisibleText.escaping(known) }
      return VisibleText.escaping(player.name)
    }
    if let me {
      opponent = named(record.player(me.opponent))
    } else if record.black.publicKey == nil && record.white.publicKey == nil {
      opponent = "hot seat"
    } else {
      opponent = "\(named(record.black)) vs \(named(record.white))"
    }
    switch record.result {
    case .unknown: result = "?"
    case .void: result = "aborted"
    case .disputed: result = "disputed"
    case .drawn(.full): result = "draw"
    case .drawn(.agreed): result = "draw by agreement"
    case .drawn(.dead): result = "draw (dead position)"
    case .won(let winner, let reason):
      let how =
        [
          EndReason.line: "", .resignation: " by resignation", .time: " on time", .claim: " by claim",
          .left: " by forfeit",
          .forfeit: " by the engine's forfeit",
        ][reason]
        ?? ""
      if let me { result = (winner == me ? "won" : "lost") + how } else { result = "\(winner) won" + how }
    }
  }
}
