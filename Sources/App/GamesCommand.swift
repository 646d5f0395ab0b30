import FrontEnds
import GameRecords
import Glibc
import NetworkShell
import PeerTrust
import PlayerFiles
import Security
import UntrustedText

/// `tictactoe games ...`
public enum GamesCommand: Sendable, Equatable {
  /// List the saved games, newest first (numbered from 1), as a table or JSON.
  case list(json: Bool)
  /// Delete the games with these numbers (as the list numbers them), or every game (`all`, asked at the terminal
  /// unless `confirmed` by `--yes`).
  case delete([String], confirmed: Bool = false)
}

extension GamesCommand: Command {
  static let name = CommandLineGrammar.Command.games

  /// `games`, `games list [--json]`, `games delete N... | all`.
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    let words = arguments.words
    let json = arguments.has("--json")
    switch words.first {
    case nil, "list":
      guard words.count <= 1 else { throw UsageError(message: "games list takes no arguments") }
      if arguments.has("--yes") { throw UsageError(message: "--yes goes with `tictactoe games delete all`") }
      return .games(.list(json: json))
    case "delete":
      let targets = Array(words.dropFirst())
      guard !targets.isEmpty else { throw UsageError(message: "games delete needs game numbers or all") }
      guard targets == ["all"] || targets.allSatisfy({ Int($0).map { $0 > 0 } ?? false }) else {
        throw UsageError(message: "games delete takes game numbers (as `tictactoe games` lists them) or all")
      }
      if json { throw UsageError(message: "--json goes with `tictactoe games list`") }
      return .games(.delete(targets, confirmed: arguments.has("--yes")))
    default:
      throw UsageError(message: "games knows list and delete, not \"\(words[0])\"")
    }
  }

  /// Lists or deletes the saved games of this user.
  static func run(_ command: GamesCommand, environment: [String: String]) -> Int32 {
    let profile = RunContext.profile(environment, name: nil)
    let entries = GameLibrary.entries(profile.paths)
    switch command {
    case .list(let json):
      let index = GameLibrary.directory(profile.paths) + "/" + TallyIndexFile.name
      if let (reason, fix) = FileExposure.problem(file: index) {
        writeError(
          "tictactoe: warning: your game records \(reason): someone else could have changed them, and no new "
            + "record is written there until you run `\(fix)`\n")
      }
      let mine = IdentityStore(directory: profile.identityDirectory).ownKeys()
      let known = (try? profile.knownPeers()) ?? KnownPeers()
      let petname = { (key: String) in Fingerprint(publicKeyBase64: key).flatMap { known.lookup(fingerprint: $0)?.name }
      }
      let rows = entries.map { entry in
        entry.record.map { GameRow($0, mine: mine, petname: petname, asBot: entry.game != nil) }
      }
      writeAll(1, json ? GamesCommand.json(entries, rows) + "\n" : GamesCommand.table(rows))
      return ExitStatus.ok
    case .delete(let targets, let confirmed):
      return delete(targets, confirmed: confirmed, from: entries)
    }
  }

  /// Deletes the chosen games: `all` only once the player said yes (or `--yes`).
  private static func delete(_ targets: [String], confirmed: Bool, from entries: [GameLibrary.Entry]) -> Int32 {
    let chosen: [GameLibrary.Entry]
    if targets == ["all"] {
      guard !entries.isEmpty else {
        writeAll(1, "No games saved yet.\n")
        return ExitStatus.ok
      }
      if !confirmed {
        let plural = entries.count == 1 ? "your 1 saved game" : "all \(entries.count) of your saved games"
        switch YesOrNo.ask("Delete \(plural)? This cannot be undone.") {
        case true?: break
        case false?:
          writeError("tictactoe: nothing was deleted.\n")
          return ExitStatus.failure
        case nil:
          writeError(
            "tictactoe: nothing was deleted: `games delete all` asks first, and there is no terminal to ask at. "
              + "Run `tictactoe games delete all --yes` to delete every game without asking.\n")
          return ExitStatus.failure
        }
      }
      chosen = entries
    } else {
      let numbers = targets.compactMap { Int($0) }
      if let missing = numbers.first(where: { $0 > entries.count }) {
        writeError("tictactoe: there is no game \(missing): `tictactoe games` lists \(entries.count)\n")
        return ExitStatus.usage
      }
      chosen = Set(numbers).sorted().map { entries[$0 - 1] }
      // The bot's games are kept a day to a file: one of them goes with its whole day, asked for by `all`.
      if let inCollection = chosen.first(where: { $0.game != nil }),
        let number = entries.firstIndex(where: { $0.path == inCollection.path && $0.game == inCollection.game })
      {
        writeError(
          "tictactoe: game \(number + 1) is in the bot's collection \(inCollection.path), kept a day to a file:"
            + " remove that file, or every record with `tictactoe games delete all`\n")
        return ExitStatus.usage
      }
    }
    var deleted = 0
    var failed = false
    var removedFiles: Set<String> = []
    for entry in chosen where !removedFiles.contains(entry.path) {
      if unlink(entry.path) == 0 {
        removedFiles.insert(entry.path)
        deleted += entry.game == nil ? 1 : chosen.filter { $0.path == entry.path }.count
      } else {
        failed = true
        writeError("tictactoe: \(entry.path): \(String(cString: strerror(errno)))\n")
      }
    }
    writeAll(1, "Deleted \(deleted) game record\(deleted == 1 ? "" : "s").\n")
    if let note = renumberingNote(deleted: targets.compactMap { Int($0) }, count: entries.count) {
      writeMessage(1, note)
    }
    return failed ? ExitStatus.failure : ExitStatus.ok
  }

  /// After deleting games by number from a list of `count`: a note that the games listed after the first one
  /// deleted now have other numbers; nil when none does.
  static func renumberingNote(deleted numbers: [Int], count: Int) -> String? {
    guard let first = numbers.min(), first < count, Set(numbers).count < count - first + 1 else { return nil }
    return "The games left are numbered afresh: `tictactoe games` shows their new numbers.\n"
  }

  /// The table: a number, the date, the opponent, the rules, the result, the moves; a file that does not read is
  /// listed with why.
  static func table(_ rows: [Result<GameRow, FileError>]) -> String {
    guard !rows.isEmpty else { return "No games saved yet.\n" }
    var lines = [["#", "date", "opponent", "rules", "result", "moves"]]
    for (index, row) in rows.enumerated() {
      switch row {
      case .success(let row):
        lines.append(["\(index + 1)", row.date, row.opponent, row.rules, row.result, "\(row.moves)"])
      case .failure(let error):
        lines.append(["\(index + 1)", "unreadable: \(VisibleText.escaping(error.description))"])
      }
    }
    let widths = (0..<6).map { column in
      lines.filter { $0.count == 6 }.map { $0[column].count }.max() ?? 0
    }
    return lines.map { fields in
      guard fields.count == 6 else { return fields.joined(separator: "  ") }
      return fields.enumerated().map { column, text in
        column == 5 ? text : text + String(repeating: " ", count: widths[column] - text.count)
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  static func json(_ entries: [GameLibrary.Entry], _ rows: [Result<GameRow, FileError>]) -> String {
    let objects: [JSONText] = zip(entries, rows).enumerated().map { index, pair in
      let (entry, row) = pair
      var object: [String: JSONText] = ["number": .number(index + 1), "file": .string(entry.path)]
      if let game = entry.game { object["game"] = .number(game) }  // its place in the bot's day collection
      switch (entry.record, row) {
      case (.success(let record), .success(let row)):
        object["date"] = .string(record.date)
        object["black"] = .string(record.black.name)
        object["white"] = .string(record.white.name)
        object["opponent"] = .string(row.opponent)
        object["rules"] = .object([
          "rows": .number(record.rules.rows), "columns": .number(record.rules.columns), "k": .number(record.rules.k),
        ])
        object["result"] = .string(row.result)
        object["moves"] = .number(record.moves.count)
      case (.failure(let error), _), (_, .failure(let error)):
        object["problem"] = .string(error.description)
      }
      return .object(object)
    }
    return JSONText.array(objects).text
  }
}
