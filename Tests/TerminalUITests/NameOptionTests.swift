import Testing

@testable import TerminalUI

/// The name other players see is set in Options: Enter on "Your name" opens a field.
@Suite struct NameOptionTests {
  private func onName() -> UIController {
    var ui = Screens.ui(80, 24, .unicode)
    for _ in 0..<4 { _ = ui.handle(.down) }
    _ = ui.handle(.enter)  // Options
    for _ in 0..<4 { _ = ui.handle(.down) }
    #expect(ui.state.optionSelection == .name)
    return ui
  }

  @Test func aTypedNameIsKeptAndSavedWithTheOptions() {
    var ui = onName()
    #expect(Screens.text(ui).contains("Your name       (your login name)"))
    _ = ui.handle(.enter)
    #expect(ui.state.nameField != nil)
    _ = ui.handle(.paste("Zoë Q"))
    #expect(Screens.text(ui).contains("type your name · Enter keep · Esc cancel"))
    _ = ui.handle(.enter)
    #expect(ui.state.settings.name == "Zoë Q")
    #expect(ui.state.nameField == nil)
    #expect(Screens.text(ui).contains("Your name       Zoë Q"))
    #expect(ui.handle(.escape) == [.saveSettings(ui.state.settings)])
    #expect(ui.state.settings.name == "Zoë Q")
  }

  @Test func theOptionsHelpSaysHowToTypeTheName() {
    var ui = onName()
    _ = ui.handle(.character("?"))
    #expect(Screens.text(ui).contains("Enter on a name  type the name others see"))
  }

  @Test func typedLettersGoIntoTheFieldNotTheMenu() {
    var ui = onName()
    _ = ui.handle(.enter)
    for character in "qjk" { _ = ui.handle(.character(character)) }
    #expect(ui.state.page == .options, "q is typed, not a way out")
    _ = ui.handle(.enter)
    #expect(ui.state.settings.name == "qjk")
  }

  @Test func escapeCancelsAndAnEmptyNameIsTheLoginNameAgain() {
    var ui = onName()
    _ = ui.handle(.enter)
    _ = ui.handle(.paste("bob"))
    _ = ui.handle(.escape)
    #expect(ui.state.settings.name == nil)
    _ = ui.handle(.enter)
    _ = ui.handle(.paste("bob"))
    _ = ui.handle(.enter)
    _ = ui.handle(.enter)
    _ = ui.handle(.control("u"))
    _ = ui.handle(.enter)
    #expect(ui.state.settings.name == nil)
  }

  @Test func aNameThePeerWouldRefuseIsRefusedHere() {
    var ui = onName()
    _ = ui.handle(.enter)
    _ = ui.handle(.paste(String(repeating: "n", count: 33)))
    _ = ui.handle(.enter)
    #expect(ui.state.settings.name == nil)
    #expect(ui.state.nameField != nil, "the field stays open to fix it")
    #expect(Screens.text(ui).contains("A name is at most 32 characters."))
    #expect(UIController.problem(withName: "ab\u{202E}c") != nil)
    #expect(UIController.problem(withName: String(repeating: "n", count: 32)) == nil)
  }
}
