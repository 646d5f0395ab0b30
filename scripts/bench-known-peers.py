#!/usr/bin/env python3
"""How long `tictactoe join` takes, and how much memory it peaks at, with a known_peers of ~150 MB (issue 25,
item 13): the same homes and the same file, each binary given in turn, in one run.

    scripts/bench-known-peers.py [--entries N] [LABEL=]BINARY [[LABEL=]BINARY ...]

For each binary: alice hosts (--accept-new) and bob, who met her at 127.0.0.1:PORT, joins her there, both with N
other players in their known_peers before their own lines; then at `localhost:PORT` (her known key bound to a
new address: a line rewritten), twice; then bob joins carol, a new host, with --accept-new (remembered with her
address), and once more. Bob's join is timed from its start to the game ("game 1:") and to its
exit after `quit`, and its peak resident memory is VmHWM from /proc/PID/status, read every 2 ms until it exits
(and ru_maxrss from wait4 beside it: the kernel's own peak, but one that starts from the peak of the process that
started it, so this script keeps its own memory small and makes the big file in a child process). The host's peak
is sampled the same way. Alice is joined three times on the same files: the first join finds no index (or a stale
one) and the program makes it, the next two find it made. Traffic goes to loopback only; every process started here
is ended by its pid.
"""
import argparse
import base64
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
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


def sample_peak(pid, peak, done):
    """Keeps peak[0] at the largest VmHWM (kB) read from /proc/PID/status until `done` is set."""
    while not done.is_set():
        try:
            with open("/proc/%d/status" % pid) as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peak[0] = max(peak[0], int(line.split()[1]))
        except OSError:
            return
        time.sleep(0.002)


def join(binary, env, port, extra=(), at="127.0.0.1"):
    """One timed join: (seconds to the game, seconds to the exit, VmHWM MB, ru_maxrss MB, exit status)."""
    os.makedirs(env["HOME"], exist_ok=True)
    start = time.monotonic()
    process = subprocess.Popen(
        [binary, "join", "%s:%d" % (at, port), "--ui", "plain", *extra], env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(env["HOME"] + "/join.err", "a"))
    peak, done = [0], threading.Event()
    sampler = threading.Thread(target=sample_peak, args=(process.pid, peak, done))
    sampler.start()
    game = wait_for(process, "game 1:", 120)
    try:
        process.stdin.write("quit\n")
        process.stdin.flush()
    except BrokenPipeError:
        pass
    # The zombie keeps /proc/PID/status (without its memory lines) until it is waited for: sample up to then.
    while True:
        with open("/proc/%d/stat" % process.pid) as stat:
            if stat.read().split(") ")[1].startswith("Z"):
                break
        time.sleep(0.002)
    done.set()
    sampler.join()
    _, status, usage = os.wait4(process.pid, 0)
    end = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return game, end, peak[0] / 1024.0, usage.ru_maxrss / 1024.0, process.returncode


def make_known_peers(path, entries):
    """`entries` made-up players (75 bytes a line, as the issue's file), written by a child process (this one's
    memory stays small: see ru_maxrss above)."""
    subprocess.run([sys.executable, os.path.abspath(__file__), "--generate", path, str(entries)], check=True)


def generate(path, entries):
    with open(path, "w") as out:
        chunk = []
        for number in range(entries):
            key = base64.b64encode(hashlib.sha256(number.to_bytes(8, "little")).digest()).decode()[:43]
            chunk.append("player%d SHA256:%s 2026-11-%02d\n" % (number, key, 1 + number % 28))
            if len(chunk) == 10_000:
                out.write("".join(chunk))
                chunk = []
        out.write("".join(chunk))


def grow(environment, entries, big):
    """Puts the made-up players before the player's own lines in its known_peers."""
    known = environment["XDG_DATA_HOME"] + "/tictactoe/known_peers"
    with open(known) as existing:
        tail = existing.read()
    shutil.copyfile(big, known)
    with open(known, "a") as out:
        out.write(tail)
    os.chmod(known, 0o600)
    return os.path.getsize(known) / 1e6


def timed_join(binary, host_env, joiner_env, port, extra=(), at="127.0.0.1"):
    """A host started, one join timed, the host stopped: the join's figures and the host's peak (MB)."""
    server = host(binary, host_env, port)
    peak, done = [0], threading.Event()
    sampler = threading.Thread(target=sample_peak, args=(server.pid, peak, done))
    sampler.start()
    figures = join(binary, joiner_env, port, extra, at)
    done.set()
    sampler.join()
    server.terminate()
    server.wait()
    return figures + (peak[0] / 1024.0,)


def run(name, binary, root, entries, port):
    alice = environment(root + "/alice", "alice")
    bob = environment(root + "/bob", "bob")
    carol = environment(root + "/carol", "carol")
    first = host(binary, alice, port)
    met = join(binary, bob, port, ["--accept-new"])
    first.terminate()
    first.wait()
    if met[-1] != 0:
        with open(bob["HOME"] + "/join.err") as errors:
            raise SystemExit("%s: bob could not meet alice (status %d): %s" % (binary, met[-1], errors.read()))
    big = root + "/big"
    make_known_peers(big, entries)
    size = grow(bob, entries, big)
    grow(alice, entries, big)
    os.unlink(big)
    # Bob joins alice, whom both know, three times; then carol, a new host (remembered with her address), twice.
    plan = [("alice, known", alice, port, (), "127.0.0.1")] * 3
    # Alice at another address (the name, not the number): her known key is bound to it too (a line rewritten).
    plan += [("alice at localhost, a new address", alice, port, (), "localhost")]
    plan += [("alice at localhost, known now", alice, port, (), "localhost")]
    other = free_port()
    plan += [("carol, new (--accept-new)", carol, other, ("--accept-new",), "127.0.0.1")]
    plan += [("carol, known now", carol, other, (), "127.0.0.1")]
    rows = []
    for what, host_env, host_port, extra, at in plan:
        game, end, peak, maxrss, status, host_peak = timed_join(binary, host_env, bob, host_port, extra, at)
        rows.append((what, game, end, peak, maxrss, status, host_peak))
        print("%s, known_peers %.0f MB, join %s: game at %s s, exit at %.2f s (status %d), VmHWM %.0f MB, "
              "ru_maxrss %.0f MB; host VmHWM %.0f MB" % (
                  name, size, what, "%.2f" % game if game is not None else "never", end, status, peak, maxrss,
                  host_peak), file=sys.stderr)
    return name, size, rows


def main():
    if sys.argv[1:2] == ["--generate"]:
        return generate(sys.argv[2], int(sys.argv[3]))
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
    print("| Binary | known_peers | Bob joins | Game starts | Join exits | Joiner's peak (VmHWM) | Joiner's ru_maxrss "
          "| Host's peak (VmHWM) |")
    print("|---|---|---|---|---|---|---|---|")
    for name, size, rows in results:
        for what, game, end, peak, maxrss, status, host_peak in rows:
            started = "%.2f s" % game if game is not None else "never (status %d)" % status
            print("| %s | %.0f MB | %s | %s | %.2f s | %.0f MB | %.0f MB | %.0f MB |" % (
                name, size, what, started, end, peak, maxrss, host_peak))


if __name__ == "__main__":
    main()
