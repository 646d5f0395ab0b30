#!/usr/bin/env python3
"""Round trip of 100 bytes between two loopback TCP sockets, direct and glued by Debian's transit relay
(magic-wormhole-transit-relay, started here on 127.0.0.1 at a port it picks, stopped at the end): the relay's
own cost, without TLS or the game. Prints medians of 2000 round trips each, and the time to be glued."""
import os, re, socket, statistics, subprocess, tempfile, time

LOG = os.path.join(tempfile.mkdtemp(prefix="relay-rtt-"), "relay.log")
p = subprocess.Popen(["twist3","transitrelay","--port=tcp:0:interface=127.0.0.1"], stdout=open(LOG,"w"), stderr=subprocess.STDOUT)
port=None
for _ in range(200):
    m = re.search(r"Transit starting on (\d+)", open(LOG).read())
    if m: port=int(m.group(1)); break
    time.sleep(0.05)
def rtts(a, b, n=2000):
    for s in (a,b): s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    msg=b"x"*100; out=[]
    for _ in range(n):
        t=time.perf_counter(); a.sendall(msg); got=b""
        while len(got)<100: got+=b.recv(100-len(got))
        b.sendall(got); got=b""
        while len(got)<100: got+=a.recv(100-len(got))
        out.append(time.perf_counter()-t)
    return statistics.median(out)*1e6
# direct
l=socket.socket(); l.bind(("127.0.0.1",0)); l.listen(1)
a=socket.create_connection(l.getsockname()); b,_=l.accept()
print("direct loopback 100-byte round trip median us: %.1f" % rtts(a,b))
tok=os.urandom(32).hex()
t0=time.perf_counter()
x=socket.create_connection(("127.0.0.1",port)); x.sendall(f"please relay {tok} for side {'1'*16}\n".encode())
y=socket.create_connection(("127.0.0.1",port)); y.sendall(f"please relay {tok} for side {'2'*16}\n".encode())
assert x.recv(3)==b"ok\n" and y.recv(3)==b"ok\n"
print("glue time ms: %.2f" % ((time.perf_counter()-t0)*1000))
print("through relay 100-byte round trip median us: %.1f" % rtts(x,y))
p.terminate(); p.wait()
