"""One game in progress for any player, and the fewest safe cells left covered over first clicks.

A :class:`Game` holds one board on flat padded arrays (:class:`cpsolve.grid.PaddedGrid`), the
same layout as the casual engine, so the casual rules run in its compiled worklist and the
stronger rules of the subset and perfect players only run when those are stuck. Two
implementations play the subset and perfect players:

- compiled (``cpsolve/_play_engine.c``, the default when built): the whole game in one call;
  the perfect player's backbone without the total comes from a search steered by the true
  mines (see that file). With the total, the view's backbone is asked of
  :mod:`cpsolve.deduce` whenever the compiled player (without it) is stuck.
- Python (:mod:`cpsolve.play.subset`, :mod:`cpsolve.play.perfect`): the reference, and the
  fallback where a compiled search exceeds its node budget or the extension was not built.

The tests hold the two to the same final state on every game. Every player's knowledge only
grows: a cell once cleared or flagged stays so, and each rule's conclusions stay true with
more cells known. That has two consequences used here:

- A game's final state from a first click is unique (the order rules fire in does not matter).
- If cell B is cleared in the final state from click A, the final state from B is contained
  in A's (B's closure is a subset of the closure of A's final state, which is A's final
  state), so B need not be tried as a first click. This holds for all three players:
  casual and subset because their rules read only cleared numbers and flags (a conclusion on a
  cell still covered survives any further clearing), perfect because more revealed numbers
  only remove mine placements, so its safe and mine sets only grow.

First clicks tried by :func:`best_first_click`:

- casual, subset, and perfect without the total: zero cells only. A first click on a number
  stops at once: the casual rules need no flag against m >= 1 or only flag; the subset rule
  needs two cleared cells; and a single number alone fixes no cell as safe (the placements of
  its m mines among its covered neighbours are all consistent, and cells beyond it are free).
  It leaves all safe cells but one covered, which any other click matches.
- perfect with the total: every safe cell, zero cells first, since a number and the mine count
  together can clear cells (on ``..*.`` with one mine, a click on the second cell's 1 proves
  the last cell safe).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

from cpsolve.casual import CasualBoard, CasualResult, FinalState, solve_casual
from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.errors import InternalError
from cpsolve.grid import PaddedGrid, mine_numbers
from cpsolve.play import PLAYERS

__all__ = ["Game", "GameEnd", "best_first_click", "play_from"]


def _run_rules_engine():
    try:
        from cpsolve import _casual_engine
    except ImportError:  # pragma: no cover - the extension is optional at install time
        from cpsolve.casual import _run_rules_py

        return _run_rules_py
    return _casual_engine.run_rules


def _advance_engine():
    try:
        from cpsolve import _play_engine
    except ImportError:  # pragma: no cover - the extension is optional at install time
        return None
    return _play_engine.advance


_run_rules = _run_rules_engine()
_advance = _advance_engine()

#: The compiled players' levels (``_play_engine.advance``); perfect's is without the total.
LEVELS = {"casual": 0, "subset": 1, "perfect": 2}
#: Nodes one compiled backbone search may visit before the game goes on in Python, which is
#: exact without a bound (``python benchmarks/no_guess.py`` never reaches it on expert boards).
SEARCH_BUDGET = 200_000
#: advance()'s statuses.
DONE, OUT_OF_BUDGET, UNSOUND = 0, 1, 2


@dataclass
class GameEnd:
    """Where a player stops from one first click.

    Attributes:
        click: The 0-based first click.
        cleared: Number of cleared cells (safe cells uncovered, the click included).
        flagged: Number of flagged cells.
        covered: Safe cells left covered (0 is a win).
        state: The cleared and flagged flat indices, for drawing.
        deductions: Subset passes that proved something, plus backbone steps: a measure of the
            stronger rules' work (the final state does not depend on it).
    """

    click: tuple[int, int]
    cleared: int
    flagged: int
    covered: int
    state: FinalState
    deductions: int = 0

    @property
    def won(self) -> bool:
        """True when every safe cell was cleared."""
        return self.covered == 0


class Game:
    """A board and the tables every game on it shares; :meth:`play` runs one game.

    Args:
        board: The board (mines and present cells).
        player: ``casual``, ``subset`` or ``perfect``.
        use_total: Whether the perfect player knows the total number of mines.
        compiled: Use the compiled subset and perfect players (``_play_engine.c``) when built;
            False runs the Python ones, the tests' reference.
        search_budget: Nodes one compiled backbone search may visit before the game goes on in
            Python.
    """

    def __init__(self, board: CasualBoard, player: str = "casual", use_total: bool = True, *,
                 compiled: bool = True, search_budget: int = SEARCH_BUDGET):
        if player not in PLAYERS:
            raise ValueError(f"unknown player {player!r}; use one of {', '.join(PLAYERS)}")
        self.player = player
        self.use_total = use_total
        self.compiled = compiled and _advance is not None
        self.search_budget = search_budget
        rows, cols = board.mines.shape
        self.grid = PaddedGrid(rows, cols)
        self.present = board.present
        self.start_state = bytes(self.grid.pad(np.where(board.present, COVERED, ABSENT).astype(np.uint8), ABSENT))
        self.offsets = array("q", self.grid.offsets)
        size = self.grid.size
        self._queued = bytearray(size)
        self._work = array("q", bytes(8 * size))
        self._changed = array("q", bytes(8 * size))
        self.set_mines(board.mines)

    def set_mines(self, mines: np.ndarray) -> None:
        """Lay other mines on the same cells, keeping the tables that depend only on the shape.

        The generator draws many boards of one shape; this spares it rebuilding them.
        """
        self.board = CasualBoard(mines, self.present)
        mines = mines & self.present
        numbers = mine_numbers(mines)
        self.numbers = numbers
        self.number = bytes(self.grid.pad(numbers.astype(np.uint8)))
        self.mine = bytes(self.grid.pad(mines.astype(np.uint8)))
        self.mine_total = int(np.count_nonzero(mines))
        self.safe_total = int(np.count_nonzero(self.present)) - self.mine_total

    # -- the game ---------------------------------------------------------------------------

    def play(self, click: tuple[int, int]) -> GameEnd:
        """Clear `click` (0-based, safe) and apply the player's rules until stuck.

        Returns:
            The final state. Raises ValueError if `click` is a mine or not a cell.
        """
        self._run(click)
        flat = np.frombuffer(self._state, dtype=np.uint8)
        cleared = np.flatnonzero(flat == CLEARED).tolist()
        flagged = np.flatnonzero(flat == FLAGGED).tolist()
        return GameEnd(click, len(cleared), len(flagged), self.safe_total - len(cleared),
                       FinalState(click, cleared, flagged), self.deductions)

    def wins(self, click: tuple[int, int]) -> bool:
        """Whether the player, starting at `click` (0-based, safe), clears every safe cell."""
        self._run(click)
        return self.cleared == self.safe_total

    def _run(self, click: tuple[int, int]) -> None:
        start = self.grid.index(*click)
        if not (0 <= click[0] < self.grid.rows and 0 <= click[1] < self.grid.cols) \
                or self.start_state[start] != COVERED or self.mine[start]:
            raise ValueError(f"first click {click} is not a safe cell")
        self._state = bytearray(self.start_state)
        self.cleared = 0
        self.deductions = 0
        if not self.compiled or self.player == "casual":
            self._close_in_python(self._clear(start))
            return
        # the compiled subset and perfect players; with the total, the view's backbone in Python
        # whenever they are stuck (what they prove without the total holds with it)
        if not self._advance(start):
            return
        while self.player == "perfect" and self.use_total and self.cleared < self.safe_total:
            from cpsolve.play.perfect import perfect_deductions

            self.deductions += 1
            safe, mines = perfect_deductions(self, self._state)
            if not safe and not mines:
                return
            self._apply(safe, mines)
            if not self._advance(-1):
                return

    def _advance(self, start: int) -> bool:
        """Run the compiled player from the state (clearing `start` unless -1).

        Returns:
            True when it finished; False when a search ran out of budget, in which case the game
            has been finished in Python from the sound state the engine left.
        """
        status, cleared, deductions = _advance(self._state, self.number, self.mine, self.offsets, start,
                                               LEVELS[self.player], self.search_budget)
        self.cleared += cleared
        self.deductions += deductions
        if status == UNSOUND:
            raise InternalError(f"the compiled {self.player} player cleared a mine or flagged a safe cell")
        if status == DONE:
            return True
        cleared_cells = np.flatnonzero(np.frombuffer(self._state, dtype=np.uint8) == CLEARED).tolist()
        self._close_in_python(set(cleared_cells))
        return False

    def _close_in_python(self, dirty: set[int]) -> None:
        """Apply the player's rules in Python until stuck; `dirty` are the cells changed lately."""
        from cpsolve.play.subset import subset_deductions

        state = self._state
        while self.cleared < self.safe_total and self.player != "casual":
            safe, mines = subset_deductions(state, self.number, self.grid, dirty)
            if safe or mines:
                self.deductions += 1
            elif self.player == "perfect":
                from cpsolve.play.perfect import perfect_deductions

                self.deductions += 1
                safe, mines = perfect_deductions(self, state)
            if not safe and not mines:
                break
            dirty = self._apply(safe, mines)

    def _clear(self, cell: int) -> set[int]:
        """Clear (or re-examine, if already cleared) `cell` and run the casual rules in C.

        Returns:
            The cells whose state changed, for the next subset pass to start from.
        """
        state = self._state
        was_cleared = state[cell] == CLEARED
        count, cleared = _run_rules(cell, state, self.number, self.offsets, self._queued, self._work, self._changed)
        self.cleared += cleared - was_cleared
        return set(self._changed[:count])

    def _apply(self, safe, mines) -> set[int]:
        """Flag `mines`, clear `safe`, and bring the casual rules back to their fixpoint."""
        state = self._state
        changed: set[int] = set()
        offsets = self.offsets
        for cell in mines:
            if state[cell] != COVERED:
                continue
            if self.mine[cell] == 0:  # a sound rule never flags a safe cell
                raise AssertionError(f"flagged a safe cell {self.grid.cell(cell)}")
            state[cell] = FLAGGED
            changed.add(cell)
            for offset in offsets:
                if state[cell + offset] == CLEARED:
                    changed |= self._clear(cell + offset)
        for cell in safe:
            if state[cell] == COVERED:
                if self.mine[cell]:
                    raise AssertionError(f"cleared a mine {self.grid.cell(cell)}")
                changed |= self._clear(cell)
                # the engine looks again at cleared neighbours of cells it changes, but not of
                # the cell it starts from: they now see one covered cell fewer
                for offset in offsets:
                    if state[cell + offset] == CLEARED:
                        changed |= self._clear(cell + offset)
        return changed


def play_from(board: CasualBoard, click: tuple[int, int], player: str = "casual", use_total: bool = True) -> GameEnd:
    """The final state of `player` from first click `click` (0-based, a safe cell)."""
    return Game(board, player, use_total).play(click)


def best_first_click(board: CasualBoard, player: str = "casual", use_total: bool = True,
                     click: tuple[int, int] | None = None) -> CasualResult:
    """The fewest safe cells `player` leaves covered, over every safe first click or from `click`.

    Args:
        board: The board.
        player: ``casual``, ``subset`` or ``perfect``.
        use_total: Whether the perfect player knows the total number of mines.
        click: A fixed first click (0-based, safe), or None for the best over all of them.

    Returns:
        The answer; a board with no safe cell answers 0 with no click.

    Notes:
        Candidates follow the module notes: zero cells in reading order (then, for perfect with
        the total, the other safe cells), skipping any cleared by an earlier final state, and
        stopping at the first win.
    """
    if player == "casual" and click is None:
        return solve_casual(board)  # the contest's engine, unchanged in speed
    game = Game(board, player, use_total)
    if click is not None:
        end = game.play(click)
        return CasualResult(end.covered, click, end.cleared, end.flagged, 1, end.state)
    if game.safe_total == 0:
        return CasualResult(0, None, 0, 0, 0)
    safe = board.present & ~board.mines
    zero = safe & (game.numbers == 0)
    candidates = [tuple(map(int, cell)) for cell in np.argwhere(zero)]
    if player == "perfect" and use_total:
        candidates += [tuple(map(int, cell)) for cell in np.argwhere(safe & ~zero)]
    if not candidates:
        # no zero cell: any click stops on itself (module notes); the first safe cell stands for all
        candidates = [tuple(map(int, np.argwhere(safe)[0]))]
    explored: set[int] = set()
    best: GameEnd | None = None
    tried = 0
    for cell in candidates:
        if game.grid.index(*cell) in explored:
            continue
        end = game.play(cell)
        tried += 1
        explored.update(end.state.cleared)
        if best is None or end.covered < best.covered:
            best = end
            if best.covered == 0:
                break
    assert best is not None
    return CasualResult(best.covered, best.click, best.cleared, best.flagged, tried, best.state)
