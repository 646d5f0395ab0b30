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
#include <openssl/bn.h>

// MARK: SSL_CTX and SSL macros

static inline int tictactoe_SSL_CTX_set_proto_versions(SSL_CTX *ctx, int minimum, int maximum) {
  return SSL_CTX_set_min_proto_version(ctx, minimum) == 1
      && SSL_CTX_set_max_proto_version(ctx, maximum) == 1;
}

static inline int tictactoe_SSL_CTX_set1_groups_list(SSL_CTX *ctx, const char *groups) {
  return (int)SSL_CTX_set1_groups_list(ctx, groups);
}

/// No compression, no renegotiation, no session tickets or session cache:
/// every connection is fully authenticated.
static inline void tictactoe_SSL_CTX_harden(SSL_CTX *ctx) {
  SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_TICKET);
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
}

static inline int tictactoe_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
  return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int tictactoe_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *cert) {
  return (int)SSL_CTX_add1_chain_cert(ctx, cert);
}

static inline int tictactoe_SSL_get_ex_new_index(void) {
  return SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}

static inline long tictactoe_BIO_set_mem_eof_return(BIO *bio, int value) {
  return BIO_set_mem_eof_return(bio, value);
}

static inline void tictactoe_OPENSSL_free(void *pointer) {
  OPENSSL_free(pointer);
}

static inline unsigned long tictactoe_OPENSSL_VERSION_NUMBER(void) {
  return OPENSSL_VERSION_NUMBER;
}

// MARK: keys and names

static inline EVP_PKEY *tictactoe_generate_P256(void) {
  return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

static inline int tictactoe_MBSTRING_UTF8(void) {
  return MBSTRING_UTF8;
}

// MARK: stacks

static inline int tictactoe_sk_X509_num(const STACK_OF(X509) *stack) {
  return sk_X509_num(stack);
}

static inline X509 *tictactoe_sk_X509_value(const STACK_OF(X509) *stack, int index) {
  return sk_X509_value(stack, index);
}

static inline STACK_OF(X509) *tictactoe_sk_X509_new_null(void) {
  return sk_X509_new_null();
}

/// Pushes a new reference to `cert` (the caller keeps its own).
static inline int tictactoe_sk_X509_push_up_ref(STACK_OF(X509) *stack, X509 *cert) {
  if (X509_up_ref(cert) != 1) return 0;
  if (sk_X509_push(stack, cert) <= 0) { X509_free(cert); return 0; }
  return 1;
}

static inline void tictactoe_sk_X509_pop_free(STACK_OF(X509) *stack) {
  sk_X509_pop_free(stack, X509_free);
}

static inline int tictactoe_sk_GENERAL_NAME_num(const GENERAL_NAMES *names) {
  return sk_GENERAL_NAME_num(names);
}

/// The DNS name at `index`, or NULL when that entry is not a DNS name.
static inline const ASN1_IA5STRING *tictactoe_GENERAL_NAMES_dns(const GENERAL_NAMES *names, int index) {
  const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, index);
  if (name == NULL || name->type != GEN_DNS) return NULL;
  return name->d.dNSName;
}

/// The IP address at `index` (4 or 16 bytes), or NULL when that entry is not an IP address.
static inline const ASN1_OCTET_STRING *tictactoe_GENERAL_NAMES_ip(const GENERAL_NAMES *names, int index) {
  const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, index);
  if (name == NULL || name->type != GEN_IPADD) return NULL;
  return name->d.iPAddress;
}

/// Whether the certificate says it is a certificate authority (basicConstraints CA:TRUE).
static inline int tictactoe_X509_is_authority(X509 *certificate) {
  return (X509_get_extension_flags(certificate) & EXFLAG_CA) != 0;
}

#endif
