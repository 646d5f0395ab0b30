#!/usr/bin/env bash
# Runs the whole test suite: set-up first, then the formatter check, every test and the mutation check, printing
# how long each part took. Under CI (CI=true) a skipped test is a failure: every test must have run.
#
# What the parts need (scripts/setup.sh installs the packages; haproxy for HAProxyBotsTests in "rest"):
#   Discovery tests   dbus-daemon and avahi-daemon; root to start them (run in a private network namespace with
#                     only loopback, so the test that stops the daemon disturbs nothing else)
#   the rest          tmux (terminal tests), an avahi-daemon on lo (LAN tests; started here), root for the
#                     network-namespace LAN test (ip, mount), sslyze and sgfmill (each in a venv, python3-venv),
#                     a C compiler
#   mutation check    nothing more: a copy of GameCore and its tests in a temporary directory
#   package           root, mmdebstrap, lintian, dpkg-dev and Debian's archive (scripts/test-deb.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

# One temporary directory for the whole run, removed at the end: the tests keep their files in it (TestSupport's
# TestDirectory follows TMPDIR) and tmux its sockets (TMUX_TMPDIR), and so does swift itself, which leaves a few
# TemporaryDirectory.* behind for every `swift test` (5 each here, with no test run at all).
run_tmp="$(mktemp -d "${TMPDIR:-/tmp}/tictactoe-test-run.XXXXXX")"
export TMPDIR="$run_tmp" TMUX_TMPDIR="$run_tmp"
logs="$run_tmp/logs"
mkdir "$logs"
timings=()
cleanup() {
  local status=$?
  [ -z "${avahi_dir:-}" ] || scripts/avahi-test-daemon.sh stop "$avahi_dir" || true
  [ -z "${avahi_dir:-}" ] || scripts/avahi-test-daemon.sh remove "$avahi_dir" || true
  rm -rf "$run_tmp"
  if ((${#timings[@]})); then
    echo "test.sh: time per part:"
    printf '  %s\n' "${timings[@]}"
  fi
  exit "$status"
}
trap cleanup EXIT

# part NAME COMMAND...: runs COMMAND and records how long it took; returns its status. (COMMAND runs where
# `set -e` is off, so a shell function given as COMMAND must return its failures itself.)
part() {
  local name=$1 started=$SECONDS status=0
  shift
  echo "test.sh: == $name"
  "$@" || status=$?
  timings+=("$(printf '%-16s %4d s%s' "$name" $((SECONDS - started)) "$( ((status == 0)) || echo ', FAILED')")")
  return "$status"
}

# tests NAME COMMAND...: runs COMMAND (a `swift test`), its output kept to count the skipped tests.
skipped=()
# A skipped or cancelled test's line (its mark may come in colour escapes when the output is coloured).
skip_line=$'^(\e\\[[0-9;]*m)?➜(\e\\[[0-9;]*m)? (Test|Suite) .*( skipped|was cancelled)'
# Returns COMMAND's status explicitly: `part` runs this in an `||` list, where `set -e` does not apply.
tests() {
  local name=$1 count status=0
  shift
  "$@" 2>&1 | tee "$logs/$name.log" || status=$?
  count=$(grep -cE "$skip_line" "$logs/$name.log" || true)
  if ((count)); then
    skipped+=("$name: $count")
    grep -E "$skip_line" "$logs/$name.log" | sed 's/^/  /' >&2
  fi
  return "$status"
}

part setup scripts/setup.sh
# sslyze (PyPI, in a cached venv) checks the TLS configuration against Mozilla's "modern" profile.
sslyze() { SSLYZE="$(scripts/setup-sslyze.sh)"; }
part sslyze sslyze
export SSLYZE
# sgfmill (PyPI, in a cached venv) reads the game records: SGF software nobody here wrote.
sgfmill() { SGFMILL_PYTHON="$(scripts/setup-sgfmill.sh)"; }
part sgfmill sgfmill
export SGFMILL_PYTHON
# pygomo-lib (PyPI, in a cached venv) is a Gomocup manager: it drives `tictactoe brain` through whole games.
pygomo() { PYGOMO_PYTHON="$(scripts/setup-pygomo.sh)"; }
part pygomo pygomo
export PYGOMO_PYTHON
# renju (PyPI, in a cached venv) judges renju's forbidden moves: a referee nobody here wrote.
renju() { RENJU_PYTHON="$(scripts/setup-renju.sh)"; }
part renju renju
export RENJU_PYTHON
part format swift format lint --strict -r Sources Tests Package.swift
part build swift build --build-tests

# The Discovery module's own tests start and stop an avahi-daemon of their own (one test stops it while
# browsing), so they run as a part of their own. As root they run in a private network namespace with nothing
# but loopback and a private /run/dbus and /run/avahi-daemon (created first: a bare machine has no /run/dbus).
discovery() {
  if [ "$(id -u)" -eq 0 ] && unshare -n -m true 2>/dev/null; then
    mkdir -p /run/dbus /run/avahi-daemon
    tests discovery unshare -n -m sh -c 'ip link set lo up && mount -t tmpfs tmpfs /run/dbus &&
      mount -t tmpfs tmpfs /run/avahi-daemon && swift test --skip-build --filter DiscoveryTests'
  else
    tests discovery swift test --skip-build --filter DiscoveryTests
  fi
}
part discovery discovery

# Everything else. The LAN tests need D-Bus and an avahi-daemon: the one started here only uses the loopback
# interface (where one already runs, it is used and left alone), and is stopped again at the end.
everything_else() {
  avahi_dir="$PWD/.build/avahi-test"
  mkdir -p "$avahi_dir"
  scripts/avahi-test-daemon.sh start "$avahi_dir" || return
  local status=0
  tests rest swift test --skip-build --skip DiscoveryTests || status=$?
  scripts/avahi-test-daemon.sh stop "$avahi_dir"
  scripts/avahi-test-daemon.sh remove "$avahi_dir"
  avahi_dir=""
  return "$status"
}
part tests everything_else

# The AI tests must fail for a wrong AI: a few mutations of a copy of GameCore, each of which must be caught.
part mutation scripts/mutation-check.sh

# The Debian package on a bare Debian 12 root (scripts/test-deb.sh): root for mmdebstrap and chroot, and
# Debian's archive for the root's packages. Exit status 77 means a requirement was missing: a skip.
package() {
  local status=0
  scripts/test-deb.sh || status=$?
  if ((status == 77)); then
    skipped+=("package: 1")
    return 0
  fi
  return "$status"
}
part package package

if ((${#skipped[@]})); then
  echo "test.sh: tests skipped (listed above): ${skipped[*]}" >&2
  if [ "${CI:-}" = "true" ]; then
    echo "test.sh: under CI every test must run; a skip is a failure" >&2
    exit 1
  fi
  echo "test.sh: every part passed"
else
  echo "test.sh: every part passed, no test skipped"
fi
