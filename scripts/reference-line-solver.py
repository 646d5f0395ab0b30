#!/usr/bin/env python3
"""An independent win/draw/loss solver for m,n,k boards, written apart from GameCore's LineSolver.

Plain minimax over whole boards (tuples), memoised in a dict, stopping at the first winning reply: no alpha-beta
window, no bit masks, no symmetry, no pruning of dead lines or passes. Slow, but simple enough to trust.

Usage: reference-line-solver.py ROWS COLUMNS K SEED COUNT MIN_MARKS MAX_MARKS
Prints one line per random position (seeded; positions already over are skipped):
  CELLS VALUE KEEPING
CELLS is row by row, '.' empty, 'x', 'o'; VALUE is the side to move's result (1 win, 0 draw, -1 loss);
KEEPING lists, comma-separated, every empty cell (row * COLUMNS + column) whose move keeps that value.
"""
import random
import sys


def lines_of(rows, columns, k):
    found = []
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                    found.append(tuple(rr * columns + cc for rr, cc in cells))
    return found


class Reference:
    def __init__(self, rows, columns, k):
        self.lines = lines_of(rows, columns, k)
        self.memo = {}

    def won(self, board, mark):
        return any(all(board[i] == mark for i in line) for line in self.lines)

    def value(self, board, mark):
        """The result `mark` (to move) can force; the position is not over."""
        key = (board, mark)
        if key in self.memo:
            return self.memo[key]
        other = 'o' if mark == 'x' else 'x'
        best = -1
        empties = [i for i, cell in enumerate(board) if cell == '.']
        for i in empties:
            result = self.after(board, mark, i)
            if result > best:
                best = result
            if best == 1:
                break
        self.memo[key] = best
        return best

    def after(self, board, mark, i):
        """The mover's result after `mark` plays cell i."""
        other = 'o' if mark == 'x' else 'x'
        child = board[:i] + (mark,) + board[i + 1:]
        if self.won(child, mark):
            return 1
        if '.' not in child:
            return 0
        return -self.value(child, other)


def main():
    rows, columns, k, seed, count, low, high = (int(a) for a in sys.argv[1:8])
    rng = random.Random(seed)
    reference = Reference(rows, columns, k)
    made = 0
    while made < count:
        marks = rng.randint(low, high)
        cells = rng.sample(range(rows * columns), marks)
        board = ['.'] * (rows * columns)
        for n, cell in enumerate(cells):
            board[cell] = 'x' if n % 2 == 0 else 'o'
        board = tuple(board)
        if reference.won(board, 'x') or reference.won(board, 'o') or '.' not in board:
            continue
        mark = 'x' if marks % 2 == 0 else 'o'
        value = reference.value(board, mark)
        keeping = [i for i, cell in enumerate(board) if cell == '.' and reference.after(board, mark, i) == value]
        print(''.join(board), value, ','.join(map(str, keeping)), flush=True)
        made += 1
        if len(reference.memo) > 3_000_000:
            reference.memo.clear()


main()
