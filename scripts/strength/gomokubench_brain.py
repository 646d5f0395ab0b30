#!/usr/bin/env python3
"""A Gomocup (Piskvork) brain around gomokubench's alpha-beta search (PyPI gomokubench 0.1.10, its `libs`
package), written for the strength benchmark: START, INFO, BOARD ... DONE, BEGIN, TURN, RESTART, ABOUT and END,
lines ending in CR LF. gomokubench knows no time limit; its level (easy, standard, hard) is the first argument."""
import sys

from brainloop import serve

import numpy as np
from libs import piece
from libs.ai import get_best_move, resolve_ai_settings
from libs.board import BoardState

settings = resolve_ai_settings(level=sys.argv[1] if len(sys.argv) > 1 else "standard")
np.random.seed(2026)


def choose(stones, size):
    mine = sum(1 for who in stones.values() if who == 1)
    theirs = len(stones) - mine
    # Black moves first: the brain is black when the counts are equal.
    colour = piece.BLACK if mine == theirs else piece.WHITE
    state = BoardState(size=size, color=-colour)
    for (x, y), who in stones.items():
        state.values[y, x] = colour if who == 1 else -colour
    move, _ = get_best_move(
        state, settings["depth"], colour == piece.BLACK, candidate_count=settings["candidate_count"],
        random_top_n=settings["random_top_n"])
    row, col = (int(v) for v in move)
    return col, row


serve(choose, 'name="gomokubench alpha-beta (adapter)", version="0.1.10"')
