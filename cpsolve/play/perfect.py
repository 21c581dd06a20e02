"""The perfect player's deduction: the backbone of the clue puzzle its view poses.

The perfect player, after each step, clears every covered cell that is safe in every mine
placement consistent with the revealed numbers, and flags every cell that is a mine in all of
them; it uses the total mine count unless told not to (``--no-total``). The deduction is the
clue-puzzle engine's (:func:`cpsolve.deduce.backbone`); this module only states the view as a
:class:`cpsolve.deduce.Position`.

Notes:
    The game loop (:mod:`cpsolve.play.game`) applies the casual and subset rules first, which
    are sound and so only reach cells the backbone would reach too: the final state is the same,
    and the backbone is asked only when they are stuck.

    Without the total, only the frontier is handed over (numbers with a covered neighbour, their
    covered cells and flags): covered cells touching no number are free either way. With the
    total, every covered cell is linked through the count, so the whole view goes.

    This is the reference player and the fallback. Games run the compiled player
    (``cpsolve/_play_engine.c``) by default, which finds the same backbone without the total by
    a search that knows the true mines; with the total, this module is asked only when that
    player is stuck.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.errors import InternalError
from cpsolve.grid import Cell, PaddedGrid
from cpsolve.play.tables import BoardTables

if TYPE_CHECKING:
    from cpsolve.deduce import Position

__all__ = ["perfect_deductions", "view_position", "frontier"]


def _deduce() -> tuple[type[Position], Callable[[Position], tuple[frozenset[Cell], frozenset[Cell]] | None]]:
    """The clue-puzzle engine's Position type and backbone function (a hook tests may replace)."""
    from cpsolve.deduce import Position, backbone

    return Position, backbone


def frontier(state: bytearray, grid: PaddedGrid) -> np.ndarray:
    """Cleared cells with at least one covered neighbour, as flat indices."""
    flat = np.frombuffer(state, dtype=np.uint8)
    covered = (flat == COVERED).astype(np.uint8)
    size = flat.shape[0]
    pad = grid.stride + 1
    around = np.zeros(size, dtype=np.uint8)
    for offset in grid.offsets:
        around[pad : size - pad] += covered[pad + offset : size - pad + offset]
    return np.flatnonzero((flat == CLEARED) & (around > 0))


def view_position(
    tables: BoardTables,
    state: bytearray,
    use_total: bool,
    clue_cells: Iterable[int] | None = None,
    *,
    whole: bool = False,
) -> Position:
    """The player's view as a clue puzzle: frontier numbers, flags, covered cells, total.

    Args:
        tables: The board's tables (the numbers of cleared cells are read from them).
        state: Flat padded states.
        use_total: Whether the player knows the total number of mines.
        clue_cells: Flat indices of the clues to include (default: the whole frontier).
        whole: Every covered cell unknown and every flag a known mine, even without the total.
            By default, without the total only the included clues' covered neighbours are
            unknown and their flagged neighbours known mines; every other cell is a hole, which
            is right for cleared cells and harmless for the rest (no included clue sees them).

    Returns:
        A :class:`cpsolve.deduce.Position`.
    """
    Position, _ = _deduce()
    grid = tables.grid
    cell = grid.cell
    # read twice below (the clues, then their neighbours): an iterator must not be spent by the first
    clue_cells = frontier(state, grid).tolist() if clue_cells is None else list(clue_cells)
    clues = {cell(index): tables.number[index] for index in clue_cells}
    total = tables.mine_total if use_total else None
    if use_total or whole:
        flat = np.frombuffer(state, dtype=np.uint8)
        unknown = frozenset(cell(int(i)) for i in np.flatnonzero(flat == COVERED))
        flags = frozenset(cell(int(i)) for i in np.flatnonzero(flat == FLAGGED))
        return Position(grid.rows, grid.cols, clues, flags, unknown, total)
    seen_unknown: set[Cell] = set()
    seen_flags: set[Cell] = set()
    for index in clue_cells:
        for offset in grid.offsets:
            mark = state[index + offset]
            if mark == COVERED:
                seen_unknown.add(cell(index + offset))
            elif mark == FLAGGED:
                seen_flags.add(cell(index + offset))
    return Position(grid.rows, grid.cols, clues, frozenset(seen_flags), frozenset(seen_unknown), None)


def perfect_deductions(tables: BoardTables, state: bytearray, use_total: bool) -> tuple[set[int], set[int]]:
    """Covered cells the backbone proves safe, and those it proves mines, as flat indices.

    Raises:
        InternalError: If the view has no consistent placement (the board itself is one, so
            this is a bug in a rule or in the engine).
    """
    _, backbone = _deduce()
    clue_cells = frontier(state, tables.grid).tolist()
    if not clue_cells and not use_total:
        return set(), set()
    answer = backbone(view_position(tables, state, use_total, clue_cells))
    if answer is None:
        raise InternalError("the perfect player's view has no consistent placement")
    surely_safe, surely_mine = answer
    index = tables.grid.index
    safe = {index(*c) for c in surely_safe}
    mines = {index(*c) for c in surely_mine}
    return {i for i in safe if state[i] == COVERED}, {i for i in mines if state[i] == COVERED}
