#!/usr/bin/env bash
# Installs the `renju` package (a renju forbidden-move checker nobody here wrote) for the end-to-end tests and
# prints the python they run: see setup-venv.sh.
exec "$(dirname "$0")/setup-venv.sh" renju "$@"
