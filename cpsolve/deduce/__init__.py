"""The deduction engine: a revealed position (or clue puzzle) as constraints, and what follows from them.

Every question about a position is asked here: ``cpsolve puzzle`` and ``hint``, the players, the
generator, the terminal game and the web pages. A :class:`Position` is what a player sees (or a
clue puzzle): clues, known mines, unknown cells, and maybe the total; a :class:`View` is the same
on the flat padded layout the fast engine reads. :func:`analyse` decides a position and gives a
solution, the exact count, the certain cells and the chances.

Modules:
    position: the Position type, and its reduction to independent components.
    view:     the flat View, and the conversions both ways.
    engine:   the fast engine (compiled C, doubles; its Python twin beside it): chances, certain
              cells and one solution, the best player's look-ahead and endgame search.
    count:    exact counting of one component by dynamic programming along its frontier.
    weights:  the exact weights (Python integers), combined over components and the total.
    analysis: analyse: the fast engine for chances and certain cells, exact counts when asked.
    search:   CP-SAT: a solution or proof of none where the DPs cannot go, enumeration as a fallback counter.
    conflict: a minimal set of clues that cannot all hold.

Example:
    >>> p = Position(2, 2, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (1, 0), (1, 1)}), total=1)
    >>> a = analyse(p, count=True, probabilities=True)
    >>> a.count, round(a.probabilities[(1, 1)], 9)
    (3, 0.333333333)
"""

from cpsolve.deduce.analysis import Analysis, Chances, analyse
from cpsolve.deduce.position import Cell, Position
from cpsolve.deduce.view import View
from cpsolve.deduce.weights import Weights, backbone, count_of, probabilities_of, solution_of, weigh

__all__ = [
    "Cell",
    "Position",
    "View",
    "Analysis",
    "Chances",
    "Weights",
    "analyse",
    "backbone",
    "weigh",
    "count_of",
    "probabilities_of",
    "solution_of",
]
