// What an engine's process needs from glibc that Swift's Glibc module leaves out (both are declared only under
// _GNU_SOURCE or __USE_MISC there): pipe2 and posix_spawn_file_actions_addclosefrom_np (glibc 2.34 and later).
// Used by App's EngineProcess only.
#ifndef TICTACTOE_CSPAWN_SHIM_H
#define TICTACTOE_CSPAWN_SHIM_H
#include <fcntl.h>
#include <spawn.h>

extern int pipe2(int fds[2], int flags);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// A pipe whose both ends are close-on-exec from the start (no moment in which a spawn elsewhere inherits them).
static inline int tictactoe_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

/// In the child, closes every descriptor from `from` up, close-on-exec or not.
static inline int tictactoe_spawn_closefrom(posix_spawn_file_actions_t *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

#endif
