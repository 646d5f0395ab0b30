#!/usr/bin/env bash
# A home router in network namespaces, for the port-mapping tests: a home LAN with the game's host, a router that
# masquerades (nftables) and runs Debian's miniupnpd, and an "internet" side with the joiner.
#
#   scripts/nat-lab.sh up DIR [MODE]   MODE: both (UPnP IGD and NAT-PMP/PCP, the default), upnp, natpmp, none
#   scripts/nat-lab.sh down DIR        stop what `up DIR` started (by recorded PID) and remove the namespaces
#   scripts/nat-lab.sh ruleset DIR     the router's nftables ruleset (the mappings show as dnat rules)
#
#     home    10.203.0.2  --  10.203.0.1  router  198.51.101.1  --  198.51.101.2  internet
#
# `up` writes DIR/lab.env (HOME_NS, ROUTER_NS, INTERNET_NS, and the addresses) and DIR/miniupnpd.log. The router's
# outside range 198.51.101.0/24 is an ordinary one (miniupnpd refuses to map behind a reserved external address),
# so it and the home subnet are made unreachable in the root namespace FIRST: nothing sent from here can reach them,
# and nothing of the lab leaves through this machine's own route. Needs root, ip, nft, miniupnpd.
set -euo pipefail

LAN=10.203.0.0/24
WAN=198.51.101.0/24
HOME_IP=10.203.0.2
ROUTER_LAN_IP=10.203.0.1
ROUTER_WAN_IP=198.51.101.1
INTERNET_IP=198.51.101.2

usage() {
  echo "usage: $0 up DIR [both|upnp|natpmp|none] | down DIR | ruleset DIR" >&2
  exit 64
}

[ $# -ge 2 ] || usage
command=$1
dir=$2

load() {
  [ -f "$dir/lab.env" ] || { echo "nat-lab: no lab in $dir" >&2; exit 1; }
  # shellcheck disable=SC1091
  . "$dir/lab.env"
}

up() {
  local mode=${1:-both}
  case "$mode" in both | upnp | natpmp | none) ;; *) usage ;; esac
  for tool in ip nft miniupnpd; do
    command -v "$tool" >/dev/null || { echo "nat-lab: $tool is missing (apt-get install iproute2 nftables miniupnpd)" >&2; exit 69; }
  done
  mkdir -p "$dir"
  local tag=$$
  HOME_NS=ttt-home-$tag ROUTER_NS=ttt-router-$tag INTERNET_NS=ttt-inet-$tag
  cat >"$dir/lab.env" <<EOF
HOME_NS=$HOME_NS
ROUTER_NS=$ROUTER_NS
INTERNET_NS=$INTERNET_NS
HOME_IP=$HOME_IP
ROUTER_LAN_IP=$ROUTER_LAN_IP
ROUTER_WAN_IP=$ROUTER_WAN_IP
INTERNET_IP=$INTERNET_IP
MODE=$mode
EOF
  # The rule: block the subnets here before they exist anywhere (removed by `down`).
  ip route add unreachable "$LAN" 2>/dev/null || true
  ip route add unreachable "$WAN" 2>/dev/null || true
  echo routes >"$dir/routes"
  ip netns add "$HOME_NS"
  ip netns add "$ROUTER_NS"
  ip netns add "$INTERNET_NS"
  ip link add th-$tag type veth peer name tr-$tag
  ip link add ti-$tag type veth peer name tw-$tag
  ip link set th-$tag netns "$HOME_NS"
  ip link set tr-$tag netns "$ROUTER_NS"
  ip link set tw-$tag netns "$ROUTER_NS"
  ip link set ti-$tag netns "$INTERNET_NS"
  local ns
  for ns in "$HOME_NS" "$ROUTER_NS" "$INTERNET_NS"; do ip -n "$ns" link set lo up; done
  ip -n "$HOME_NS" addr add "$HOME_IP/24" dev th-$tag
  ip -n "$HOME_NS" link set th-$tag up
  ip -n "$HOME_NS" route add default via "$ROUTER_LAN_IP"
  ip -n "$ROUTER_NS" addr add "$ROUTER_LAN_IP/24" dev tr-$tag
  ip -n "$ROUTER_NS" addr add "$ROUTER_WAN_IP/24" dev tw-$tag
  ip -n "$ROUTER_NS" link set tr-$tag up
  ip -n "$ROUTER_NS" link set tw-$tag up
  ip -n "$INTERNET_NS" addr add "$INTERNET_IP/24" dev ti-$tag
  ip -n "$INTERNET_NS" link set ti-$tag up
  ip netns exec "$ROUTER_NS" sysctl -q -w net.ipv4.ip_forward=1
  # miniupnpd's nftables build wants one `inet filter` table holding its chains (see shared/PLATFORM.md).
  ip netns exec "$ROUTER_NS" nft -f - <<EOF
table inet filter {
  chain miniupnpd { }
  chain prerouting_miniupnpd { }
  chain postrouting_miniupnpd { }
  chain forward {
    type filter hook forward priority 0; policy drop;
    ct state established,related accept
    iifname "tr-$tag" oifname "tw-$tag" accept
    jump miniupnpd
  }
  chain prerouting {
    type nat hook prerouting priority -100; policy accept;
    jump prerouting_miniupnpd
  }
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    oifname "tw-$tag" masquerade
    jump postrouting_miniupnpd
  }
}
EOF
  [ "$mode" = none ] && return 0
  local upnp=yes natpmp=yes
  [ "$mode" = natpmp ] && upnp=no
  [ "$mode" = upnp ] && natpmp=no
  cat >"$dir/miniupnpd.conf" <<EOF
ext_ifname=tw-$tag
listening_ip=tr-$tag
enable_natpmp=$natpmp
enable_upnp=$upnp
secure_mode=yes
system_uptime=yes
uuid=3d3cec3a-8cf0-11e0-98ee-001a6b5ea6$(printf '%02x' $((tag % 256)))
allow 1024-65535 10.203.0.0/24 1024-65535
deny 0-65535 0.0.0.0/0 0-65535
EOF
  ip netns exec "$ROUTER_NS" miniupnpd -f "$dir/miniupnpd.conf" -d -P "$dir/miniupnpd.pid.file" \
    >"$dir/miniupnpd.log" 2>&1 &
  echo $! >"$dir/miniupnpd.pid"
  # Ready when it listens (UPnP's HTTP port or the NAT-PMP/PCP port).
  local tries=0
  until ip netns exec "$ROUTER_NS" ss -lnu 2>/dev/null | grep -q ':5351 ' ||
    ip netns exec "$ROUTER_NS" ss -lnt 2>/dev/null | grep -q LISTEN; do
    tries=$((tries + 1))
    [ "$tries" -lt 100 ] || { echo "nat-lab: miniupnpd did not start:" >&2; cat "$dir/miniupnpd.log" >&2; exit 1; }
    sleep 0.05
  done
}

down() {
  [ -f "$dir/lab.env" ] || return 0
  load
  if [ -f "$dir/miniupnpd.pid" ]; then
    local pid
    pid=$(cat "$dir/miniupnpd.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/miniupnpd.pid"
  fi
  local ns
  for ns in "$HOME_NS" "$ROUTER_NS" "$INTERNET_NS"; do ip netns del "$ns" 2>/dev/null || true; done
  if [ -f "$dir/routes" ]; then
    ip route del unreachable "$LAN" 2>/dev/null || true
    ip route del unreachable "$WAN" 2>/dev/null || true
    rm -f "$dir/routes"
  fi
  rm -f "$dir/lab.env"
}

case "$command" in
  up) up "${3:-both}" ;;
  down) down ;;
  ruleset) load && ip netns exec "$ROUTER_NS" nft list ruleset ;;
  *) usage ;;
esac
