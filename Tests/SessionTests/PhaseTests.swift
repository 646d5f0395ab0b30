import Testing

@testable import Session

@Suite struct PhaseTests {
  /// The words an unexpected message's report puts after it.
  @Test func eachPhaseSaysWhenInWords() {
    let moments: [(NetSession.Phase, String)] = [
      (.greeting, "while greeting"), (.awaitingDecision, "while the host decides"),
      (.awaitingWelcome, "while waiting for the welcome"), (.tossing, "during the coin toss"),
      (.playing, "during a game"), (.betweenGames, "between games"), (.closed(.localQuit), "after the end"),
    ]
    for (phase, words) in moments { #expect(phase.moment == words) }
  }
}
