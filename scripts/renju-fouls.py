#!/usr/bin/env python3
"""Renju's forbidden moves as a checker nobody here wrote judges them: the `renju` package on PyPI (0.1.0, whose
ForbidChecker is a port of the Piskvork manager's judge, a pattern matcher over each line).

Reads positions on standard input, one a line: a square board's rows joined, one character a cell ('.' empty,
'x' black, the first player, 'o' white), row 0 first. Writes for each the same line, a space, and one character
a cell: '-' for a taken cell, else the foul of black playing there: '0' none, '1' double three, '2' double
four, '3' overline. Run it with the python of the venv scripts/setup-renju.sh makes.

`renju-fouls.py --generate SEED COUNT` writes COUNT random positions instead (seeded; needs no package), for
Tests/GameCoreTests/RenjuFouls.txt:
  scripts/renju-fouls.py --generate 28 400 | "$(scripts/setup-renju.sh)" scripts/renju-fouls.py \
    > Tests/GameCoreTests/RenjuFouls.txt
"""

import math
import random
import sys


def generate(seed: int, count: int) -> None:
    """Positions crowded enough for fouls: a square board (15 most often), a patch of it (anywhere, edges
    included) where each cell is black, white or empty with chances that change from one position to the next."""
    rng = random.Random(seed)
    for _ in range(count):
        size = rng.choice([15, 15, 15, 13, 11, 9])
        patch = rng.randint(5, min(size, 9))
        top = rng.randint(0, size - patch)
        left = rng.randint(0, size - patch)
        black = rng.uniform(0.2, 0.5)
        white = rng.uniform(0.05, 0.3)
        cells = ["."] * (size * size)
        for r in range(top, top + patch):
            for c in range(left, left + patch):
                u = rng.random()
                cells[r * size + c] = "x" if u < black else ("o" if u < black + white else ".")
        print("".join(cells))


def answer(line: str) -> str:
    from renju.check_forbid import get_foul_type

    size = math.isqrt(len(line))
    if size * size != len(line) or any(c not in ".xo" for c in line):
        raise SystemExit(f"renju-fouls: not a square board: {line!r}")
    value = {".": 0, "x": 1, "o": 2}
    board = [[value[line[r * size + c]] for c in range(size)] for r in range(size)]
    out = []
    for r in range(size):
        for c in range(size):
            if board[r][c]:
                out.append("-")
            else:
                out.append(str(get_foul_type(board, r, c)))
    return "".join(out)


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--generate":
        generate(int(sys.argv[2]), int(sys.argv[3]))
        return
    for raw in sys.stdin:
        line = raw.strip()
        if line:
            print(line, answer(line), flush=False)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
