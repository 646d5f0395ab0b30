#!/usr/bin/env bash
# Starts and stops an avahi-daemon for tests, confined to the loopback interface.
#
#   scripts/avahi-test-daemon.sh start DIR       start D-Bus (if no system bus) and avahi-daemon (if none answers)
#   scripts/avahi-test-daemon.sh stop DIR        stop only what `start DIR` started, by recorded PID
#   scripts/avahi-test-daemon.sh stop-avahi DIR  stop only the avahi-daemon `start DIR` started (D-Bus stays)
#   scripts/avahi-test-daemon.sh remove DIR      remove DIR once nothing `start DIR` started still runs
#   scripts/avahi-test-daemon.sh status          say whether the system bus and avahi-daemon answer
#
# When an avahi-daemon already answers on the system bus (a desktop), `start` uses it and says so; `stop` then
# leaves it alone. The daemon this script starts only ever uses `lo` (allow-interfaces=lo): no mDNS leaves the
# machine. Linux's `lo` has no MULTICAST flag; avahi 0.8 exempts loopback from that check and the kernel loops
# the multicast back, so nothing needs changing (checked with the flag on and off). Files in DIR:
# avahi-daemon.conf, avahi.log, avahi.pid (only when this script started avahi), dbus.pid (only when it started
# the bus).
set -euo pipefail

readonly wait_seconds=10

usage() {
  echo "usage: $0 start DIR | stop DIR | stop-avahi DIR | remove DIR | status" >&2
  exit 64
}

bus_answers() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetId >/dev/null 2>&1
}

avahi_answers() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Avahi 2>/dev/null | grep -q 'boolean true'
}

# True once avahi-daemon has registered its host name (server state 2, AVAHI_SERVER_RUNNING). It owns its bus
# name about a second before that, and a client's first registration in that second may be refused (a CI run
# once saw the first advertisement of the live tests fail with "the avahi-daemon is not running").
avahi_running() {
  dbus-send --system --print-reply --dest=org.freedesktop.Avahi / org.freedesktop.Avahi.Server.GetState \
    2>/dev/null | grep -q 'int32 2'
}

# True when PID is a live (not zombie) process whose command line contains NAME.
process_is() {
  local pid=$1 name=$2 state
  [ -r "/proc/$pid/stat" ] || return 1
  state=$(sed -e 's/^.*) //' "/proc/$pid/stat" | cut -d' ' -f1)
  [ "$state" != "Z" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$name"
}

# Sends SIGTERM to PID (only if it is still NAME), then waits (bounded) until it is gone or a zombie.
stop_pid_file() {
  local file=$1 name=$2 pid
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  if process_is "$pid" "$name"; then
    kill -TERM "$pid"
    for _ in $(seq 1 $((wait_seconds * 10))); do
      process_is "$pid" "$name" || break
      sleep 0.1
    done
    if process_is "$pid" "$name"; then
      echo "avahi-test-daemon: $name (PID $pid) did not stop; sending SIGKILL" >&2
      kill -KILL "$pid" || true
    fi
    echo "avahi-test-daemon: stopped $name (PID $pid)"
  fi
  rm -f "$file"
}

write_config() {
  cat >"$1" <<'CONF'
# avahi-daemon for tictactoe's tests: loopback only, IPv4 only, nothing published but our services.
[server]
host-name=ttt-test
use-ipv4=yes
use-ipv6=no
allow-interfaces=lo
enable-dbus=yes
disallow-other-stacks=no
ratelimit-interval-usec=1000000
ratelimit-burst=1000

[wide-area]
enable-wide-area=no

[publish]
publish-workstation=no
publish-hinfo=no
publish-addresses=yes
publish-domain=no
publish-aaaa-on-ipv4=no
publish-a-on-ipv6=no

[reflector]
enable-reflector=no
CONF
}

start() {
  local dir=$1
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)

  if avahi_answers; then
    if [ -f "$dir/avahi.pid" ] && process_is "$(cat "$dir/avahi.pid")" avahi-daemon; then
      echo "avahi-test-daemon: avahi-daemon (PID $(cat "$dir/avahi.pid")) started earlier from $dir is running"
    else
      echo "avahi-test-daemon: using the avahi-daemon already running on this system (not started here)"
    fi
    return 0
  fi

  if ! bus_answers; then
    mkdir -p /run/dbus
    rm -f /run/dbus/pid
    dbus-daemon --system --fork --print-pid >"$dir/dbus.pid" 2>>"$dir/dbus.log"
    echo "avahi-test-daemon: started the D-Bus system bus (PID $(cat "$dir/dbus.pid"))"
    for _ in $(seq 1 $((wait_seconds * 10))); do
      bus_answers && break
      sleep 0.1
    done
    bus_answers || { echo "avahi-test-daemon: the D-Bus system bus did not come up" >&2; return 1; }
  fi

  write_config "$dir/avahi-daemon.conf"
  local extra=()
  [ "$(id -u)" -ne 0 ] || extra=(--no-drop-root --no-chroot)
  # A background job is not a process-group leader, so setsid execs in place: $! is avahi-daemon's PID.
  setsid avahi-daemon -f "$dir/avahi-daemon.conf" --no-rlimits "${extra[@]}" \
    </dev/null >>"$dir/avahi.log" 2>&1 &
  local pid=$!
  echo "$pid" >"$dir/avahi.pid"

  for _ in $(seq 1 $((wait_seconds * 10))); do
    if avahi_answers && avahi_running; then
      echo "avahi-test-daemon: avahi-daemon (PID $pid) is running on lo; log in $dir/avahi.log"
      return 0
    fi
    process_is "$pid" avahi-daemon || break
    sleep 0.1
  done
  echo "avahi-test-daemon: avahi-daemon did not come up on the system bus within ${wait_seconds}s; its log:" >&2
  tail -n 20 "$dir/avahi.log" >&2 || true
  stop_pid_file "$dir/avahi.pid" avahi-daemon >&2
  return 1
}

stop_avahi() {
  local dir=$1
  stop_pid_file "$dir/avahi.pid" avahi-daemon
}

stop() {
  local dir=$1
  stop_avahi "$dir"
  stop_pid_file "$dir/dbus.pid" dbus-daemon
}

remove() {
  local dir=$1
  if [ -f "$dir/avahi.pid" ] || [ -f "$dir/dbus.pid" ]; then
    echo "avahi-test-daemon: not removing $dir: a daemon started from it may still run (run stop first)" >&2
    return 1
  fi
  rm -rf "$dir"
}

status() {
  if ! bus_answers; then
    echo "D-Bus system bus: not running"
    echo "avahi-daemon: not running"
    return 3
  fi
  echo "D-Bus system bus: running"
  if avahi_answers; then
    echo "avahi-daemon: running"
  else
    echo "avahi-daemon: not running"
    return 3
  fi
}

case "${1:-}" in
  start) [ $# -eq 2 ] || usage; start "$2" ;;
  stop) [ $# -eq 2 ] || usage; stop "$2" ;;
  stop-avahi) [ $# -eq 2 ] || usage; stop_avahi "$2" ;;
  remove) [ $# -eq 2 ] || usage; remove "$2" ;;
  status) [ $# -eq 1 ] || usage; status ;;
  *) usage ;;
esac
