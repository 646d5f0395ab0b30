// The benchmark's C baseline for a terminal program: starts ncursesw the way the game does, draws the lines it
// is given (one per screen row) in one refresh, then waits for a key without using the CPU. `q` or end of
// input quits. Its first-frame time and its resident memory are what a C program pays for the same frame.
// tictactoe-bench compiles it with `cc -O2 ... -lncursesw` when it runs (Sources/tictactoe-bench/PlayerHome.swift).
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/ncurses.h>

int main(int argc, char **argv) {
  setlocale(LC_ALL, "");
  initscr();
  cbreak();
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  curs_set(0);
  if (has_colors()) {
    start_color();
    use_default_colors();
  }
  for (int row = 1; row < argc && row - 1 < LINES; row++) mvaddstr(row - 1, 0, argv[row]);
  refresh();
  int key;
  do key = getch();
  while (key != 'q' && key != ERR);
  endwin();
  return 0;
}
