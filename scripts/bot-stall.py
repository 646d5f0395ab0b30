#!/usr/bin/env python3
"""How long the practice bot's event loop stalls while it searches moves (issue 28).

Usage: scripts/bot-stall.py [--seconds S] [--joiners N] [LABEL=]BINARY ...

For each binary, in one run: a bot `host --bot perfect --size 5 --k 4` (5x5, 4 in a row, played exactly) on
loopback with a temporary home; N joiners in plain mode play it with random legal moves (so its search runs past
its table), rematching after each game; meanwhile a probe opens a TLS connection to the bot every 20 ms and
times the handshake, which the bot's loop serves (a loop busy in a search holds the handshake up). Printed per
binary: handshakes timed, median, p99 and worst, in ms. Nothing leaves loopback.
"""

import os
import random
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time


def sandbox():
    root = tempfile.mkdtemp(prefix="ttt-stall-")
    env = dict(os.environ)
    for key, sub in [("HOME", ""), ("XDG_DATA_HOME", "/data"), ("XDG_CONFIG_HOME", "/config"),
                     ("XDG_STATE_HOME", "/state"), ("XDG_RUNTIME_DIR", "/run")]:
        os.makedirs(root + sub, mode=0o700, exist_ok=True)
        env[key] = root + sub
    env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    env["LANG"] = "C.UTF-8"
    return root, env


def joiner(binary, port, name, stop):
    """A plain-mode joiner answering every prompt with a random cell (a taken one is asked again)."""
    root, env = sandbox()
    env["USER"] = name
    proc = subprocess.Popen(
        [binary, "join", "127.0.0.1:%d" % port, "--ui", "plain", "--accept-new", "--name", name],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0)
    buffer = b""
    try:
        while not stop.is_set():
            chunk = proc.stdout.read1(4096) if hasattr(proc.stdout, "read1") else os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            buffer += chunk
            while True:
                prompt = buffer.find(b"your move (")
                result = buffer.find(b"result: ")
                if prompt < 0 and result < 0:
                    break
                if result >= 0 and (prompt < 0 or result < prompt):
                    buffer = buffer[result + 8:]
                    proc.stdin.write(b"rematch\n")
                    continue
                buffer = buffer[prompt + 11:]
                proc.stdin.write(b"%d\n" % random.randint(1, 25))
    except (BrokenPipeError, OSError):
        pass
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(root, ignore_errors=True)


def probe(port, seconds):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                with context.wrap_socket(raw) as tls:
                    times.append(time.monotonic() - start)
        except OSError:
            pass
        time.sleep(0.02)
    return times


def measure(label, binary, seconds, joiners):
    root, env = sandbox()
    env["USER"] = "stallbot"
    bot = subprocess.Popen(
        [binary, "host", "--bot", "perfect", "--size", "5", "--k", "4", "--port", "0", "--bind", "127.0.0.1",
         "--name", "stallbot", "--accept-new"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    port = None
    for line in bot.stdout:
        if " on port " in line:
            port = int(line.split(" on port ")[1].split()[0].rstrip("."))
            break
    if port is None:
        sys.exit("%s: the bot did not start" % label)
    stop = threading.Event()
    threads = [threading.Thread(target=joiner, args=(binary, port, "j%d" % i, stop)) for i in range(joiners)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    times = sorted(probe(port, seconds))
    stop.set()
    bot.terminate()
    try:
        bot.wait(timeout=10)
    except subprocess.TimeoutExpired:
        bot.kill()
    for thread in threads:
        thread.join(timeout=10)
    with open(root + "/state/tictactoe/tictactoe.log", encoding="utf-8", errors="replace") as log:
        games = sum(1 for line in log if "bot game: " in line)
    shutil.rmtree(root, ignore_errors=True)
    if not times:
        sys.exit("%s: no handshake timed" % label)
    ms = [t * 1000 for t in times]
    print("%s: %d handshakes, %d games; median %.1f ms, p99 %.1f ms, worst %.1f ms" % (
        label, len(ms), games, ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))], ms[-1]))


def main():
    args = sys.argv[1:]
    seconds, joiners = 20.0, 4
    binaries = []
    while args:
        word = args.pop(0)
        if word == "--seconds":
            seconds = float(args.pop(0))
        elif word == "--joiners":
            joiners = int(args.pop(0))
        else:
            label, _, path = word.rpartition("=")
            binaries.append((label or path, path))
    if not binaries:
        sys.exit(__doc__)
    for label, binary in binaries:
        measure(label, binary, seconds, joiners)


if __name__ == "__main__":
    main()
