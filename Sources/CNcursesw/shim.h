// Wrappers for ncursesw names that Swift cannot import directly: macros, variadic functions and global
// variables (which Swift 6 rejects as not concurrency-safe).
#ifndef TICTACTOE_CNCURSESW_SHIM_H
#define TICTACTOE_CNCURSESW_SHIM_H

#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <sys/ioctl.h>
#include <ncursesw/ncurses.h>
#include <ncursesw/term.h>

static inline WINDOW *ttt_stdscr(void) { return stdscr; }
static inline int ttt_lines(void) { return LINES; }
static inline int ttt_cols(void) { return COLS; }
static inline int ttt_colors(void) { return COLORS; }

static inline int ttt_attr_bold(void) { return (int)A_BOLD; }
static inline int ttt_attr_reverse(void) { return (int)A_REVERSE; }
static inline int ttt_attr_dim(void) { return (int)A_DIM; }
static inline int ttt_attr_underline(void) { return (int)A_UNDERLINE; }
static inline int ttt_color_pair(int n) { return (int)COLOR_PAIR(n); }

static inline int ttt_key_f(int n) { return KEY_F(n); }

static inline mmask_t ttt_mouse_all(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t ttt_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t ttt_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t ttt_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t ttt_button1_double(void) { return BUTTON1_DOUBLE_CLICKED; }

static inline void ttt_set_locale(void) { setlocale(LC_ALL, ""); }

// Whether the terminal TERM names can be drawn on full screen, asked of terminfo without initscr (which
// exits the program with "Error opening terminal" when it cannot): 0 yes; 1 known, but it cannot move the
// cursor or clear the screen (TERM=dumb); -1 not in terminfo, or no TERM.
static inline int ttt_terminal_usable(void) {
  int error = 0;
  if (setupterm(NULL, 1, &error) != OK) return -1;
  char *move = tigetstr("cup");
  char *clear = tigetstr("clear");
  int usable = move != NULL && move != (char *)-1 && clear != NULL && clear != (char *)-1;
  del_curterm(cur_term);
  return usable ? 0 : 1;
}

/// The terminal's size from the kernel (after SIGWINCH); 0 on success.
static inline int ttt_window_size(int fd, int *rows, int *cols) {
  struct winsize ws;
  if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
  *rows = ws.ws_row;
  *cols = ws.ws_col;
  return 0;
}

#endif
