#!/usr/bin/env bash
# LAN play between two hosts made of network namespaces, each with its own D-Bus and avahi-daemon.
#
#   scripts/netns-lan-test.sh /absolute/path/to/tictactoe
#
# Host A (10.99.0.1) runs `tictactoe host` as alice; host B (10.99.0.2) must list it with A's address and the
# host's key, join it by name and play a whole game; then a spoofed advertisement published in A (another name,
# the real host's port, a made-up key) must be refused by a joiner in B with exit status 28.
#
# Needs root. Exits 0 when every check passes, 1 when one fails, 77 (skip) when it cannot run here (not root,
# no network namespaces, a tool missing), 64 on bad usage.
#
# What it touches in the root namespace, and undoes on every exit (trap):
#   - `ip route add unreachable 10.99.0.0/24`, added BEFORE any test address exists, so nothing for the test
#     subnet can leave through the default route; deleted at the end (only if this run added it).
#   - two namespaces ttt-lan-a-PID / ttt-lan-b-PID with a veth pair created directly inside them (the pair never
#     exists in the root namespace); deleting the namespaces removes it.
# Everything else lives inside the namespaces: per host a holder process (`sleep infinity`) in a private mount
# namespace (tmpfs over /run/dbus and /run/avahi-daemon, so the root namespace's bus and avahi are hidden and
# untouched), a system D-Bus and an avahi-daemon that may only use that host's veth. Programs run inside with
# `nsenter -t HOLDER -n -m`. Only processes this script started are stopped, by PID. Nothing ever connects to
# a test address from the root namespace.
set -uo pipefail

readonly subnet=10.99.0.0/24
readonly address_a=10.99.0.1
readonly address_b=10.99.0.2
readonly fake_key="SHA256:$(printf 'A%.0s' $(seq 1 43))"

skip() {
  echo "SKIP: $*"
  exit 77
}

started=$SECONDS
failures=0
pass() { echo "PASS: $* ($((SECONDS - started)) s)"; }
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# A failure after which nothing else can be checked: show what there is, then stop (the trap tears down).
fatal() {
  fail "$*"
  show_logs
  exit 1
}

[ $# -eq 1 ] || {
  echo "usage: $0 /path/to/tictactoe" >&2
  exit 64
}
binary=$(readlink -f -- "$1")
[ -x "$binary" ] || {
  echo "FAIL: $1 is not an executable (build with swift build first)"
  exit 1
}

[ "$(id -u)" -eq 0 ] || skip "needs root to create network namespaces, veth pairs and routes"
for tool in ip unshare nsenter setsid mount findmnt flock dbus-daemon dbus-send avahi-daemon avahi-publish; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (scripts/setup.sh installs avahi-daemon and avahi-utils)"
done
ip netns list >/dev/null 2>&1 || skip "ip netns is unavailable here"
unshare -n -m true 2>/dev/null || skip "cannot create network and mount namespaces here (no CAP_SYS_ADMIN?)"

# One run at a time: the subnet is fixed. The lock is this script file itself (nothing left behind).
exec 9<"$0"
flock -w 90 9 || {
  echo "FAIL: another run of $0 held its lock for 90 s"
  exit 1
}

# The subnet must be free: no route for it other than the default one.
if ip -4 route show to match "$address_a" | grep -v '^default ' | grep -q .; then
  echo "FAIL: the root namespace already has a route for $subnet (in use, or left over from an earlier run):"
  ip -4 route show to match "$address_a" | grep -v '^default '
  echo "      remove it (e.g. ip route del unreachable $subnet) if it is a leftover of this script"
  exit 1
fi

dir=$(mktemp -d /tmp/ttt-netns.XXXXXX)
ns_a=ttt-lan-a-$$
ns_b=ttt-lan-b-$$
veth_a=tttA$$
veth_b=tttB$$
route_added=no
created_ns=()
holder_a="" holder_b=""
daemons=()  # "PID name" of the daemons and holders this run started, in order of start
players=()  # "PID name" of the players and publishers this run started

# ---------------------------------------------------------------------------------------------------------
# Teardown: always runs. Stops only what this run started (recorded PIDs), then removes namespaces and route.

# True when PID is a live (not zombie) process whose command line contains NAME.
process_is() {
  local pid=$1 name=$2 state
  [ -r "/proc/$pid/stat" ] || return 1
  state=$(sed -e 's/^.*) //' 2>/dev/null <"/proc/$pid/stat" | cut -d' ' -f1)
  [ -n "$state" ] && [ "$state" != "Z" ] || return 1
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -q -- "$name"
}

stop_pid() {
  local pid=$1 name=$2
  process_is "$pid" "$name" || return 0
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 1 50); do
    process_is "$pid" "$name" || return 0
    sleep 0.1
  done
  echo "teardown: $name (PID $pid) ignored SIGTERM; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null
  sleep 0.1
}

show_logs() {
  local file
  for file in "$dir"/*.out "$dir"/*.err "$dir"/*.log "$dir"/list.json; do
    [ -s "$file" ] || continue
    echo "----- ${file##*/}"
    tail -n 40 "$file"
  done
  echo "-----"
}

teardown() {
  local status=$? clean=yes pid name ns i leftovers
  trap - EXIT INT TERM HUP
  # A signal's trap can run inside a function called with redirections: report to the original outputs.
  exec 1>&3 2>&4
  exec 5>&- 6>&- 7>&- 8>&-
  # Players and publishers first, then the daemons, holders last (reverse order of start).
  for i in "${players[@]}"; do
    read -r pid name <<<"$i"
    stop_pid "$pid" "$name"
  done
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
    read -r pid name <<<"${daemons[$i]}"
    stop_pid "$pid" "$name"
  done
  wait 2>/dev/null
  for ns in "${created_ns[@]}"; do
    leftovers=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')
    if [ -n "$leftovers" ]; then
      echo "FAIL: processes still in $ns after teardown: $leftovers"
      clean=no
    fi
    ip netns del "$ns" || clean=no
  done
  if [ "$route_added" = yes ]; then
    ip route del unreachable "$subnet" || clean=no
  fi
  # Undo ip netns' /run/netns mount (and directory) when this run made them and no namespace is left there.
  if [ "${run_netns_mounted:-yes}" = no ] && findmnt -rn /run/netns >/dev/null && [ -z "$(ip netns list)" ]; then
    umount /run/netns || clean=no
  fi
  if [ "${run_netns_existed:-yes}" = no ] && [ -d /run/netns ] && [ -z "$(ls -A /run/netns)" ]; then
    rmdir /run/netns || clean=no
  fi
  # Nothing of this run may remain in the root namespace.
  if ip netns list | grep -qE "^($ns_a|$ns_b)( |$)"; then
    echo "FAIL: a namespace was left behind: $(ip netns list | tr '\n' ' ')"
    clean=no
  fi
  if ip -o link show | grep -qE ": ($veth_a|$veth_b)[@:]"; then
    echo "FAIL: a veth was left behind in the root namespace"
    clean=no
  fi
  if [ "$route_added" = yes ] && ip route show | grep -qF "$subnet"; then
    echo "FAIL: the route for $subnet was left behind"
    clean=no
  fi
  if [ -n "${mounts_before:-}" ] && [ "$(root_mounts)" != "$mounts_before" ]; then
    echo "FAIL: the root namespace's mounts changed"
    clean=no
  fi
  rm -rf "$dir"
  if [ "$clean" = yes ]; then
    echo "PASS: teardown: namespaces, veths, route and every process this run started are gone ($((SECONDS - started)) s)"
  else
    status=1
  fi
  if [ "$status" -eq 0 ]; then
    echo "PASS: netns LAN test: list, join by name, a whole game and the spoof refusal across two namespaces"
  else
    echo "FAIL: netns LAN test (exit status $status, $((SECONDS - started)) s)"
  fi
  exit "$status"
}
exec 3>&1 4>&2  # the script's own stdout and stderr, for teardown (closed for every program started)
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# The root namespace's mounts, except ip netns' own (/run/netns and the namespaces' nsfs files under it).
root_mounts() { findmnt -rn -o TARGET,SOURCE,FSTYPE | grep -v '^/run/netns' | sort; }
mounts_before=$(root_mounts)
# `ip netns add` makes /run/netns a mount point the first time; if this run does that, it undoes it.
run_netns_existed=$([ -d /run/netns ] && echo yes || echo no)
run_netns_mounted=$(findmnt -rn /run/netns >/dev/null && echo yes || echo no)

# ---------------------------------------------------------------------------------------------------------
# The network: route block first, then namespaces and the veth pair created inside them.

ip route add unreachable "$subnet" || fatal "cannot add the unreachable route for $subnet"
route_added=yes
for ns in "$ns_a" "$ns_b"; do
  ip netns add "$ns" || fatal "ip netns add $ns"
  created_ns+=("$ns")
done
ip link add "$veth_a" netns "$ns_a" type veth peer name "$veth_b" netns "$ns_b" || fatal "cannot create the veth pair"
ip -n "$ns_a" addr add "$address_a/24" dev "$veth_a" &&
  ip -n "$ns_b" addr add "$address_b/24" dev "$veth_b" &&
  ip -n "$ns_a" link set lo up && ip -n "$ns_b" link set lo up &&
  ip -n "$ns_a" link set "$veth_a" up && ip -n "$ns_b" link set "$veth_b" up || fatal "cannot configure the veths"
pass "namespaces $ns_a ($address_a on $veth_a) and $ns_b ($address_b on $veth_b); $subnet unreachable from the root namespace"

# ---------------------------------------------------------------------------------------------------------
# Per host: holder (private mounts), D-Bus, avahi-daemon on the veth only.

write_avahi_config() {
  local file=$1 host=$2 interface=$3
  cat >"$file" <<CONF
# avahi-daemon for one test namespace: its veth only, IPv4 only, nothing published but the test's services.
[server]
host-name=$host
use-ipv4=yes
use-ipv6=no
allow-interfaces=$interface
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

# Runs a command inside a host: nsenter -t HOLDER -n -m, with stray descriptors closed. -r and -w keep the
# holder's root and directory: entering a mount namespace otherwise resets the root to the namespace's own,
# which in a chroot (scripts/bare-root-test.sh) is the machine's /, not the chroot's.
in_host() {
  local holder=$1
  shift
  nsenter -t "$holder" -n -m -r -w -- "$@" 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9<&-
}

wait_until() { # SECONDS COMMAND...: polls every 0.1 s; true when COMMAND succeeded in time
  local limit=$1 i
  shift
  for ((i = 0; i < limit * 10; i++)); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}

# start_host LETTER NAMESPACE VETH HOSTNAME: sets holder_LETTER.
start_host() {
  local letter=$1 ns=$2 veth=$3 host=$4 holder avahi
  # ip netns exec already gives the command a mount namespace of its own (slave); unshare makes another,
  # private one, so the tmpfs mounts below can never propagate back to the root namespace.
  ip netns exec "$ns" unshare -m --propagation private sh -c '
    set -e
    mkdir -p /run/dbus /run/avahi-daemon
    mount -t tmpfs -o mode=0755 tmpfs /run/dbus
    mount -t tmpfs -o mode=0755 tmpfs /run/avahi-daemon
    echo mounted >"$1"
    exec sleep infinity' holder "$dir/holder-$letter.ready" </dev/null >>"$dir/holder-$letter.log" 2>&1 \
    3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9<&- &
  holder=$!
  daemons+=("$holder sleep")
  wait_until 10 test -s "$dir/holder-$letter.ready" || fatal "host $letter: the holder did not start"
  # D-Bus in the foreground, a child of this script (so it is reaped here, not left to PID 1 as a zombie).
  # A background job is not a process-group leader, so setsid and nsenter exec in place: $! is the daemon.
  setsid nsenter -t "$holder" -n -m -r -w -- dbus-daemon --system --nofork </dev/null >>"$dir/dbus-$letter.log" 2>&1 \
    3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9<&- &
  daemons+=("$! dbus-daemon")
  wait_until 10 in_host "$holder" dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetId >/dev/null 2>&1 || fatal "host $letter: its system bus does not answer"
  write_avahi_config "$dir/avahi-$letter.conf" "$host" "$veth"
  setsid nsenter -t "$holder" -n -m -r -w -- avahi-daemon -f "$dir/avahi-$letter.conf" --no-rlimits --no-drop-root \
    --no-chroot </dev/null >>"$dir/avahi-$letter.log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9<&- &
  avahi=$!
  daemons+=("$avahi avahi-daemon")
  wait_until 15 grep -qs "Server startup complete" "$dir/avahi-$letter.log" ||
    fatal "host $letter: avahi-daemon did not start"
  # It must use its veth and nothing else.
  local interfaces
  interfaces=$(grep -oE 'New relevant interface [^ ]+' "$dir/avahi-$letter.log" | awk '{print $4}' | sort -u | tr '\n' ' ')
  [ "$interfaces" = "$veth.IPv4 " ] || fatal "host $letter: avahi uses interfaces '$interfaces', expected only $veth.IPv4"
  printf -v "holder_$letter" '%s' "$holder"
  pass "host $letter: holder $holder, D-Bus and avahi-daemon $avahi as $host.local on $veth only"
}

start_host a "$ns_a" "$veth_a" ttt-ns-a
start_host b "$ns_b" "$veth_b" ttt-ns-b
if [ "$(root_mounts)" = "$mounts_before" ]; then
  pass "the root namespace's mounts are unchanged (the tmpfs over /run/dbus and /run/avahi-daemon stay inside)"
else
  fatal "mounts leaked into the root namespace: $(diff <(echo "$mounts_before") <(root_mounts))"
fi

# ---------------------------------------------------------------------------------------------------------
# Players: each its own XDG directories and USER, a clean environment, stdin from a fifo this script writes.

player_env() { # NAME: prints env arguments
  local home="$dir/home-$1"
  mkdir -p "$home"
  printf '%s\n' env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" USER="$1" LANG=C.UTF-8 \
    XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_STATE_HOME="$home/state" AVAHI_COMPAT_NOWARN=1
}

# start_player HOLDER NAME FD ARGS...: starts tictactoe in a host with stdin from a fifo held open on FD.
start_player() {
  local holder=$1 name=$2 fd=$3 environment
  shift 3
  mapfile -t environment < <(player_env "$name")
  mkfifo "$dir/$name.in"
  eval "exec $fd<>\"\$dir/\$name.in\""
  nsenter -t "$holder" -n -m -r -w -- "${environment[@]}" "$binary" "$@" <"$dir/$name.in" >"$dir/$name.out" \
    2>"$dir/$name.err" 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9<&- &
  players+=("$! $binary")
  printf -v "pid_$name" '%s' "$!"
}

alive() { process_is "$1" "$binary"; }

start_player "$holder_a" alice 7 host --port 0 --ui plain --accept-new --name alice
wait_until 20 grep -qs "Announced on the local network as alice\." "$dir/alice.out" ||
  fatal "alice did not announce her game in A"
port=$(grep -oE ' on port [0-9]+' "$dir/alice.out" | head -n 1 | awk '{print $3}')
key=$(grep -oE '^Your key: SHA256:[A-Za-z0-9+/=]+' "$dir/alice.out" | head -n 1 | cut -d' ' -f3)
[ -n "$port" ] && [ -n "$key" ] || fatal "cannot read alice's port and key"
pass "alice hosts in A on port $port with key $key, announced"

# ---------------------------------------------------------------------------------------------------------
# B lists the games: alice with A's address and her key.

# Prints each top-level object of a JSON array on a line of its own.
json_objects() {
  tr -d '\n' | awk '{
    depth = 0; quoted = 0; escaped = 0; object = ""
    for (i = 1; i <= length($0); i++) {
      c = substr($0, i, 1)
      if (quoted) {
        object = object c
        if (escaped) escaped = 0; else if (c == "\\") escaped = 1; else if (c == "\"") quoted = 0
        continue
      }
      if (c == "\"") quoted = 1
      if (c == "{") depth++
      if (depth >= 1) object = object c
      if (c == "}") { depth--; if (depth == 0) { print object; object = "" } }
    }
  }'
}

mapfile -t bob_env < <(player_env bob)
listed=""
for attempt in 1 2 3; do
  in_host "$holder_b" "${bob_env[@]}" "$binary" list --wait 3 --json >"$dir/list.json" 2>"$dir/list.err"
  listed=$(json_objects <"$dir/list.json" | grep -F '"name":"alice"')
  [ -n "$listed" ] && break
done
if [ -z "$listed" ]; then
  fatal "B's list does not show alice: $(cat "$dir/list.json")"
fi
addresses=$(grep -oE '"addresses":\[[^]]*\]' <<<"$listed")
if grep -qF "\"$address_a\"" <<<"$addresses" && grep -qF "\"fingerprint\":\"$key\"" <<<"$listed" &&
  grep -qF "\"port\":$port" <<<"$listed"; then
  pass "B lists alice at $addresses port $port with her key (attempt $attempt)"
else
  fail "B lists alice wrongly: $listed (expected $address_a, port $port, $key)"
fi

# ---------------------------------------------------------------------------------------------------------
# B joins alice by name; both sides play to the end, answering each prompt with the next cell 1..9.

start_player "$holder_b" bob 8 join --lan alice --ui plain --accept-new

declare -A answered=([alice]=0 [bob]=0) cell=([alice]=1 [bob]=1)
fd_of() { if [ "$1" = alice ]; then echo 7; else echo 8; fi; }
deadline=$((SECONDS + 30))
outcome=""
while :; do
  for name in alice bob; do
    prompts=$(grep -so 'your move (' "$dir/$name.out" | wc -l)
    while ((answered[$name] < prompts)); do
      echo "${cell[$name]}" >&"$(fd_of "$name")"
      answered[$name]=$((answered[$name] + 1))
      cell[$name]=$((cell[$name] % 9 + 1))
    done
  done
  # Each side's line ends with its own side of it (": you win" or ": you lose"): the result itself must agree.
  result_a=$(grep -soE 'result: [^[:cntrl:]]*' "$dir/alice.out" | head -n 1 | sed -E 's/: you (win|lose)$//')
  result_b=$(grep -soE 'result: [^[:cntrl:]]*' "$dir/bob.out" | head -n 1 | sed -E 's/: you (win|lose)$//')
  if [ -n "$result_a" ] && [ -n "$result_b" ]; then
    outcome=done
    break
  fi
  alive "$pid_alice" || {
    outcome="alice exited"
    break
  }
  alive "$pid_bob" || {
    outcome="bob exited"
    break
  }
  ((SECONDS < deadline)) || {
    outcome="no result within 30 s"
    break
  }
  sleep 0.05
done
if [ "$outcome" != done ]; then
  fatal "the game did not finish: $outcome"
fi
if [ "$result_a" = "$result_b" ]; then
  pass "B joined alice by name and the game was played to the end: '$result_a' on both sides" \
    "(moves answered: alice ${answered[alice]}, bob ${answered[bob]})"
else
  fail "the two sides disagree: alice '$result_a', bob '$result_b'"
fi
grep -q "^opponent: alice" "$dir/bob.out" || fail "bob's side does not name alice as the opponent"
grep -qF "Connected to $address_a" "$dir/bob.out" || fail "bob did not connect to $address_a: $(grep -m1 Connected "$dir/bob.out")"

# ---------------------------------------------------------------------------------------------------------
# The spoof: in A, while alice still runs, a second advertisement with her port and a made-up key.

mapfile -t publisher_env < <(player_env publisher)
nsenter -t "$holder_a" -n -m -r -w -- "${publisher_env[@]}" /usr/bin/avahi-publish -s alice-spoof _tictactoe._tcp "$port" \
  txtvers=1 proto=1 rules=3x3k3 state=waiting "fp=$fake_key" </dev/null >"$dir/publisher.out" 2>&1 \
  3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9<&- &
players+=("$! avahi-publish")
wait_until 15 grep -qs "Established under name" "$dir/publisher.out" || fatal "avahi-publish did not publish alice-spoof"

mapfile -t mallory_env < <(player_env bob2)
mkfifo "$dir/spoof.in"
exec 6<>"$dir/spoof.in"
timeout --kill-after=5 30 nsenter -t "$holder_b" -n -m -r -w -- "${mallory_env[@]}" "$binary" join --lan alice-spoof --ui plain \
  --accept-new <"$dir/spoof.in" >"$dir/spoof.out" 2>"$dir/spoof.err" 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9<&-
spoof_status=$?
exec 6>&-
if [ "$spoof_status" -eq 28 ] && grep -q "The advertisement and the host disagree" "$dir/spoof.err" &&
  grep -qF "$fake_key" "$dir/spoof.err"; then
  pass "joining alice-spoof from B was refused with exit status 28 (the advertisement and the host disagree)"
else
  fail "joining alice-spoof from B ended with status $spoof_status, expected 28: $(cat "$dir/spoof.err")"
fi
alive "$pid_alice" && pass "alice's host was not disturbed by the spoofed join" || fail "alice's host died during the spoofed join"

# ---------------------------------------------------------------------------------------------------------
# Both players quit.

echo quit >&8
echo quit >&7
if wait_until 10 eval '! alive "$pid_alice" && ! alive "$pid_bob"'; then
  wait "$pid_alice"
  status_a=$?
  wait "$pid_bob"
  status_b=$?
  pass "both players left after quit (alice exit $status_a, bob exit $status_b)"
else
  fail "the players did not exit after quit"
fi

if ((failures > 0)); then
  show_logs
  exit 1
fi
exit 0
