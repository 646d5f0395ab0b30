#!/usr/bin/env bash
# Runs the whole test suite: set-up first, then the formatter check and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift format lint --strict -r Sources Tests Package.swift
swift test
