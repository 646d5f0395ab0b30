import GameCore
import Testing
import UntrustedText

@testable import TerminalUI

/// Version 3's game flow on the full screen (issue 24): the keys for draws, takebacks, declining and abort, the
/// footer that offers the answers first, and both clocks in the panel at 80×24 on a 15×15 board.
@Suite struct GameFlowScreenTests {
  /// `abortable` is the session's word (`mayAbort`): by default, before both sides have moved.
  static func timed(
    moves: [String] = ["h8", "h9", "i8"], offer: NetGameState.Offer? = nil, flow: Bool = true,
    abortable: Bool? = nil
  ) throws -> UIController {
    var ui = try NetworkScreens.match(size: 15, k: 5, moves: moves, glyphs: .unicode)
    var net = try #require(ui.state.net)
    net.hasGameFlow = flow
    net.abortable = abortable ?? (moves.count < 2)
    net.peerOffer = offer
    net.clocks = .init(mine: 272_400, theirs: 9_999, running: .theirs, control: "5+3")
    ui.showNetwork(net)
    return ui
  }

  @Test func theKeysAskForWhatTheyNameOnlyWhenItCanBeAsked() throws {
    var ui = try Self.timed()
    #expect(ui.handle(.character("D")) == [.netDraw])
    #expect(ui.handle(.character("u")) == [.netTakeback])
    #expect(ui.handle(.character("x")) == [], "nothing to decline")
    #expect(ui.handle(.character("A")) == [], "both sides have moved")
    var fresh = try Self.timed(moves: ["h8"])
    #expect(fresh.handle(.character("A")) == [.netAbort])
    // Back to one move by a takeback after both had moved: the session says no abort, and A does nothing.
    var tookBack = try Self.timed(moves: ["h8"], abortable: false)
    #expect(tookBack.handle(.character("A")) == [], "both sides had moved")
    var offered = try Self.timed(offer: .draw)
    #expect(offered.handle(.character("x")) == [.netDecline])
    // With a version-2 peer none of it exists: the letters do nothing.
    var old = try Self.timed(moves: ["h8"], flow: false)
    for key in ["D", "u", "A"] { #expect(old.handle(.character(Character(key))) == [], "\(key)") }
    // After the game the letters do nothing either.
    var over = try Self.timed()
    over.updateNetwork { $0.result = "You win!" }
    #expect(over.handle(.character("D")) == [] && over.handle(.character("u")) == [])
  }

  @Test func theFooterPutsTheAnswersToAnOfferFirst() throws {
    let draw = Screens.text(try Self.timed(offer: .draw)).split(separator: "\n").last.map(String.init) ?? ""
    #expect(draw.hasPrefix(" D accept the draw · x decline"), "\(draw)")
    let takeback = Screens.text(try Self.timed(offer: .takeback)).split(separator: "\n").last.map(String.init) ?? ""
    #expect(takeback.hasPrefix(" u accept the takeback · x decline"), "\(takeback)")
    let start = Screens.text(try Self.timed(moves: ["h8"])).split(separator: "\n").last.map(String.init) ?? ""
    #expect(start.contains("A abort"), "\(start)")
    let tookBack = Screens.text(try Self.timed(moves: ["h8"], abortable: false)).split(separator: "\n").last
    #expect(tookBack.map { !$0.contains("A abort") && $0.contains("D draw") } == true, "\(tookBack ?? "")")
    let old = Screens.text(try Self.timed(flow: false)).split(separator: "\n").last.map(String.init) ?? ""
    #expect(!old.contains("D draw") && !old.contains("A abort"), "\(old)")
  }

  @Test func bothClocksShowAboveTheStatusAt80By24OnFifteenByFifteen() throws {
    let ui = try Self.timed()
    let rows = Screens.text(ui).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let clockRow = try #require(rows.firstIndex { $0.contains("You 4:32") }, "\(Screens.text(ui))")
    // The opponent's 32-character name is cut so both times fit the panel; the running clock is marked.
    #expect(rows[clockRow].contains("▸Bartholome…") && rows[clockRow].hasSuffix(" 0:09"), "\(rows[clockRow])")
    #expect(rows[clockRow + 1].contains("You play i8."), "the status is below the clocks: \(rows[clockRow + 1])")
    // Every row of the board is still on the screen.
    #expect(rows.contains { $0.hasPrefix("  1 ") } && rows.contains { $0.hasPrefix(" 15 ") }, "\(Screens.text(ui))")
  }

  @Test func theClockLineLeavesOutTheControlThenCutsTheNameToFit() {
    let clocks = NetGameState.Clocks(mine: 61_000, theirs: 5_000, running: .mine, control: "1+0")
    let names = ("You", "bob")
    #expect(NetPanelView.clockLine(clocks, names: names, width: 40, glyphs: .unicode).0 == "▸You 1:01 · bob 0:05 (1+0)")
    #expect(NetPanelView.clockLine(clocks, names: names, width: 20, glyphs: .unicode).0 == "▸You 1:01 · bob 0:05")
    #expect(NetPanelView.clockLine(clocks, names: names, width: 40, glyphs: .ascii).0 == ">You 1:01 | bob 0:05 (1+0)")
    let low = NetGameState.Clocks(mine: 9_000, theirs: 5_000, running: .mine, control: "1+0", lowMine: true)
    #expect(NetPanelView.clockLine(low, names: names, width: 40, glyphs: .unicode).1.color == .warning)
    #expect(NetGameState.Clocks.isLow(9_999, base: 60_000) && !NetGameState.Clocks.isLow(10_000, base: 60_000))
    #expect(NetGameState.Clocks.isLow(29_999, base: 300_000) && !NetGameState.Clocks.isLow(30_000, base: 300_000))
  }

  @Test func theHelpListsTheFlowKeysAndFitsTwentyFourRows() throws {
    var ui = try Self.timed()
    _ = ui.handle(.character("?"))
    let help = Screens.text(ui)
    #expect(help.contains("D, u ") && help.contains("decline their offer") && help.contains("abort"), "\(help)")
    #expect(help.contains("Press any key to close."), "the help box was cut: \(help)")
  }
}

@Suite struct ClockOptionScreenTests {
  @Test func optionsCyclesTheUsualClocksAndKeepsThePlayersOwn() throws {
    var ui = Screens.ui(80, 24, .unicode)
    ui.state.page = .options
    ui.state.optionSelection = .clock
    #expect(Screens.text(ui).contains("Clock           < none >") && Screens.text(ui).contains("< none >"))
    _ = ui.adjust(.clock, by: 1)
    #expect(ui.state.settings.clock == .fischer(base: 60_000, increment: 0))
    #expect(Screens.text(ui).contains("< 1+0 (1 min a game) >"), "\(Screens.text(ui))")
    _ = ui.adjust(.clock, by: -2)
    #expect(ui.state.settings.clock == .perMove(30_000), "back past none wraps to the last choice")
    // The player's own from settings.conf is shown, and comes after the usual ones.
    ui.state.settings.clock = .fischer(base: 120_000, increment: 1_000)
    #expect(Screens.text(ui).contains("< 2+1 (2 min + 1 s a move) >"), "\(Screens.text(ui))")
    _ = ui.adjust(.clock, by: -1)
    #expect(ui.state.settings.clock == .perMove(30_000))
    _ = ui.adjust(.clock, by: 1)
    #expect(ui.state.settings.clock == .none)
  }
}

@Suite struct TermsDialogScreenTests {
  @Test func theTermsAreAskedInADialogAndNothingSaysTheHostIsDeciding() {
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: false, myName: "bob")
    net.peerName = PeerText("alice")
    net.terms = ["alice offers 15×15, 5 in a row, with a clock: 5 min + 3 s a move.", "Play on these terms?"]
    ui.showNetwork(net)
    let screen = Screens.text(ui)
    #expect(screen.contains("Play on these terms?") && screen.contains("y play · n decline"), "\(screen)")
    #expect(!screen.contains("Waiting for alice to let you in"), "\(screen)")
    #expect(ui.handle(.character("x")) == [] && ui.state.net?.terms != nil, "another key answers nothing")
    #expect(ui.handle(.character("n")) == [.netAnswer(false)] && ui.state.net?.terms == nil)
  }
}
