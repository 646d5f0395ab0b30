import Glibc
import TerminalUI

/// Runs the full-screen UI: one poll() loop over the keyboard, signals and the AI's answers. It blocks
/// until something happens, so an idle game uses no CPU.
public final class CursesDriver {
  private let terminal: Terminal
  private var controller: UIController
  private let signals: SignalPipe
  private let computer = ComputerPlayer()
  private let onSaveSettings: (Settings) -> Void
  private let log: Log

  public init(
    terminal: Terminal, controller: UIController, signals: SignalPipe, log: Log,
    onSaveSettings: @escaping (Settings) -> Void
  ) {
    self.terminal = terminal
    self.controller = controller
    self.signals = signals
    self.log = log
    self.onSaveSettings = onSaveSettings
  }

  /// Runs until the player quits or a signal ends the game; returns the exit status.
  public func run(initial: [Effect]) -> Int32 {
    defer { terminal.restore() }
    syncSize()
    if let status = perform(initial) { return status }
    while true {
      terminal.draw(Renderer.render(controller.state))
      let ready = waitReadable(
        [terminal.inputDescriptor, signals.readDescriptor, computer.readDescriptor], timeout: -1)
      if ready.contains(signals.readDescriptor) {
        for number in signals.drain() {
          if number == SIGWINCH {
            terminal.resized()
            syncSize()
          } else {
            log.write("ended by signal \(number)")
            return 128 + number
          }
        }
      }
      if ready.contains(computer.readDescriptor) {
        for (move, token) in computer.takeResults() {
          _ = controller.computerMoved(move, token: token)
        }
      }
      for key in terminal.readKeys() {
        if key == .resize { syncSize() }
        if let status = perform(controller.handle(key)) { return status }
      }
    }
  }

  private func syncSize() {
    let size = terminal.size
    controller.resize(width: size.width, height: size.height)
  }

  /// Carries out effects; returns an exit status when one of them ends the program.
  private func perform(_ effects: [Effect]) -> Int32? {
    for effect in effects {
      switch effect {
      case .think(let game, let level, let token):
        computer.think(game: game, level: level, token: token)
      case .saveSettings(let settings):
        onSaveSettings(settings)
      case .quit:
        return 0
      }
    }
    return nil
  }
}
