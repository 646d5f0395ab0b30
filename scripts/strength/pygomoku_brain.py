#!/usr/bin/env python3
"""A Gomocup (Piskvork) brain around pygomoku's alpha-beta search (PyPI pygomoku 1.0.0), written for the
strength benchmark: START, INFO, BOARD ... DONE, BEGIN, TURN, RESTART, ABOUT and END, lines ending in CR LF.
pygomoku knows no time limit; its depth is the first argument (2 unless given)."""
import os
import sys

os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

from pygomoku.board import AlphaBetaHeuristic
from pygomoku.score import Player

depth = int(sys.argv[1]) if len(sys.argv) > 1 else 2
size = 15
stones = {}  # (x, y) -> 1 (the brain's) or 2 (the opponent's)


def answer(text):
    sys.stdout.write(text + "\r\n")
    sys.stdout.flush()


def think():
    engine = AlphaBetaHeuristic(grid_size=size, max_depth=depth)
    for (x, y), who in stones.items():
        engine.board[(y, x)] = Player.MAX if who == 1 else Player.MIN
    engine.next_player = Player.MAX
    if not stones:
        row, col = size // 2, size // 2
    else:
        row, col = engine.calculate_next_move()
    stones[(col, row)] = 1
    answer(f"{col},{row}")


reading_board = False
for raw in sys.stdin:
    line = raw.strip()
    words = line.replace(",", " ").split()
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
        answer('name="pygomoku alpha-beta (adapter)", version="1.0.0"')
    elif command == "END":
        break
    else:
        answer("UNKNOWN " + command)
