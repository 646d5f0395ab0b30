#!/usr/bin/env python3
"""Silent connections to 127.0.0.1:PORT from 127.0.0.10-249, PER per address, each opened again a second after
the host closes it, for SECONDS (issue 25, item 6). Usage: silent-flood.py PORT PER SECONDS"""
import selectors, socket, sys, time
port, per, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
sel = selectors.DefaultSelector()
slots = [f"127.0.0.{10 + i % 240}" for i in range(240 * per)]
socks = {}
def open_slot(i):
    s = socket.socket(); s.setblocking(False)
    s.bind((slots[i], 0))
    try: s.connect(("127.0.0.1", port))
    except BlockingIOError: pass
    except OSError: s.close(); return
    socks[s.fileno()] = (s, i); sel.register(s, selectors.EVENT_READ)
for i in range(len(slots)): open_slot(i)
end = time.time() + seconds; closed = 0; reopen = []
while time.time() < end:
    for key, _ in sel.select(0.1):
        s, i = socks.pop(key.fd); sel.unregister(s)
        try: s.recv(4096)
        except OSError: pass
        s.close(); closed += 1; reopen.append((time.time() + 1, i))
    now = time.time()
    due = [r for r in reopen if r[0] <= now]; reopen = [r for r in reopen if r[0] > now]
    for _, i in due: open_slot(i)
print(f"open {len(socks)} closed by host {closed}", flush=True)
