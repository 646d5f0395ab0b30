#!/usr/bin/env bash
# Installs a Python tool the end-to-end tests run into a private virtual environment, once, and prints the
# path of the executable they run on stdout. Progress and errors go to stderr, so
# `SSLYZE=$(scripts/setup-venv.sh sslyze)` works.
#
#   sslyze    the TLS configuration scanner run against the host; prints the environment's `sslyze`
#   sgfmill   an SGF library nobody here wrote, which reads every kind of game record; prints the
#             environment's `python`
#   pygomo    pygomo-lib, a Gomocup-protocol manager nobody here wrote, which drives `tictactoe brain`;
#             prints the environment's `python`
#   renju     the `renju` package, whose forbidden-move checker (a port of the Piskvork manager's judge)
#             checks the renju referee (scripts/renju-fouls.py); prints the environment's `python`
#
#   SSLYZE_VENV, SGFMILL_VENV, PYGOMO_VENV, RENJU_VENV   where each environment lives (default:
#                                            $HOME/.cache/tictactoe-TOOL)
#   PYTHON                      the interpreter that makes it (default: python3)
#
# When the pinned version is already there this takes a few milliseconds and touches no network.
# On Debian, where `python3 -m venv` needs the python3-venv package, it installs that with apt-get
# (through sudo when not root) if venv creation fails and the package is missing.
set -euo pipefail

tool="${1:-}"
case "$tool" in
  sslyze)
    readonly version="6.3.1"
    venv="${SSLYZE_VENV:-${HOME:?HOME is not set}/.cache/tictactoe-sslyze}"
    program="sslyze"
    works() { "$venv/bin/sslyze" --help >/dev/null 2>&1; }
    ;;
  sgfmill)
    readonly version="1.1.1"
    venv="${SGFMILL_VENV:-${HOME:?HOME is not set}/.cache/tictactoe-sgfmill}"
    program="python"
    works() { "$venv/bin/python" -c 'import sgfmill.sgf'; }
    ;;
  pygomo)
    readonly version="0.1.1"
    # Installed as pygomo-lib, imported as pygomo.
    package="pygomo-lib"
    venv="${PYGOMO_VENV:-${HOME:?HOME is not set}/.cache/tictactoe-pygomo}"
    program="python"
    works() { "$venv/bin/python" -c 'import pygomo; from pygomo import EngineClient'; }
    ;;
  renju)
    readonly version="0.1.0"
    venv="${RENJU_VENV:-${HOME:?HOME is not set}/.cache/tictactoe-renju}"
    program="python"
    works() { "$venv/bin/python" -c 'from renju.check_forbid import get_foul_type'; }
    ;;
  *)
    printf 'usage: %s sslyze|sgfmill|pygomo|renju\n' "$0" >&2
    exit 64
    ;;
esac
python="${PYTHON:-python3}"
marker="$venv/.tictactoe-$tool-version"
executable="$venv/bin/$program"

say() { printf 'setup-venv %s: %s\n' "$tool" "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

installed() { [[ -x "$executable" && -f "$marker" && "$(cat "$marker")" == "$version" ]]; }

if installed; then
  printf '%s\n' "$executable"
  exit 0
fi

mkdir -p "$(dirname "$venv")" || die "cannot create $(dirname "$venv")"
# Two test runs may set up at once: the second waits for the first instead of racing it.
if command -v flock >/dev/null; then
  exec 9>"$venv.lock"
  flock -w 600 9 || die "another setup has held $venv.lock for 10 minutes"
  if installed; then
    printf '%s\n' "$executable"
    exit 0
  fi
fi

command -v "$python" >/dev/null || die "$python not found; install Python 3.10 or later (Debian: apt-get install python3 python3-venv)"

as_root() {
  if [[ $(id -u) -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    die "need root to run: $*"
  fi
}

# Debian splits venv and ensurepip out of python3 into python3-venv (python3.11-venv on Debian 12).
make_venv() { "$python" -m venv "$venv" >&2; }

if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
  say "creating a virtual environment in $venv with $("$python" --version 2>&1)"
  if ! make_venv; then
    # A failed attempt leaves a half-made environment without pip; making it again over it completes it.
    command -v apt-get >/dev/null || die "'$python -m venv' failed; install your distribution's venv package"
    minor="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    say "'$python -m venv' failed: installing python3-venv (and python$minor-venv) with apt-get"
    # Only what is missing: naming an installed package to apt-get would upgrade it and its dependencies.
    # python3-venv brings Debian's default python3.X-venv; a python3.Y-venv is added if Debian has one.
    missing() { ! dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
    packages=()
    if missing python3-venv; then packages+=(python3-venv); fi
    if missing "python$minor-venv" && apt-cache show "python$minor-venv" >/dev/null 2>&1; then
      packages+=("python$minor-venv")
    fi
    [[ ${#packages[@]} -gt 0 ]] || die "'$python -m venv' fails although python3-venv and python$minor-venv are installed"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${packages[@]}" >&2 \
      || { as_root apt-get update -q >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${packages[@]}" >&2; } \
      || die "could not install ${packages[*]}"
    make_venv || die "'$python -m venv $venv' still fails after installing ${packages[*]}"
  fi
fi

say "installing $tool $version from PyPI into $venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${package:-$tool}==$version" >&2 \
  || die "pip could not install ${package:-$tool}==$version into $venv"
works || die "$tool was installed into $venv but does not run"
printf '%s\n' "$version" >"$marker"
printf '%s\n' "$executable"
