#!/usr/bin/env python3
"""A Gomocup (Piskvork) brain around pygomoku's alpha-beta search (PyPI pygomoku 1.0.0), written for the
strength benchmark: START, INFO, BOARD ... DONE, BEGIN, TURN, RESTART, ABOUT and END, lines ending in CR LF.
pygomoku knows no time limit; its depth is the first argument (2 unless given)."""
import os
import sys

from brainloop import serve

os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

from pygomoku.board import AlphaBetaHeuristic
from pygomoku.score import Player

depth = int(sys.argv[1]) if len(sys.argv) > 1 else 2


def choose(stones, size):
    engine = AlphaBetaHeuristic(grid_size=size, max_depth=depth)
    for (x, y), who in stones.items():
        engine.board[(y, x)] = Player.MAX if who == 1 else Player.MIN
    engine.next_player = Player.MAX
    if not stones:
        row, col = size // 2, size // 2
    else:
        row, col = engine.calculate_next_move()
    return col, row


serve(choose, 'name="pygomoku alpha-beta (adapter)", version="1.0.0"')
