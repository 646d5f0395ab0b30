#!/usr/bin/env bash
# Makes LAN discovery available for playing: where no avahi-daemon answers on the system bus (a bare container),
# starts a D-Bus system bus if there is none and an avahi-daemon with Debian's configuration (it announces and
# browses on the LAN); where one already runs (a desktop), uses it. Needs root (or sudo) only to start them.
# Never used by the test suite, which runs a loopback-only daemon (scripts/avahi-test-daemon.sh).
set -euo pipefail

state="${XDG_STATE_HOME:-$HOME/.local/state}/tictactoe"
mkdir -p "$state"

bus_answers() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetId >/dev/null 2>&1
}
avahi_answers() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Avahi 2>/dev/null | grep -q 'boolean true'
}

if avahi_answers; then
  echo "start-lan-discovery: using the avahi-daemon already running" >&2
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! bus_answers; then
  $sudo mkdir -p /run/dbus
  $sudo rm -f /run/dbus/pid
  $sudo dbus-daemon --system --fork
  echo "start-lan-discovery: started the D-Bus system bus" >&2
fi
# In the foreground under setsid, logging to a file (-D would log to a syslog that may not exist).
$sudo setsid avahi-daemon --no-chroot >"$state/avahi.log" 2>&1 </dev/null &
for _ in $(seq 1 50); do
  if avahi_answers; then
    echo "start-lan-discovery: started avahi-daemon (log: $state/avahi.log)" >&2
    exit 0
  fi
  sleep 0.2
done
echo "start-lan-discovery: avahi-daemon did not start; see $state/avahi.log. LAN discovery will be unavailable;" \
  "joining by address still works." >&2
exit 0
