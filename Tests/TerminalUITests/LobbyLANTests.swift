import Testing

@testable import TerminalUI

/// The lobby's list of LAN games at 80×24: what each entry shows, and which stays selected as games come and go.
@Suite struct LobbyLANTests {
  static func row(_ id: String, addresses: String, trust: String = "known") -> LANGameRow {
    LANGameRow(
      id: id, rules: "3x3, 3 in a row", state: "waiting", trust: trust, addresses: addresses,
      board: .init(rows: 3, columns: 3, k: 3))
  }

  static func line(_ ui: UIController, containing id: String) -> String {
    Screens.text(ui).split(separator: "\n").first { $0.contains(id) }.map(String.init) ?? ""
  }

  @Test("an entry shows the trust and the first address with its port before the rules, × as elsewhere")
  func entryFields() {
    var ui = Screens.ui(80, 24, .unicode)
    let v6 = "[fe80::1a2b:3c4d:5e6f:7a8b%enp3s0f1]:7177"
    ui.showLANGames([Self.row("alice's game", addresses: "\(v6) 192.168.1.20:7177")], status: nil)
    let line = Self.line(ui, containing: "alice's game")
    #expect(line.contains("alice's game · known · \(v6) (+1)"), "\(line)")
    #expect(line.count <= 80)
    var ascii = Screens.ui(80, 24, .ascii)
    ascii.showLANGames([Self.row("bob", addresses: "10.0.0.7:7177")], status: nil)
    #expect(Self.line(ascii, containing: "bob").contains("bob | known | 10.0.0.7:7177 | 3x3, 3 in a row | waiting"))
    #expect(Self.line(ui, containing: "alice").contains("3×3") || !Self.line(ui, containing: "alice").contains("3x3"))
  }

  @Test("the selected game stays selected when another is announced before it, and after a failed join")
  func selectionFollowsTheGame() {
    var ui = Screens.ui(80, 24, .unicode)
    ui.showLANGames(
      [Self.row("alice", addresses: "10.0.0.5:7177"), Self.row("bob", addresses: "10.0.0.6:7177")], status: nil)
    for _ in 0..<7 { _ = ui.handle(.down) }
    #expect(ui.state.lanSelection.map { ui.state.lanGames[$0].id } == "bob")
    ui.showLANGames(
      [Self.row("aaron", addresses: "10.0.0.4:7177")] + ui.state.lanGames, status: nil)
    #expect(ui.state.lanSelection.map { ui.state.lanGames[$0].id } == "bob", "the cursor did not move to another game")
    #expect(ui.handle(.enter) == [.joinLAN("bob")])
  }

  @Test("a game that may be watched shows Watch, and w watches it; w on another game does nothing")
  func watchEntry() {
    var ui = Screens.ui(80, 24, .ascii)
    var robo = Self.row("robo", addresses: "10.0.0.5:7177")
    robo.watchable = true
    ui.showLANGames([robo, Self.row("bob", addresses: "10.0.0.6:7177")], status: nil)
    #expect(Self.line(ui, containing: "robo").hasSuffix("| waiting | w: Watch"), "\(Self.line(ui, containing: "robo"))")
    #expect(!Self.line(ui, containing: "bob").contains("Watch"))
    #expect(ui.handle(.character("w")).isEmpty, "no game selected yet")
    for _ in 0..<6 { _ = ui.handle(.down) }
    #expect(ui.state.lanSelection.map { ui.state.lanGames[$0].id } == "robo")
    #expect(ui.handle(.character("w")) == [.watchLAN("robo")])
    #expect(ui.handle(.enter) == [.joinLAN("robo")], "Enter still joins")
    _ = ui.handle(.down)
    #expect(ui.handle(.character("w")).isEmpty, "bob's game may not be watched")
  }
}
