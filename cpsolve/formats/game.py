"""A person's game as JSON: what the web app's Play page draws (``POST /api/game``).

Cells are 1-based ``[row, col]``; chances are exact fractions as text (``"3/16"``) with their
value as a number beside them. The board is :meth:`cpsolve.play.session.Session.picture`'s rows:
``0``-``8`` cleared, ``-`` covered, ``F`` a flag, and once the game is over ``*`` a mine, ``!``
the mine hit and ``x`` a flag on a safe cell.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from cpsolve.grid import Cell

if TYPE_CHECKING:
    from cpsolve.play.assist import ExactChances, Hint
    from cpsolve.play.core import Move
    from cpsolve.play.session import Session

__all__ = ["game_json"]


def _cell(cell: Cell) -> list[int]:
    return [cell[0] + 1, cell[1] + 1]


def _cells(cells: Iterable[Cell]) -> list[list[int]]:
    return [_cell(cell) for cell in sorted(cells)]


def _chance(value: float | Fraction) -> dict[str, Any]:
    exact = Fraction(value)  # a person's moves are judged exactly; a float converts exactly too
    return {"exact": str(exact), "value": float(exact)}


def _move_json(move: Move) -> dict[str, Any]:
    """A standing move and its verdict: ``safety`` the chance all it opened was safe (1: certain), null unjudged."""
    return {
        "action": move.kind,
        "cell": _cell(move.cell),
        "opened": _cells(move.opened),
        "exploded": _cells(move.exploded),
        "safety": None if move.safety is None else _chance(move.safety),
        "guess": None if move.safety is None else 0 < move.safety < 1,  # a certain mine is no guess either
        "assisted": move.assisted,
    }


def _chances_json(session: Session, chances: ExactChances) -> dict[str, Any]:
    """Each covered cell's exact chance of a mine (the cells the start rule promises: 0), in reading order."""
    cells = []
    for r in range(session.rows):
        for c in range(session.cols):
            chance = chances.cells.get((r, c))
            if chance is not None:
                cells.append({"cell": [r + 1, c + 1], **_chance(chance)})
    return {"cells": cells, "placements": chances.count, "mines_hidden": chances.mines}


def _hint_json(hint: Hint) -> dict[str, Any]:
    return {
        "safe": _cells(hint.safe),
        "mines": _cells(hint.mines),
        "guess": None if hint.guess is None else _cell(hint.guess),
        "safety": None if hint.safety is None else _chance(hint.safety),
        "reason": hint.reason,
    }


def game_json(session: Session, chances: ExactChances | None, hint: Hint | None, timed_out: bool) -> dict[str, Any]:
    """The game as JSON: its deal, the board shown, the counters, the standing moves, and the answers asked for.

    Keys: ``rows``, ``cols``, ``mines``, ``start``, ``no_guess``, ``seed``, ``first`` (the cell
    the board was dealt for), ``board``, ``outcome`` (``playing``, ``won``, ``lost``),
    ``mines_left``, ``bbbv``, ``cleared``, ``clicks``, ``undos``, ``moves`` (each standing move with
    its verdict when judged), ``guesses`` (moves judged a guess), ``chances`` and ``hint`` (null
    unless asked, and once the game is over), ``timed_out``. ``bbbv`` (the board's 3BV) is null
    while the game is played: it depends on where the mines are (a 3x3 board's 3BV tells a corner
    mine from an edge one), and a player learns the board only through what reveals show.
    """
    deal = session.deal
    settings = deal.settings
    moves = [_move_json(move) for move in session.moves]
    return {
        "rows": session.rows,
        "cols": session.cols,
        "mines": session.tables.mine_total,
        "start": settings.start,
        "no_guess": deal.no_guess,
        "seed": settings.seed,
        "first": _cell(deal.first),
        "board": session.picture(),
        "outcome": "won" if session.won else "lost" if session.lost else "playing",
        "mines_left": session.mines_left,
        "bbbv": session.bbbv if session.over else None,
        "cleared": session.cleared,
        "clicks": session.clicks,
        "undos": session.undos,
        "moves": moves,
        "guesses": sum(1 for move in moves if move["guess"]),
        "chances": None if chances is None else _chances_json(session, chances),
        "hint": None if hint is None else _hint_json(hint),
        "timed_out": timed_out,
    }
