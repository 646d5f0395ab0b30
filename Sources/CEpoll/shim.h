// Linux's epoll, which Swift's Glibc module leaves out. Used by EventLoop's PollSet only.
#ifndef TICTACTOE_CEPOLL_SHIM_H
#define TICTACTOE_CEPOLL_SHIM_H
#include <sys/epoll.h>

static inline int tictactoe_epoll_cloexec(void) { return EPOLL_CLOEXEC; }

#endif
