// LAN discovery over DNS-SD (Avahi's dns_sd.h compatibility API).
