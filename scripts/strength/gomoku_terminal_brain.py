#!/usr/bin/env python3
"""A Gomocup (Piskvork) brain around gomoku-terminal's local AI (PyPI gomoku-terminal 1.0.2, `gomoku.ai.GomokuAI`,
not its LLM players), written for the strength benchmark: START, INFO, BOARD ... DONE, BEGIN, TURN, RESTART,
ABOUT and END, lines ending in CR LF. The AI knows no time limit; its difficulty (easy, medium, hard) is the first
argument."""
import random
import sys

from brainloop import serve

from gomoku.ai import GomokuAI
from gomoku.board import Board

difficulty = sys.argv[1] if len(sys.argv) > 1 else "hard"
ai = GomokuAI(difficulty)
random.seed(2026)


def choose(stones, size):
    class Sized(Board):
        SIZE = size

    board = Sized()
    mine = sum(1 for who in stones.values() if who == 1)
    theirs = len(stones) - mine
    # Black (Board.BLACK) moves first: the brain is black when the counts are equal.
    colour = Board.BLACK if mine == theirs else Board.WHITE
    other = Board.WHITE if colour == Board.BLACK else Board.BLACK
    for (x, y), who in stones.items():
        board.place_stone(y, x, colour if who == 1 else other)
    if stones:
        row, col = ai.get_move(board, colour)
    else:
        row, col = size // 2, size // 2
    return col, row


serve(choose, 'name="gomoku-terminal GomokuAI (adapter)", version="1.0.2"')
