#!/usr/bin/env python3
"""How long `tictactoe join` takes, and how much memory it peaks at, with a known_peers of ~150 MB (issue 25,
item 13): the same homes and the same file, each binary given in turn, in one run.

    scripts/bench-known-peers.py [--entries N] [LABEL=]BINARY [[LABEL=]BINARY ...]

For each binary: alice hosts (--accept-new) and bob, who met her at 127.0.0.1:PORT, joins her there with N other
players in his known_peers before her line. Bob's join is timed from its start to the game ("game 1:") and to its
exit after `quit`, and its peak resident memory is the kernel's (ru_maxrss from wait4, which includes everything
the process ever touched). Joins are run three times on the same files: the first finds no index (or a stale one)
and the program makes it, the next two find it made. Traffic goes to loopback only; every process started here is
ended by its pid.
"""
import argparse
import base64
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def environment(root, user):
    env = dict(os.environ)
    env.update({
        "HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/data",
        "XDG_STATE_HOME": root + "/state", "LANG": "C.UTF-8", "AVAHI_COMPAT_NOWARN": "1", "USER": user,
    })
    return env


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(process, text, limit):
    """Reads the process's stdout until a line holds `text`; the seconds it took, or None."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        line = process.stdout.readline()
        if not line:
            return None
        if text in line:
            return time.monotonic() - start
    return None


def host(binary, env, port):
    process = subprocess.Popen(
        [binary, "host", "--port", str(port), "--ui", "plain", "--accept-new"], env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the host did not start")


def join(binary, env, port, extra=()):
    """One timed join: (seconds to the game, seconds to the exit, peak resident MB, exit status)."""
    start = time.monotonic()
    process = subprocess.Popen(
        [binary, "join", "127.0.0.1:%d" % port, "--ui", "plain", *extra], env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    game = wait_for(process, "game 1:", 120)
    try:
        process.stdin.write("quit\n")
        process.stdin.flush()
    except BrokenPipeError:
        pass
    _, status, usage = os.wait4(process.pid, 0)
    end = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return game, end, usage.ru_maxrss / 1024.0, process.returncode


def make_known_peers(path, entries, tail):
    """`entries` made-up players (75 bytes a line, as the issue's file), then `tail` (bob's own lines)."""
    with open(path, "w") as out:
        chunk = []
        for number in range(entries):
            key = base64.b64encode(number.to_bytes(8, "little") * 4).decode()[:43]
            chunk.append("player%d SHA256:%s 2026-11-%02d\n" % (number, key, 1 + number % 28))
            if len(chunk) == 100_000:
                out.write("".join(chunk))
                chunk = []
        out.write("".join(chunk) + tail)
    os.chmod(path, 0o600)


def run(name, binary, root, entries, port):
    alice = environment(root + "/alice", "alice")
    bob = environment(root + "/bob", "bob")
    first = host(binary, alice, port)
    met = join(binary, bob, port, ["--accept-new"])
    first.terminate()
    first.wait()
    if met[3] != 0:
        raise SystemExit("%s: bob could not meet alice (status %d)" % (binary, met[3]))
    known = bob["XDG_DATA_HOME"] + "/tictactoe/known_peers"
    with open(known) as existing:
        tail = existing.read()
    make_known_peers(known, entries, tail)
    size = os.path.getsize(known) / 1e6
    rows = []
    for attempt in range(3):
        server = host(binary, alice, port)
        game, end, peak, status = join(binary, bob, port)
        server.terminate()
        server.wait()
        rows.append((attempt, game, end, peak, status))
        print("%s, known_peers %.0f MB, join %d: game at %s s, exit at %.2f s (status %d), peak %.0f MB" % (
            name, size, attempt + 1, "%.2f" % game if game is not None else "never", end, status, peak),
            file=sys.stderr)
    return name, size, rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=2_000_000)
    parser.add_argument("binaries", nargs="+")
    arguments = parser.parse_args()
    results = []
    for given in arguments.binaries:
        name, _, binary = given.rpartition("=")
        root = tempfile.mkdtemp(prefix="bench-known-peers-")
        try:
            results.append(run(name or binary, os.path.abspath(binary), root, arguments.entries, free_port()))
        finally:
            shutil.rmtree(root, ignore_errors=True)
    print("| Binary | known_peers | Join | Game starts | Join exits | Peak resident (ru_maxrss) |")
    print("|---|---|---|---|---|---|")
    for name, size, rows in results:
        for attempt, game, end, peak, status in rows:
            what = "first (index made)" if attempt == 0 else "again"
            started = "%.2f s" % game if game is not None else "never (status %d)" % status
            print("| %s | %.0f MB | %s | %s | %.2f s | %.0f MB |" % (name, size, what, started, end, peak))


if __name__ == "__main__":
    main()
