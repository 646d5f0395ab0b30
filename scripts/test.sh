#!/usr/bin/env bash
# Runs the whole test suite: set-up first, then the formatter check and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# sslyze (PyPI, in a cached venv) checks the TLS configuration against Mozilla's "modern" profile.
SSLYZE="$(scripts/setup-sslyze.sh)"
export SSLYZE
# LAN discovery tests need D-Bus and an avahi-daemon; the one started here only uses the loopback interface
# (where one already runs, it is used and left alone). Stopped again at the end.
avahi_dir="$PWD/.build/avahi-test"
mkdir -p "$avahi_dir"
scripts/avahi-test-daemon.sh start "$avahi_dir"
trap 'scripts/avahi-test-daemon.sh stop "$avahi_dir"' EXIT
swift format lint --strict -r Sources Tests Package.swift
swift test
