import GameCore
import Session
import WireProtocol

/// What the bot does after something happened on one connection: messages to send, games that ended (for the
/// log), and whether the connection is over.
package struct BotReaction: Equatable {
  var messages: [Message] = []
  /// Sent after the signatures of the games this reaction ends (the offer of the next game), in the same write.
  var afterRecords: [Message] = []
  var games: [BotGameRecord] = []
  /// The joiner was let in just now (remember it if the admission says so).
  var admitted = false
  /// The session ended: send `messages`, then close the connection.
  var end: SessionEnd?
  /// The connection went away mid-game and the seat keeps the game for the joiner to come back to (PROTOCOL.md
  /// rule 19): the host holds the seat (`BotKeptGames`) instead of forgetting it.
  var keep = false
  /// The bot is to move and its move is chosen off the seat (an engine, or a search on a worker thread): the
  /// host answers with `BotSeat.answer`.
  var moveWanted: BotMoveRequest?

  /// What goes out in the reaction's one write: its messages, the signatures of the games it ends, then the
  /// messages that follow them (the offer of the next game).
  func wire(signatures: [Message]) -> [Message] {
    // A move's answer (nearly every reaction) is its messages alone: no new array for it.
    signatures.isEmpty && afterRecords.isEmpty ? messages : messages + signatures + afterRecords
  }

  /// Nothing to send, record, close or choose.
  var isEmpty: Bool {
    messages.isEmpty && afterRecords.isEmpty && games.isEmpty && !admitted && end == nil && !keep && moveWanted == nil
  }

  /// Adds `right`, which is taken rather than copied: its arrays move over whole into empty ones (a move's
  /// reaction is gathered from several), with no references counted up and down for them.
  static func += (left: inout BotReaction, right: consuming BotReaction) {
    left.messages.join(&right.messages)
    left.afterRecords.join(&right.afterRecords)
    left.games.join(&right.games)
    left.admitted = left.admitted || right.admitted
    left.end = left.end ?? right.end
    left.keep = left.keep || right.keep
    left.moveWanted = right.moveWanted ?? left.moveWanted
  }
}

/// A move the bot's seat waits for: the game to move in, and the ticket that says where it stood when asked.
package struct BotMoveRequest: Equatable {
  /// Which game of the match, and how many moves it had: an answer for another moment is dropped.
  struct Ticket: Equatable, Sendable {
    let gameNumber: Int
    let moves: Int
  }

  let game: Game
  let ticket: Ticket
}

/// What came back for a move asked for.
package enum BotMoveAnswer: Equatable, Sendable {
  /// The move (nil: nothing to play; the bot resigns).
  case move(Position?)
  /// The bot's player cannot go on (an engine that forfeits): the joiner is told `text` in the chat, and the
  /// bot resigns, which both signed records say alike.
  case forfeit(String)
}

extension Array {
  /// Appends `other`'s elements; into an empty array `other`'s storage moves as it is (swapped: no new storage
  /// and no reference counted), and `other` is left empty then (else as it was).
  mutating func join(_ other: inout [Element]) {
    if isEmpty { swap(&self, &other) } else { self += other }
  }
}
