// DNS-SD through Avahi's Bonjour compatibility layer (libavahi-compat-libdnssd-dev).
#ifndef TICTACTOE_CDNSSD_SHIM_H
#define TICTACTOE_CDNSSD_SHIM_H
#include <dns_sd.h>
#endif
