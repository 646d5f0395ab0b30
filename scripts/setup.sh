#!/usr/bin/env bash
# Installs the Debian packages tictactoe builds, runs and tests with (only those missing).
set -euo pipefail

# Besides the build: what scripts/test.sh and the tests call. A bare Debian 12 root (mmdebstrap --variant=apt)
# lacks some of them: mount (the Discovery part and the namespace LAN test mount tmpfs), mawk (awk, in
# netns-lan-test.sh), python3 and python3-venv (the virtual environments of sslyze, sgfmill, pygomo-lib and
# renju, made by setup-venv.sh through setup-sslyze.sh, setup-sgfmill.sh, setup-pygomo.sh and setup-renju.sh,
# which scripts/test.sh runs), ca-certificates (pip fetches them), perl (the mutation check's substitutions;
# perl-base is Essential, listed for clarity).
# zsh, fish and bash-completion: the completion tests run the real shells. The package test: mmdebstrap,
# lintian, dpkg-dev (dpkg-shlibdeps), binutils (strip, readelf), file. Port mapping builds with libminiupnpc-dev
# and libnatpmp-dev; its lab (scripts/nat-lab.sh) runs Debian's miniupnpd behind nftables, and checks with the
# upnpc and natpmpc clients (the package does not start the daemon; the lab starts its own in a namespace).
# magic-wormhole-transit-relay: the transit relay the relay tests start on 127.0.0.1 (twist3 transitrelay), and
# scripts/relay-lab.sh in the internet namespace between two symmetric NATs (nftables); tcpdump records there what
# the relay is sent and sends back (RelayLabTests looks for plaintext in it). haproxy: three practice bots behind
# one address (HAProxyBotsTests, scripts/haproxy-bots.sh; the package does not start the daemon here, policy-rc.d).
packages=(libncursesw5-dev libssl-dev openssl tmux zsh fish bash-completion libavahi-compat-libdnssd-dev avahi-daemon avahi-utils libnss-mdns dbus dbus-bin
  gcc pkg-config iproute2 mount util-linux mawk python3 python3-venv ca-certificates perl-base
  mmdebstrap lintian dpkg-dev binutils file
  libminiupnpc-dev libnatpmp-dev miniupnpd miniupnpc natpmpc nftables
  magic-wormhole-transit-relay tcpdump haproxy)

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
