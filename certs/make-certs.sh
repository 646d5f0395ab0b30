#!/usr/bin/env bash
# Makes a small certificate authority and, for each player name, a key and a certificate it signs,
# for tictactoe's CA mode (--ca). Uses only the openssl command-line tool.
#
#   certs/make-certs.sh DIR [NAME...]        (names default to: alice bob)
#
# In DIR it writes:
#   ca.key ca.crt                      the authority: P-256 key (0600), self-signed, CA:TRUE, keyCertSign
#   NAME.key NAME.crt                  P-256 key (0600); certificate with CN=NAME, subjectAltName DNS:NAME,
#                                      extendedKeyUsage serverAuth+clientAuth, keyUsage digitalSignature
#   NAME.p12 NAME.p12.password         the same key and certificate (with ca.crt) as PKCS#12 (0600), and
#                                      its password (0600): $P12_PASSWORD, or "tictactoe" when unset
#
# Running it again keeps what is there: it reuses the authority, keeps each certificate that still
# verifies against it, and only makes what is missing. Delete a file to have it made again.
# Environment: CA_NAME (default "tictactoe test CA"), CA_DAYS (3650), DAYS (825), P12_PASSWORD.
set -euo pipefail

program="$(basename "$0")"
say() { printf '%s: %s\n' "$program" "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}
usage() {
  printf 'usage: %s DIR [NAME...]\n' "$program" >&2
  exit 64
}

[[ $# -ge 1 && -n "$1" && "$1" != -* ]] || usage
dir="$1"
shift
names=("$@")
[[ ${#names[@]} -gt 0 ]] || names=(alice bob)

command -v openssl >/dev/null || die "the openssl command is not installed (Debian: apt-get install openssl)"
ca_name="${CA_NAME:-tictactoe test CA}"
ca_days="${CA_DAYS:-3650}"
days="${DAYS:-825}"
[[ "$ca_days" =~ ^[1-9][0-9]*$ && "$days" =~ ^[1-9][0-9]*$ ]] || die "CA_DAYS and DAYS must be whole numbers of days"
password="${P12_PASSWORD-tictactoe}"
[[ "$password" != *$'\n'* ]] || die "P12_PASSWORD must be one line"

for name in "${names[@]}"; do
  # A DNS name: it goes into subjectAltName and is what --peer-name checks.
  if [[ ! "$name" =~ ^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$ ]]; then
    die "\"$name\" is not a usable host name: use letters, digits, '-' and '.' (like alice or bob.example)"
  fi
  [[ "$name" != "ca" ]] || die "\"ca\" is taken by the authority's own files; choose another name"
done

mkdir -p "$dir" || die "cannot create directory $dir"
[[ -w "$dir" ]] || die "cannot write in $dir"
# Everything is created private; certificates are made readable afterwards.
umask 077
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Runs openssl quietly; on failure shows what it said and stops.
ossl() {
  if ! openssl "$@" >"$work/log" 2>&1; then
    cat "$work/log" >&2
    die "openssl $1 failed (above)"
  fi
}

new_key() { ossl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

serial() { printf '0x%s' "$(openssl rand -hex 16 | sed 's/^./1/')"; }

# --- the authority ---------------------------------------------------------------------------
if [[ -f "$dir/ca.key" && -f "$dir/ca.crt" ]]; then
  openssl x509 -in "$dir/ca.crt" -noout -checkend 0 >/dev/null 2>&1 \
    || die "$dir/ca.crt has expired or is unreadable; delete ca.crt and ca.key to make a new authority"
  say "keeping the authority in $dir/ca.crt ($(openssl x509 -in "$dir/ca.crt" -noout -subject))"
elif [[ -f "$dir/ca.crt" || -f "$dir/ca.key" ]]; then
  die "$dir has only one of ca.crt and ca.key; delete it to make a new authority (certificates it signed stop working)"
else
  new_key "$work/ca.key"
  cat >"$work/ca.cnf" <<CNF
[req]
distinguished_name = dn
prompt = no
x509_extensions = ca
[dn]
CN = $ca_name
[ca]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
CNF
  ossl req -new -x509 -config "$work/ca.cnf" -key "$work/ca.key" -sha256 -days "$ca_days" \
    -set_serial "$(serial)" -out "$work/ca.crt"
  mv "$work/ca.key" "$dir/ca.key"
  mv "$work/ca.crt" "$dir/ca.crt"
  chmod 0644 "$dir/ca.crt"
  say "made the authority $dir/ca.crt (CN=$ca_name, $ca_days days)"
fi
chmod 0600 "$dir/ca.key"

# --- the players -----------------------------------------------------------------------------
for name in "${names[@]}"; do
  key="$dir/$name.key"
  crt="$dir/$name.crt"
  issued=false
  if [[ -f "$key" ]]; then
    openssl pkey -in "$key" -noout >/dev/null 2>&1 || die "$key is not a readable private key; delete it"
  else
    new_key "$work/$name.key"
    mv "$work/$name.key" "$key"
    rm -f "$crt" "$dir/$name.p12"
  fi
  chmod 0600 "$key"
  if [[ -f "$crt" ]] && openssl verify -CAfile "$dir/ca.crt" -purpose sslclient "$crt" >/dev/null 2>&1 \
    && [[ "$(openssl x509 -in "$crt" -noout -pubkey)" == "$(openssl pkey -in "$key" -pubout)" ]]; then
    say "keeping $crt"
  else
    [[ ! -f "$crt" ]] || say "$crt does not verify against ca.crt or does not match $key: issuing it again"
    cat >"$work/$name.cnf" <<CNF
[req]
distinguished_name = dn
prompt = no
[dn]
CN = $name
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth, clientAuth
subjectAltName = DNS:$name
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
CNF
    ossl req -new -config "$work/$name.cnf" -key "$key" -out "$work/$name.csr"
    ossl x509 -req -in "$work/$name.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -set_serial "$(serial)" \
      -sha256 -days "$days" -extfile "$work/$name.cnf" -extensions leaf -out "$work/$name.crt"
    mv "$work/$name.crt" "$crt"
    chmod 0644 "$crt"
    issued=true
    say "issued $crt (CN=$name, DNS:$name, $days days)"
  fi
  p12="$dir/$name.p12"
  if [[ $issued == false && -f "$p12" && -f "$p12.password" ]]; then
    say "keeping $p12"
  else
    printf '%s\n' "$password" >"$work/$name.password"
    ossl pkcs12 -export -name "$name" -inkey "$key" -in "$crt" -certfile "$dir/ca.crt" \
      -passout "file:$work/$name.password" -out "$work/$name.p12"
    mv "$work/$name.password" "$p12.password"
    mv "$work/$name.p12" "$p12"
    say "exported $p12 (password in $p12.password)"
  fi
  chmod 0600 "$p12" "$p12.password"
done
