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
    (``cpsolve/play/_play_engine.c``) by default, which finds the same backbone without the total by
    the deduction engine's flip search (``cpsolve/deduce/_backbone.h``, steered by the true mines:
    the answer cannot depend on them); with the total, it asks the fast engine here
    (``fast=True``) whenever that search is stuck.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.deduce import Position, View, backbone, engine
from cpsolve.errors import InternalError
from cpsolve.grid import Cell, PaddedGrid
from cpsolve.play.tables import BoardTables

if TYPE_CHECKING:
    from cpsolve.deduce import Position

__all__ = ["perfect_deductions", "frontier"]


def _deduce() -> tuple[type[Position], Callable[[Position], tuple[frozenset[Cell], frozenset[Cell]] | None]]:
    """The clue-puzzle engine's Position type and backbone function (a hook tests may replace)."""

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


def _position(tables: BoardTables, state: bytearray, use_total: bool, clue_cells: list[int]) -> Position:
    """The player's view as a clue puzzle for the backbone.

    With the total, every covered cell is unknown and every flag a known mine. Without it, only the
    frontier (`clue_cells`: numbers with a covered neighbour) counts: their covered neighbours are
    unknown and their flagged neighbours known mines; every other cell is a hole, which is right for
    cleared cells and harmless for the rest (no frontier number sees them), and keeps the puzzle to
    the frontier's size.
    """
    Position, _ = _deduce()
    grid = tables.grid
    cell = grid.cell
    clues = {cell(index): tables.number[index] for index in clue_cells}
    if use_total:
        flat = np.frombuffer(state, dtype=np.uint8)
        unknown = frozenset(grid.cells(np.flatnonzero(flat == COVERED)))
        flags = frozenset(grid.cells(np.flatnonzero(flat == FLAGGED)))
        return Position(grid.rows, grid.cols, clues, flags, unknown, tables.mine_total)
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


def perfect_deductions(
    tables: BoardTables, state: bytearray, use_total: bool, *, fast: bool = False
) -> tuple[set[int], set[int]]:
    """Covered cells the backbone proves safe, and those it proves mines, as flat indices.

    Args:
        tables: The board's tables (the numbers of cleared cells are read from them).
        state: Flat padded states.
        use_total: Whether the player knows the total number of mines.
        fast: Ask the fast engine (:func:`cpsolve.deduce.engine.answer`: compiled, its certain
            cells exact), as the compiled player does; by default the exact counts of
            :func:`cpsolve.deduce.backbone`, the Python player's reference.

    Raises:
        InternalError: If the view has no consistent placement (the board itself is one, so
            this is a bug in a rule or in the engine).
    """
    if fast:
        number = np.frombuffer(tables.number, dtype=np.uint8)
        flat = np.frombuffer(state, dtype=np.uint8)
        shown = bytearray(np.where(flat == CLEARED, number, 0).astype(np.uint8).tobytes())
        found = engine.answer(View(tables.grid, state, shown, tables.mine_total if use_total else -1))
        if found is None:
            raise InternalError("the perfect player's view has no consistent placement")
        mine_weight, safe_weight, _ = found
        covered = flat == COVERED
        certain_safe = np.flatnonzero(covered & (mine_weight == 0.0)).tolist()
        certain_mines = np.flatnonzero(covered & (safe_weight == 0.0)).tolist()
        return set(certain_safe), set(certain_mines)
    _, backbone = _deduce()
    clue_cells = frontier(state, tables.grid).tolist()
    if not clue_cells and not use_total:
        return set(), set()
    answer = backbone(_position(tables, state, use_total, clue_cells))
    if answer is None:
        raise InternalError("the perfect player's view has no consistent placement")
    surely_safe, surely_mine = answer
    index = tables.grid.index
    safe = {index(*c) for c in surely_safe}
    mines = {index(*c) for c in surely_mine}
    return {i for i in safe if state[i] == COVERED}, {i for i in mines if state[i] == COVERED}
