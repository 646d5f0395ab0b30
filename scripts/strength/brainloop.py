"""The Gomocup (Piskvork) brain protocol the strength benchmark's adapters share: START, INFO, BOARD ... DONE,
BEGIN, TURN, RESTART, ABOUT and END, lines ending in CR LF. Each adapter gives the move of its engine; this reads
the manager's commands and answers them."""
import sys


def serve(choose, about, out=None):
    """Answers the manager on standard input until END. `choose(stones, size)` is the engine's move as (x, y)
    (column, row from 0), where `stones` maps (x, y) to 1 (the brain's stone) or 2 (the opponent's); `about` is
    the ABOUT answer; `out` is where the answers go (standard output unless given)."""
    out = out or sys.stdout
    size = 15
    stones = {}
    reading_board = False

    def answer(text):
        out.write(text + "\r\n")
        out.flush()

    def think():
        x, y = choose(stones, size)
        stones[(x, y)] = 1
        answer(f"{x},{y}")

    for raw in sys.stdin:
        words = raw.strip().replace(",", " ").split()
        if not words:
            continue
        command = words[0].upper()
        if reading_board:
            if command == "DONE":
                reading_board = False
                think()
            else:
                x, y, who = (int(w) for w in words[:3])
                stones[(x, y)] = who
            continue
        if command == "START":
            size = int(words[1])
            stones.clear()
            answer("OK")
        elif command == "RESTART":
            stones.clear()
            answer("OK")
        elif command == "INFO":
            pass
        elif command == "BOARD":
            stones.clear()
            reading_board = True
        elif command == "BEGIN":
            think()
        elif command == "TURN":
            stones[(int(words[1]), int(words[2]))] = 2
            think()
        elif command == "ABOUT":
            answer(about)
        elif command == "END":
            break
        else:
            answer("UNKNOWN " + command)
