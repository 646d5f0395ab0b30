#!/usr/bin/env bash
# Installs sgfmill (an SGF library nobody here wrote; the end-to-end tests read every kind of game record with it)
# into a private virtual environment, once, and prints the path of that environment's `python` on stdout.
# Progress and errors go to stderr, so `SGFMILL_PYTHON=$(scripts/setup-sgfmill.sh)` works.
#
#   SGFMILL_VENV  where the environment lives (default: $HOME/.cache/tictactoe-sgfmill)
#   PYTHON        the interpreter that makes it (default: python3)
#
# When the pinned version is already there this takes a few milliseconds and touches no network. Where
# `python3 -m venv` fails for want of python3-venv (Debian), it installs that with apt-get, as setup-sslyze.sh does.
set -euo pipefail

readonly version="1.1.1"
venv="${SGFMILL_VENV:-${HOME:?HOME is not set}/.cache/tictactoe-sgfmill}"
python="${PYTHON:-python3}"
marker="$venv/.tictactoe-sgfmill-version"

say() { printf 'setup-sgfmill: %s\n' "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

installed() { [[ -x "$venv/bin/python" && -f "$marker" && "$(cat "$marker")" == "$version" ]]; }

if installed; then
  printf '%s\n' "$venv/bin/python"
  exit 0
fi

mkdir -p "$(dirname "$venv")" || die "cannot create $(dirname "$venv")"
if command -v flock >/dev/null; then
  exec 9>"$venv.lock"
  flock -w 600 9 || die "another setup-sgfmill.sh has held $venv.lock for 10 minutes"
  if installed; then
    printf '%s\n' "$venv/bin/python"
    exit 0
  fi
fi

command -v "$python" >/dev/null || die "$python not found; install Python 3 (Debian: apt-get install python3 python3-venv)"

as_root() {
  if [[ $(id -u) -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    die "need root to run: $*"
  fi
}

make_venv() { "$python" -m venv "$venv" >&2; }

if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
  say "creating a virtual environment in $venv with $("$python" --version 2>&1)"
  if ! make_venv; then
    command -v apt-get >/dev/null || die "'$python -m venv' failed; install your distribution's venv package"
    minor="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    missing() { ! dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
    packages=()
    if missing python3-venv; then packages+=(python3-venv); fi
    if missing "python$minor-venv" && apt-cache show "python$minor-venv" >/dev/null 2>&1; then
      packages+=("python$minor-venv")
    fi
    [[ ${#packages[@]} -gt 0 ]] || die "'$python -m venv' fails although python3-venv and python$minor-venv are installed"
    say "'$python -m venv' failed: installing ${packages[*]} with apt-get"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${packages[@]}" >&2 \
      || { as_root apt-get update -q >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${packages[@]}" >&2; } \
      || die "could not install ${packages[*]}"
    make_venv || die "'$python -m venv $venv' still fails after installing ${packages[*]}"
  fi
fi

say "installing sgfmill $version from PyPI into $venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "sgfmill==$version" >&2 \
  || die "pip could not install sgfmill==$version into $venv"
"$venv/bin/python" -c 'import sgfmill.sgf' || die "sgfmill was installed into $venv but does not import"
printf '%s\n' "$version" >"$marker"
printf '%s\n' "$venv/bin/python"
