import CursesBackend
import EventLoop
import Glibc
import NetworkShell
import TerminalUI

/// The full-screen replay on the event loop: keys step through the game; SIGWINCH redraws; the other signals end it.
package final class ReplayDriver: LoopFrontEnd {
  private var replay: Replay
  private let glyphs: Glyphs
  private let terminal: CursesTerminal
  package let loop = EventLoop()
  package var shutdown = Shutdown()

  package init(replay: Replay, glyphs: Glyphs, noColor: Bool) {
    self.replay = replay
    self.glyphs = glyphs
    terminal = CursesTerminal(useColor: !noColor)
  }

  package func run() -> Int32 {
    defer { terminal.restore() }
    takeSignals()
    loop.watch(terminal.inputDescriptor, events: Int16(POLLIN)) { [unowned self] _ in
      for key in terminal.readKeys() where !replay.handle(key) {
        end(0)
        return
      }
    }
    loop.beforeEachWait { [unowned self] in
      if stopIfDone() { return }
      let size = terminal.size
      terminal.draw(ReplayView.render(replay, width: size.width, height: size.height, glyphs: glyphs))
    }
    loop.run()
    return shutdown.status ?? 0
  }

  /// A replay has no peer to tell.
  package func sayGoodbye(signal: Int32) {}
  package var goodbyesGoingOut: Int { 0 }
  package func redraw() { terminal.resized() }
  package func resumed() {
    terminal.resume()
    terminal.resized()
  }
}
