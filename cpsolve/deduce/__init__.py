"""The deduction engine: a revealed position as constraints, and what follows from them.

Shared by the ``puzzle`` command, the players and the generator. A :class:`Position` is what a
player sees (or a clue puzzle): clues, known mines, unknown cells, and maybe the total.
:func:`analyse` decides it (CP-SAT) and gives the exact count, the backbone and the exact
probabilities; :func:`backbone` is the perfect player's fast step (exact counting only).

Modules:
    position: the Position type, and its reduction to independent components.
    count:    exact counting of one component by dynamic programming along its frontier.
    search:   the CP-SAT model: a solution or a proof of none, and enumeration as a fallback counter.
    analysis: the weights (counts per cell), combined over components and the total.

Example:
    >>> p = Position(2, 2, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (1, 0), (1, 1)}), total=1)
    >>> a = analyse(p, count=True, probabilities=True)
    >>> a.count, a.probabilities[(1, 1)]
    (3, Fraction(1, 3))
"""

from cpsolve.deduce.analysis import Analysis, Weights, analyse, backbone, probabilities_of, weigh
from cpsolve.deduce.position import Cell, Position

__all__ = ["Cell", "Position", "Analysis", "Weights", "analyse", "backbone", "weigh", "probabilities_of"]
