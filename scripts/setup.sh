#!/usr/bin/env bash
# Installs the Debian packages tictactoe builds, runs and tests with (only those missing).
set -euo pipefail

packages=(libncursesw5-dev libssl-dev openssl tmux libavahi-compat-libdnssd-dev avahi-daemon avahi-utils libnss-mdns dbus dbus-bin
  gcc pkg-config iproute2)

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
