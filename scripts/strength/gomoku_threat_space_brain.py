#!/usr/bin/env python3
"""A Gomocup (Piskvork) brain around the threat-space-search player of PyPI gomoku 0.1.0
(`gomoku.player.threat_space.ThreatSpace`, 15×15 only), written for the strength benchmark: START, INFO, BOARD ...
DONE, BEGIN, TURN, RESTART, ABOUT and END, lines ending in CR LF. The player prints its reasoning on standard
output: that goes to standard error here. It knows no time limit. A new player is made for each move: the
package's keeps a planned line between moves and would play it on even after the opponent took one of its cells."""
import random
import sys

from brainloop import serve
import types

# gomoku.player imports its web player, which needs flask_socketio (not among the package's dependencies): a
# stand-in module lets the rest load without a web stack.
_web = types.ModuleType("flask_socketio")
_web.SocketIO = _web.emit = _web.join_room = None
sys.modules.setdefault("flask_socketio", _web)

from gomoku.board import Board  # noqa: E402
from gomoku.player import threat_space  # noqa: E402

protocol = sys.stdout
sys.stdout = sys.stderr
threat_space.VERBOSE = 0
random.seed(2026)


def choose(stones, size):
    mine = [(y, x) for (x, y), who in stones.items() if who == 1]
    theirs = [(y, x) for (x, y), who in stones.items() if who == 2]
    # Player 1 moves first: the brain is player 1 when the counts are equal.
    first, second = (mine, theirs) if len(mine) == len(theirs) else (theirs, mine)
    board = Board()
    board.moves(p1=first, p2=second)
    board = Board(b1=board.b1, b2=board.b2, turns=len(stones))
    move = threat_space.ThreatSpace().make_move(board)
    row, col = move if isinstance(move, tuple) else divmod(int(move), 15)
    return col, row


serve(choose, 'name="gomoku threat-space search (adapter)", version="0.1.0"', out=protocol)
