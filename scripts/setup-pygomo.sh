#!/usr/bin/env bash
# Installs pygomo-lib (a Gomocup manager) for the end-to-end tests and prints the python they run: see
# setup-venv.sh.
exec "$(dirname "$0")/setup-venv.sh" pygomo "$@"
