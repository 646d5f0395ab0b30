#!/usr/bin/env bash
# Runs the whole test suite: set-up first, then the formatter check and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# sslyze (PyPI, in a cached venv) checks the TLS configuration against Mozilla's "modern" profile.
SSLYZE="$(scripts/setup-sslyze.sh)"
export SSLYZE
swift format lint --strict -r Sources Tests Package.swift
swift build --build-tests

skip=()
# The Discovery module's own tests start and stop an avahi-daemon of their own (one test stops it while
# browsing). As root they run alone in a private network namespace with nothing but loopback, so stopping that
# daemon disturbs nothing else; elsewhere they run with the rest.
if [ "$(id -u)" -eq 0 ] && unshare -n -m true 2>/dev/null; then
  unshare -n -m sh -c 'ip link set lo up && mount -t tmpfs tmpfs /run/dbus && mkdir -p /run/avahi-daemon &&
    mount -t tmpfs tmpfs /run/avahi-daemon && swift test --skip-build --filter DiscoveryTests'
  skip=(--skip DiscoveryTests)
fi

# Everything else. The LAN tests need D-Bus and an avahi-daemon: the one started here only uses the loopback
# interface (where one already runs, it is used and left alone), and is stopped again at the end.
avahi_dir="$PWD/.build/avahi-test"
mkdir -p "$avahi_dir"
scripts/avahi-test-daemon.sh start "$avahi_dir"
trap 'scripts/avahi-test-daemon.sh stop "$avahi_dir"' EXIT
swift test --skip-build "${skip[@]}"
