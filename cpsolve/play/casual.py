"""The casual player (ACM Mid-Central USA 2003, "mines"): how many safe cells stay covered.

The player clears one safe cell, then applies two rules to every cleared cell until nothing
changes, where f, c and m count a cell's flagged, covered and mined neighbours:

1. if f == m, clear every covered neighbour (they must all be safe);
2. if f + c == m, flag every covered neighbour (they must all be mines).

The answer is the fewest safe cells left covered, over every safe first click.

Notes:
    Two facts keep the work near-linear in the board size:

    - A first click on a numbered cell (m >= 1) ends at once: rule 1 needs f == m with f = 0,
      and rule 2 only flags its neighbours, which clears nothing. It leaves all safe cells but
      one covered, which any other click matches or beats. So only zero cells need trying.
    - The rules only add knowledge, so the final state of a click is unique, and a cell
      cleared in click A's final state has a final state contained in A's: it need not be
      tried. Zero cells of one component clear each other, so this also leaves one click per
      zero component at most.

    The simulation runs on a flat padded layout (:class:`cpsolve.grid.PaddedGrid`) with a
    worklist, touching only the cells a click reaches, so each tried click costs the size of
    its final state. The loop is compiled C (``_casual_engine.c``) when the extension was
    built at install time; the same loop in Python is the fallback and the tests' reference.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from cpsolve.board import Board
from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.compiled import extension
from cpsolve.grid import PaddedGrid, mine_numbers
from cpsolve.outcome import Status
from cpsolve.symbols import HOLE, MINE

#: How a drawn final state shows a safe cell the player left covered.
COVERED_SAFE = "-"

__all__ = ["CasualResult", "FinalState", "final_state", "solve_casual", "draw_state", "run_rules"]


@dataclass
class FinalState:
    """Where the player stops after one first click.

    Attributes:
        click: The 0-based first click.
        cleared: Flat padded indices of cleared cells.
        flagged: Flat padded indices of flagged cells.
    """

    click: tuple[int, int]
    cleared: list[int]
    flagged: list[int]


@dataclass
class CasualResult:
    """The answer for one board.

    Attributes:
        covered: The fewest safe cells left covered (the contest's answer).
        click: A best first click, 0-based, or None when the board has no safe cell.
        cleared: Cells cleared from that click.
        flagged: Cells flagged from that click.
        clicks_tried: How many first clicks were simulated.
        state: The final state from the best click (None without a safe cell).
        status: Always POSSIBLE: every board has an answer (the shared status, for records).
        seconds: Wall-clock time of the search.
    """

    covered: int
    click: tuple[int, int] | None
    cleared: int
    flagged: int
    clicks_tried: int
    state: FinalState | None = None
    status: Status = Status.POSSIBLE
    seconds: float = 0.0


class _Table(Protocol):
    """A flat table read by index: bytes, a bytearray, an ``array('q')`` or a numpy array."""

    def __getitem__(self, index: int, /) -> int: ...


class _MutableTable(_Table, Protocol):
    """A flat table read and written by index: a bytearray, an ``array('q')`` or a numpy array."""

    def __setitem__(self, index: int, value: int, /) -> None: ...


def _run_rules_py(
    start: int,
    state: _MutableTable,
    number: _Table,
    offsets: _Table,
    queued: _MutableTable,
    work: _MutableTable,
    changed: _MutableTable,
) -> tuple[int, int]:
    """Clear `start` and apply the two rules with a worklist until nothing changes.

    The reference for the C engine (``_casual_engine.c`` runs the same loop) and its fallback
    where it could not be compiled. Arrays are flat and padded (see PaddedGrid). `state` holds
    COVERED, CLEARED, FLAGGED or ABSENT and is left changed: the caller reads
    `changed[:count]` and resets them.

    Returns:
        (number of changed cells, number of those that were cleared).
    """
    count = 1
    cleared = 1
    state[start] = CLEARED
    changed[0] = start
    work[0] = start
    top = 1
    queued[start] = 1
    while top > 0:
        top -= 1
        cell = work[top]
        queued[cell] = 0
        covered = 0
        flags = 0
        for k in range(8):
            mark = state[cell + offsets[k]]
            if mark == COVERED:
                covered += 1
            elif mark == FLAGGED:
                flags += 1
        if covered == 0:
            continue
        mines_here = number[cell]
        if flags == mines_here:
            new_mark = CLEARED
        elif flags + covered == mines_here:
            new_mark = FLAGGED
        else:
            continue
        for k in range(8):
            other = cell + offsets[k]
            if state[other] != COVERED:
                continue
            state[other] = new_mark
            changed[count] = other
            count += 1
            if new_mark == CLEARED:
                cleared += 1
                if queued[other] == 0:
                    queued[other] = 1
                    work[top] = other
                    top += 1
            # cleared neighbours of a changed cell see one covered cell fewer: look again
            for j in range(8):
                around = other + offsets[j]
                if state[around] == CLEARED and queued[around] == 0:
                    queued[around] = 1
                    work[top] = around
                    top += 1
    return count, cleared


def _best_click_py(
    candidates: np.ndarray, state: np.ndarray, number: np.ndarray, offsets: np.ndarray, safe_total: int
) -> tuple[int, int, int]:
    """Try each candidate click not cleared by an earlier one; keep the fewest left covered.

    The reference for the C engine's ``best_click``, and its fallback.

    Returns:
        (fewest covered, its click index, clicks tried).
    """
    size = state.shape[0]
    queued = np.zeros(size, dtype=np.uint8)
    explored = np.zeros(size, dtype=np.uint8)
    work = np.empty(size, dtype=np.int64)
    changed = np.empty(size, dtype=np.int64)
    best_covered = safe_total + 1
    best_start = -1
    tried = 0
    for start in candidates:
        if explored[start]:
            continue
        count, cleared = _run_rules_py(start, state, number, offsets, queued, work, changed)
        tried += 1
        for i in range(count):
            cell = changed[i]
            if state[cell] == CLEARED:
                explored[cell] = 1
            state[cell] = COVERED
        if safe_total - cleared < best_covered:
            best_covered = safe_total - cleared
            best_start = start
            if best_covered == 0:
                break
    return best_covered, best_start, tried


_compiled = extension("play._casual_engine")
#: The rules' worklist and the search over first clicks: compiled when built, else the reference.
run_rules = _compiled.run_rules if _compiled else _run_rules_py
_best_click = _compiled.best_click if _compiled else _best_click_py


def _mine_numbers(board: Board) -> np.ndarray:
    """Mines among each cell's neighbours: the number a cleared cell shows."""
    return mine_numbers(board.mines & board.present_mask)


class _Engine:
    """Flat padded tables for one board."""

    def __init__(self, board: Board):
        rows, cols = board.mines.shape
        self.grid = PaddedGrid(rows, cols)
        numbers = _mine_numbers(board)
        self.number = self.grid.pad(numbers)
        # missing cells and the border are never covered, cleared or flagged: nobody's neighbour
        self.state = self.grid.pad(np.where(board.present_mask, COVERED, ABSENT).astype(np.uint8), ABSENT)
        self.offsets = np.array(self.grid.offsets, dtype=np.int64)
        self.safe = board.present_mask & ~board.mines
        self.zero_starts = np.flatnonzero(self.grid.pad(self.safe & (numbers == 0)))

    def final_state(self, start: int) -> tuple[list[int], list[int]]:
        """Cleared and flagged flat indices after clearing `start`; the tables are left clean."""
        size = self.state.shape[0]
        queued = np.zeros(size, dtype=np.uint8)
        work = np.empty(size, dtype=np.int64)
        changed = np.empty(size, dtype=np.int64)
        count, _ = run_rules(start, self.state, self.number, self.offsets, queued, work, changed)
        touched = changed[:count]
        marks = self.state[touched]
        self.state[touched] = COVERED
        return touched[marks == CLEARED].tolist(), touched[marks == FLAGGED].tolist()


def final_state(board: Board, click: tuple[int, int]) -> FinalState:
    """The player's final state after clearing `click` (0-based, a safe cell)."""
    engine = _Engine(board)
    cleared, flagged = engine.final_state(engine.grid.index(*click))
    return FinalState(click, cleared, flagged)


def solve_casual(board: Board) -> CasualResult:
    """The fewest safe cells a casual player leaves covered, over every safe first click.

    Args:
        board: The board.

    Returns:
        The answer with a best first click. A board with no safe cell answers 0 (there is
        nothing to leave covered) with no click.

    Notes:
        Tries zero cells in reading order, skipping those cleared by an earlier final state;
        the work is the sum of the tried final states' sizes, near-linear in the board.
    """
    started = time.perf_counter()
    safe = board.safe_count
    if safe == 0:
        return CasualResult(0, None, 0, 0, 0, seconds=time.perf_counter() - started)
    engine = _Engine(board)
    tried = 0
    start = -1
    if len(engine.zero_starts):
        _, start, tried = _best_click(engine.zero_starts, engine.state, engine.number, engine.offsets, safe)
        start = int(start)
    if start < 0:
        # no zero cell: every first click stops on itself (see the module notes)
        start = engine.grid.index(*map(int, np.argwhere(engine.safe)[0]))
    cleared, flagged = engine.final_state(start)
    tried = max(tried, 1)
    click = engine.grid.cell(start)
    state = FinalState(click, cleared, flagged)
    return CasualResult(
        safe - len(cleared), click, len(cleared), len(flagged), tried, state, seconds=time.perf_counter() - started
    )


#: What :func:`draw_state`'s characters mean, in one line for the reader of ``casual --explain``.
STATE_LEGEND = "0-8: cleared (its number); F: flagged; -: safe cell left covered; *: mine left covered; #: no cell"


def draw_state(board: Board, state: FinalState) -> list[str]:
    """The final state as text.

    Digits are cleared cells (their number), ``F`` flags, ``-`` covered safe cells (what the
    answer counts), ``*`` covered mines, ``#`` no cell.
    """
    rows, cols = board.mines.shape
    grid = PaddedGrid(rows, cols)
    numbers = _mine_numbers(board)
    present = board.present_mask
    picture = [
        [HOLE if not present[r, c] else MINE if board.mines[r, c] else COVERED_SAFE for c in range(cols)]
        for r in range(rows)
    ]
    for index in state.cleared:
        r, c = grid.cell(index)
        picture[r][c] = str(numbers[r, c])
    for index in state.flagged:
        r, c = grid.cell(index)
        picture[r][c] = "F"
    return ["".join(row) for row in picture]
