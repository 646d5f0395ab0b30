#!/usr/bin/env bash
# Installs sslyze for the end-to-end tests and prints what they run: see setup-venv.sh.
exec "$(dirname "$0")/setup-venv.sh" sslyze "$@"
