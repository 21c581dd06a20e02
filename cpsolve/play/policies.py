"""Policies: players as plain functions from what they see to the cell they click, for exact evaluation.

A policy takes the :class:`cpsolve.deduce.View` of a position in which nothing is certain (the numbers shown,
the cells that are mines in every placement flagged, the total) and returns the covered cell it clicks, 0-based.
:mod:`cpsolve.play.optimal` scores any policy exactly over every board of a small size; these are the players
it is asked about. Each must be deterministic: the game tree needs one move per position, whatever the path
that led to it.

Example:
    >>> from cpsolve.deduce import Position, View
    >>> p = Position(2, 3, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (0, 2), (1, 0), (1, 1), (1, 2)}), total=2)
    >>> safest_policy(View.from_position(p))  # the 1's neighbours: a mine in 2 placements of 6; the far cells in 3
    (0, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cpsolve.deduce import weigh
from cpsolve.errors import InternalError
from cpsolve.grid import Cell
from cpsolve.play.best import decide

if TYPE_CHECKING:
    from cpsolve.deduce.view import View

__all__ = ["best_policy", "safest_policy", "Policy"]

#: A strategy: the view of a position with nothing certain to the covered cell it clicks, 0-based.
Policy = Callable[["View"], Cell]


def best_policy(view: View) -> Cell:
    """The best player's guess (:func:`cpsolve.play.best.decide`), its ties broken by
    ``numpy.random.default_rng(0)`` made anew for each decision: the same position, the same move, and the
    move :func:`cpsolve.play.best.advise` (the hint) gives there, whose default generator is the same.

    Raises:
        InternalError: If the player sees a certain move or no placement (the positions asked have neither).
    """
    import numpy as np

    decision = decide(view, np.random.default_rng(0))
    if decision.guess is None:
        raise InternalError(f"the best player made no guess in a position with nothing certain ({decision.reason})")
    return view.grid.cell(decision.guess.cell)


def safest_policy(view: View) -> Cell:
    """The covered cell with the fewest placements putting a mine there, by exact counts (the first in
    row-major order among equals): the plain safest-cell player.

    Raises:
        InternalError: If no placement fits the view.
    """

    weights = weigh(view.position())
    if weights is None:
        raise InternalError("no placement fits the position")
    return min(weights.mine, key=lambda cell: (weights.mine[cell], cell))
