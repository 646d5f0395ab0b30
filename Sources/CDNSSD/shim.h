// DNS-SD through Avahi's Bonjour compatibility layer (libavahi-compat-libdnssd-dev).
#ifndef TICTACTOE_CDNSSD_SHIM_H
#define TICTACTOE_CDNSSD_SHIM_H
#include <dlfcn.h>
#include <stdlib.h>
#include <avahi-common/malloc.h>
#include <dns_sd.h>

// Avahi 0.8's compatibility layer allocates each DNSServiceRef with plain malloc and leaves the callback fields it
// does not use uninitialised. When avahi-daemon goes away, its client callback calls the first non-NULL one, so a
// resolve or record query can jump to garbage (fixed upstream in 2024, avahi PR #569; Debian 12 still has it).
// Routing Avahi's allocations through calloc makes those fields NULL. avahi_set_allocator lives in
// libavahi-common, which libdns_sd already loads; it is looked up at run time so nothing more is linked.

static void *tictactoe_avahi_zeroed_malloc(size_t size) { return calloc(1, size); }

static const AvahiAllocator tictactoe_avahi_zeroing_allocator = {
  tictactoe_avahi_zeroed_malloc, free, realloc, calloc
};

/// Installs the zeroing allocator; returns 1 when avahi_set_allocator was found. Call before any DNS-SD call.
static inline int tictactoe_avahi_zero_allocations(void) {
  void (*set_allocator)(const AvahiAllocator *) =
    (void (*)(const AvahiAllocator *))dlsym(RTLD_DEFAULT, "avahi_set_allocator");
  if (set_allocator == NULL) return 0;
  set_allocator(&tictactoe_avahi_zeroing_allocator);
  return 1;
}

#endif
