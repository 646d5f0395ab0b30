import Foundation
import TestSupport
import Testing

/// `play --engine ... --opening swap2` in plain mode: the engine is asked its part of the opening with
/// SWAP2BOARD. Our own `tictactoe brain` answers it (as the second player and as the first); the Python brain of
/// EngineGameTests, which knows no SWAP2BOARD, answers UNKNOWN, and the game starts again with the usual opening.
/// The full screen's game is EngineSwap2ScreenEndToEndTests'.
@Suite(.serialized) struct EngineSwap2EndToEndTests {
  static var ourBrain: String { "'\(Binary.path)' brain" }

  static func play(_ engine: String, first: String, input: [String]) throws -> Binary.Result {
    try Binary.run(
      ["play", "--ui", "plain", "--size", "9", "--first", first, "--engine", engine, "--opening", "swap2"],
      input: input.joined(separator: "\n") + "\n", environment: try Binary.sandbox().environment, timeout: 60)
  }

  @Test("our brain, as the second player, answers the three stones and the game goes on")
  func ourBrainAnswersThreeStones() throws {
    let result = try Self.play(Self.ourBrain, first: "me", input: ["e5", "d4", "f6", "a1", "a2", "a3"])
    #expect(
      result.stdout.contains("swap2 (the engine): choose: black, white, or place 2 more (two)"), "\(result.stdout)")
    let answered = ["engine chose black", "engine chose white", "engine chose place 2 more"]
    #expect(answered.contains { result.stdout.contains($0) }, "\(result.stdout)")
    #expect(!result.stdout.contains("forfeits"), "\(result.stdout)")
  }

  @Test("our brain, as the first player, places three stones; the player takes white and the engine plays on")
  func ourBrainPlacesThree() throws {
    let result = try Self.play(Self.ourBrain, first: "them", input: ["white", "a1", "a2"])
    #expect(result.stdout.components(separatedBy: "engine places ").count - 1 == 3, "\(result.stdout)")
    #expect(result.stdout.contains("you chose white"), "\(result.stdout)")
    #expect(result.stdout.contains("swap2: the engine plays X, you O; O to move"), "\(result.stdout)")
    #expect(result.stdout.contains("engine plays "), "\(result.stdout)")
    #expect(!result.stdout.contains("forfeits"), "\(result.stdout)")
  }

  @Test("an engine that answers UNKNOWN to SWAP2BOARD: said on screen, and the usual opening is played")
  func anEngineWithoutSwap2() throws {
    let engine = "python3 '\(EngineGameTests.brainPath)'"
    let result = try Self.play(engine, first: "me", input: ["e5", "d4", "f6", "e5", "d5"])
    #expect(
      result.stdout.contains(
        "the engine does not play Swap2 (it answered \"UNKNOWN SWAP2BOARD\"): the game starts again with the usual "
          + "opening; you play X"), "\(result.stdout)")
    #expect(result.stdout.contains("engine plays a9"), "\(result.stdout)")
    #expect(!result.stdout.contains("forfeits"), "\(result.stdout)")
  }
}
