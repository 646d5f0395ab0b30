#!/usr/bin/env bash
# Runs the whole test suite: set-up first, then the formatter check and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# sslyze (PyPI, in a cached venv) checks the TLS configuration against Mozilla's "modern" profile.
SSLYZE="$(scripts/setup-sslyze.sh)"
export SSLYZE
swift format lint --strict -r Sources Tests Package.swift
swift test
