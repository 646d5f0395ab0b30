// The TLS, identity and trust layer (OpenSSL).
