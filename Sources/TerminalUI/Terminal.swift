/// A terminal the UI can draw on and read keys from: the curses backend, or a scripted one in tests.
public protocol Terminal: AnyObject {
  /// Columns and rows, as the terminal reports them now.
  var size: (width: Int, height: Int) { get }
  /// A descriptor that becomes readable when keys are waiting (for poll()).
  var inputDescriptor: Int32 { get }
  /// Shows `screen`, sending only what changed.
  func draw(_ screen: ScreenBuffer)
  /// Every key waiting now, without blocking.
  func readKeys() -> [Key]
  /// Adopts a new size after the window changed.
  func resized()
  /// Makes the next `draw` clear the terminal and send every cell, whatever it believes is on the screen.
  func repaint()
  /// Takes the terminal back after the program was stopped and continued (SIGCONT): the program's modes (no echo,
  /// keys one at a time), its screen, and every cell drawn again at the next `draw`.
  func resume()
  /// Gives the terminal back as it was found.
  func restore()
}
