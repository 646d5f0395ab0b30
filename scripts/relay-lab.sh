#!/usr/bin/env bash
# Two homes that cannot reach each other, each behind its own router doing symmetric NAT (nftables masquerade with
# random ports) with no port mapping, and Debian's transit relay on the "internet" between them: the players of
# issue 26, who can meet only through a relay.
#
#   scripts/relay-lab.sh up DIR     make the namespaces, start the relay in the internet namespace
#   scripts/relay-lab.sh down DIR   stop the relay and any capture (by recorded PID) and remove the namespaces
#                                   and routes
#   scripts/relay-lab.sh capture DIR       record what the relay is sent and sends back (tcpdump in the internet
#                                          namespace, every interface, the relay's port) into DIR/relay.pcap
#   scripts/relay-lab.sh capture-stop DIR  stop that recording (its last packets written first)
#   scripts/relay-lab.sh relay-stop DIR    stop the relay (the lab stays: the relay is down)
#
#     home A  10.205.1.2 -- 10.205.1.1  router A  198.51.103.2 --+
#                                                                 198.51.103.1 / .5  internet (the relay)
#     home B  10.205.2.2 -- 10.205.2.1  router B  198.51.103.6 --+
#
# The internet namespace forwards between the routers' outside addresses and knows no route to either home, so a
# direct connection from one home to the other fails at once (network unreachable) while both reach the relay.
# `up` writes DIR/lab.env (HOME_A_NS, HOME_B_NS, ROUTER_A_NS, ROUTER_B_NS, INTERNET_NS, RELAY_IP, RELAY_PORT) and
# DIR/relay.log. Every range is made unreachable in the root namespace FIRST, so nothing sent from here reaches
# the lab and nothing of the lab leaves through this machine's own route. Needs root, ip, nft, twist3.
set -euo pipefail

RANGES="10.205.1.0/24 10.205.2.0/24 198.51.103.0/24"
RELAY_IP=198.51.103.1

usage() {
  echo "usage: $0 up|down|capture|capture-stop|relay-stop DIR" >&2
  exit 64
}

[ $# -eq 2 ] || usage
command=$1
dir=$2

# One home behind one router: home $1 (namespace), router $2, internet $3; $4 the home's /24 prefix (10.205.N),
# $5 the router's outside address, $6 the internet's address on that link, $7 a tag for the interfaces.
home_behind_router() {
  local home=$1 router=$2 internet=$3 lan=$4 wan=$5 peer=$6 tag=$7
  ip link add "h$tag" type veth peer name "r$tag"
  ip link add "w$tag" type veth peer name "i$tag"
  ip link set "h$tag" netns "$home"
  ip link set "r$tag" netns "$router"
  ip link set "w$tag" netns "$router"
  ip link set "i$tag" netns "$internet"
  ip -n "$home" addr add "$lan.2/24" dev "h$tag"
  ip -n "$home" link set "h$tag" up
  ip -n "$home" route add default via "$lan.1"
  ip -n "$router" addr add "$lan.1/24" dev "r$tag"
  ip -n "$router" addr add "$wan/30" dev "w$tag"
  ip -n "$router" link set "r$tag" up
  ip -n "$router" link set "w$tag" up
  ip -n "$router" route add default via "$peer"
  ip -n "$internet" addr add "$peer/30" dev "i$tag"
  ip -n "$internet" link set "i$tag" up
  ip netns exec "$router" sysctl -q -w net.ipv4.ip_forward=1
  # Symmetric NAT: every outgoing connection gets a random outside port; nothing comes in unasked.
  ip netns exec "$router" nft -f - <<EOF
table inet nat {
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    oifname "w$tag" masquerade random,fully-random
  }
}
table inet filter {
  chain forward {
    type filter hook forward priority 0; policy drop;
    ct state established,related accept
    iifname "r$tag" oifname "w$tag" accept
  }
}
EOF
}

up() {
  for tool in ip nft twist3; do
    command -v "$tool" >/dev/null || {
      echo "relay-lab: $tool is missing (apt-get install iproute2 nftables magic-wormhole-transit-relay)" >&2
      exit 69
    }
  done
  mkdir -p "$dir"
  local tag=$$ range
  local home_a=ttt-rhomea-$tag home_b=ttt-rhomeb-$tag router_a=ttt-rrtra-$tag router_b=ttt-rrtrb-$tag
  local internet=ttt-rinet-$tag
  # The rule: block the ranges here before they exist anywhere (removed by `down`).
  for range in $RANGES; do ip route add unreachable "$range" 2>/dev/null || true; done
  echo routes >"$dir/routes"
  cat >"$dir/lab.env" <<EOF
HOME_A_NS=$home_a
HOME_B_NS=$home_b
ROUTER_A_NS=$router_a
ROUTER_B_NS=$router_b
INTERNET_NS=$internet
RELAY_IP=$RELAY_IP
EOF
  local ns
  for ns in "$home_a" "$home_b" "$router_a" "$router_b" "$internet"; do
    ip netns add "$ns"
    ip -n "$ns" link set lo up
  done
  home_behind_router "$home_a" "$router_a" "$internet" 10.205.1 198.51.103.2 198.51.103.1 "a$tag"
  home_behind_router "$home_b" "$router_b" "$internet" 10.205.2 198.51.103.6 198.51.103.5 "b$tag"
  ip netns exec "$internet" sysctl -q -w net.ipv4.ip_forward=1
  # The relay, on every address of the internet namespace, at a port it picks. Its log exists before the
  # background job runs (that job's own redirection may come after the first look at the log).
  : >"$dir/relay.log"
  setsid ip netns exec "$internet" twist3 transitrelay --port=tcp:0 >>"$dir/relay.log" 2>&1 </dev/null &
  echo $! >"$dir/relay.pid"
  local tries=0 port=""
  until [ -n "$port" ]; do
    port=$(sed -n 's/.*Transit starting on \([0-9]*\).*/\1/p' "$dir/relay.log" | head -n 1) || port=""
    tries=$((tries + 1))
    [ "$tries" -lt 400 ] || { echo "relay-lab: the relay did not start:" >&2; cat "$dir/relay.log" >&2; exit 1; }
    [ -n "$port" ] || sleep 0.05
  done
  echo "RELAY_PORT=$port" >>"$dir/lab.env"
}

# Stops the process whose PID is in file $1 (SIGTERM, or $2), waits up to 2.5 s, then SIGKILL; removes the file.
stop_recorded() {
  local file=$1 signal=${2:-TERM} pid
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  kill "-$signal" "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$file"
}

# tcpdump in the internet namespace on every interface, for the relay's port only: what reaches the relay from
# either home (or from the internet namespace itself, over its loopback) and what it sends back. Each packet is
# handed over and written as it comes (--immediate-mode -U: without them a whole game's packets still waited in
# the kernel's buffer when tcpdump was stopped and were lost: "74 packets received by filter", "0 packets
# captured"); it stays root (-Z root) to write into DIR.
capture() {
  # shellcheck disable=SC1091
  . "$dir/lab.env"
  command -v tcpdump >/dev/null || { echo "relay-lab: tcpdump is missing (apt-get install tcpdump)" >&2; exit 69; }
  : >"$dir/tcpdump.log"
  setsid ip netns exec "$INTERNET_NS" tcpdump -i any --immediate-mode -U -Z root -s 0 -w "$dir/relay.pcap" \
    "tcp port $RELAY_PORT" >>"$dir/tcpdump.log" 2>&1 </dev/null &
  echo $! >"$dir/tcpdump.pid"
  local tries=0
  until grep -q "listening on" "$dir/tcpdump.log"; do
    tries=$((tries + 1))
    [ "$tries" -lt 400 ] || { echo "relay-lab: tcpdump did not start:" >&2; cat "$dir/tcpdump.log" >&2; exit 1; }
    sleep 0.05
  done
}

down() {
  [ -f "$dir/lab.env" ] || return 0
  # shellcheck disable=SC1091
  . "$dir/lab.env"
  stop_recorded "$dir/tcpdump.pid" INT
  stop_recorded "$dir/relay.pid"
  local ns range
  for ns in "$HOME_A_NS" "$HOME_B_NS" "$ROUTER_A_NS" "$ROUTER_B_NS" "$INTERNET_NS"; do
    ip netns del "$ns" 2>/dev/null || true
  done
  if [ -f "$dir/routes" ]; then
    for range in $RANGES; do ip route del unreachable "$range" 2>/dev/null || true; done
    rm -f "$dir/routes"
  fi
  rm -f "$dir/lab.env"
}

case "$command" in
  up) up ;;
  down) down ;;
  capture) capture ;;
  capture-stop) stop_recorded "$dir/tcpdump.pid" INT ;;
  relay-stop) stop_recorded "$dir/relay.pid" ;;
  *) usage ;;
esac
