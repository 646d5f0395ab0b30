#!/usr/bin/env bash
# Installs sgfmill for the end-to-end tests and prints what they run: see setup-venv.sh.
exec "$(dirname "$0")/setup-venv.sh" sgfmill "$@"
