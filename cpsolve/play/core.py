"""The game core: one game in progress on one board, under every player and every face.

A :class:`GameState` holds a board's tables (:class:`cpsolve.play.tables.BoardTables`: the hidden
mines and numbers) and the state of each cell (:mod:`cpsolve.cell_states`). It applies the rules
of the game and nothing else:

- :meth:`GameState.reveal`: a covered cell is opened; a mine ends the game; a safe cell is
  cleared, and from every cleared 0 its covered neighbours too (the cascade). Flags stay.
- :meth:`GameState.chord_targets`: a cleared number whose flagged neighbours match it opens its other
  covered neighbours.
- :meth:`GameState.toggle_flag`, and :meth:`GameState.cover` to take cells back (a person's undo).
- :meth:`GameState.view`: what the player sees, as the flat :class:`cpsolve.deduce.View` the
  deduction engine reads: the numbers of the cleared cells only, so no player can peek.

The no-guess players (:class:`cpsolve.play.game.Game`), the best player's games
(:mod:`cpsolve.play.best_games`) and the terminal game (:class:`cpsolve.play.session.Session`) all
play on it. The cascade runs compiled (``cascade`` in ``cpsolve/play/_play_engine.c``) when built;
:func:`cascade_py` is the same loop in Python, its reference and fallback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.compiled import extension
from cpsolve.deduce import View

if TYPE_CHECKING:
    from cpsolve.deduce import View
    from cpsolve.grid import Cell
    from cpsolve.play.tables import BoardTables

__all__ = ["GameState", "Move", "cascade", "cascade_py"]


@dataclass
class Move:
    """One move of a game: the cell played, what it opened and what the player knew of it.

    Attributes:
        kind: A player's reveal: ``first`` (the first click), ``safe`` (certain from what was
            shown) or ``guess``; a person's: ``reveal`` or ``chord``.
        cell: The cell clicked (0-based).
        safety: The chance, given what was shown, that every cell it opened was safe (1: certain,
            not a guess); None where nobody judged it (yet, or the judging ran out of time).
        opened: A person's move: the cells it uncovered directly (the cell, or the chord's neighbours).
        cleared: A person's move: flat indices of every cell it cleared (the cascade included), for undo.
        exploded: A person's move: the mines among `opened` (empty unless it lost the game).
        before: A person's move: the view before it, to judge it by (flat; a position when judged).
        assisted: A person's move played by the hint key, not chosen by the person.
    """

    kind: str
    cell: Cell
    safety: float | Fraction | None = field(default=None, compare=False)
    opened: tuple[Cell, ...] = ()
    cleared: tuple[int, ...] = ()
    exploded: tuple[Cell, ...] = ()
    before: View | None = None
    assisted: bool = False


_play_engine = extension("play._play_engine")


def cascade_py(state: bytearray, number: bytes, offsets: np.ndarray, cell: int, cleared_out: np.ndarray) -> int:
    """:func:`cascade` in Python: the same cells, in the same order."""
    steps = offsets.tolist()
    state[cell] = CLEARED
    cleared_out[0] = cell
    count, next_cell = 1, 0
    while next_cell < count:
        here = int(cleared_out[next_cell])
        next_cell += 1
        if number[here]:
            continue
        for step in steps:
            other = here + step
            if state[other] == COVERED:
                state[other] = CLEARED
                cleared_out[count] = other
                count += 1
    return count


def cascade(state: bytearray, number: bytes, offsets: np.ndarray, cell: int, cleared_out: np.ndarray) -> int:
    """Clear the covered cell `cell` (not a mine) and, from each cleared 0, its covered neighbours.

    Flagged cells are left alone. The cells cleared go to `cleared_out` (int64, a slot per cell) in
    order, breadth first from `cell`.

    Returns:
        How many cells were cleared.
    """
    if _play_engine is not None:
        return int(_play_engine.cascade(state, number, offsets, cell, cleared_out))
    return cascade_py(state, number, offsets, cell, cleared_out)


class GameState:
    """One game on one board: the cells' states and the rules (module docstring).

    Args:
        tables: The board.

    Attributes:
        tables: The board's tables.
        state: Each flat cell's state (:mod:`cpsolve.cell_states`).
        cleared: Safe cells cleared so far.
        exploded: The mine a reveal hit (a flat index), or None: the game is lost once it is set.

    Example:
        >>> from cpsolve.play.tables import BoardTables
        >>> mines = np.array([[False, False, False], [False, False, True]])
        >>> game = GameState(BoardTables.build(mines, np.ones_like(mines)))
        >>> len(game.reveal(game.tables.grid.index(0, 0))), game.safe_left
        (4, 1)
    """

    def __init__(self, tables: BoardTables):
        self.tables = tables
        self.offsets = np.array(tables.offsets, dtype=np.int64)
        self._cleared_out = np.zeros(tables.grid.size, dtype=np.int64)
        self.restart()

    def restart(self) -> None:
        """Every cell covered again (flags too), nothing cleared, not lost."""
        self.state = bytearray(self.tables.start_state)
        self.cleared = 0
        self.exploded: int | None = None

    @property
    def lost(self) -> bool:
        """True once a reveal hit a mine."""
        return self.exploded is not None

    @property
    def safe_left(self) -> int:
        """Safe cells still covered."""
        return self.tables.safe_total - self.cleared

    @property
    def won(self) -> bool:
        """True once every safe cell is cleared (and no mine was hit)."""
        return self.cleared == self.tables.safe_total and not self.lost

    def reveal(self, index: int) -> list[int] | None:
        """Open a covered cell: None when it holds a mine (the game is lost), else the cells cleared
        (the cascade included; empty when the cell was not covered)."""
        if self.state[index] != COVERED:
            return []
        if self.tables.mine[index]:
            self.exploded = index
            return None
        count = cascade(self.state, self.tables.number, self.offsets, index, self._cleared_out)
        self.cleared += count
        return self._cleared_out[:count].tolist()

    def chord_targets(self, index: int) -> tuple[int, ...]:
        """The covered neighbours a chord on `index` opens: none unless it is a cleared number whose
        flagged neighbours match it."""
        state = self.state
        if state[index] != CLEARED:
            return ()
        around = [index + offset for offset in self.tables.offsets]
        if sum(1 for other in around if state[other] == FLAGGED) != self.tables.number[index]:
            return ()
        return tuple(other for other in around if state[other] == COVERED)

    def toggle_flag(self, index: int) -> bool:
        """Flag a covered cell or unflag a flagged one; whether anything changed."""
        mark = self.state[index]
        if mark not in (COVERED, FLAGGED):
            return False
        self.state[index] = FLAGGED if mark == COVERED else COVERED
        return True

    def cover(self, indices: list[int] | tuple[int, ...]) -> None:
        """Cover cleared cells again (a person's undo), and take back a loss."""
        for index in indices:
            self.state[index] = COVERED
        self.cleared -= len(indices)
        self.exploded = None

    def shown(self) -> bytearray:
        """The number of each cleared cell (0 elsewhere): what a player reads."""
        state = np.frombuffer(self.state, dtype=np.uint8)
        number = np.frombuffer(self.tables.number, dtype=np.uint8)
        return bytearray(np.where(state == CLEARED, number, 0).astype(np.uint8).tobytes())

    def view(self, total_known: bool = True, state: bytearray | None = None) -> View:
        """What the player sees, as a :class:`cpsolve.deduce.View` (flags as known mines).

        Args:
            total_known: Whether the view holds the total number of mines.
            state: Another state to show with this board's numbers (a person's view hides some
                cells); default the game's own, shared, not copied.
        """

        total = self.tables.mine_total if total_known else -1
        if state is None:
            return View(self.tables.grid, self.state, self.shown(), total)
        numbers = np.frombuffer(self.tables.number, dtype=np.uint8)
        shown = np.where(np.frombuffer(state, dtype=np.uint8) == CLEARED, numbers, 0).astype(np.uint8)
        return View(self.tables.grid, state, bytearray(shown.tobytes()), total)
