// Wrappers for OpenSSL names Swift cannot import (macros, variadic functions).
#ifndef TICTACTOE_COPENSSL_SHIM_H
#define TICTACTOE_COPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/rand.h>
#include <openssl/bio.h>

#endif
