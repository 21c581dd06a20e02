"""One game in progress for any player, and the fewest safe cells left covered over first clicks.

A :class:`Game` holds one board on flat padded arrays (:class:`cpsolve.grid.PaddedGrid`), the
same layout as the casual engine, so the casual rules run in its compiled worklist and the
stronger rules of the subset and perfect players only run when those are stuck. Two
implementations play the subset and perfect players:

- compiled (``cpsolve/play/_play_engine.c``, the default when built): the whole game in one call;
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

A game is started from a first click (:meth:`Game.start`) or from any position whose cleared
and flagged cells are given (:meth:`Game.resume`, for tests, benchmarks and positions no first
click reaches); :meth:`Game.reveal` clears one more cell (a guess) and plays on; :meth:`Game.view`
is what the player sees, as a clue puzzle. The player learns the board only through what a reveal
shows: the true mines steer the compiled search (see ``_play_engine.c``) but never its answers.

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

import time
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.compiled import extension
from cpsolve.errors import InternalError
from cpsolve.grid import Cell, PaddedGrid
from cpsolve.play.casual import Board, CasualResult, FinalState, run_rules, solve_casual
from cpsolve.play.core import GameState
from cpsolve.play.perfect import perfect_deductions
from cpsolve.play.subset import subset_deductions
from cpsolve.play.tables import BoardTables

if TYPE_CHECKING:
    from cpsolve.deduce import Position

__all__ = ["Game", "GameEnd", "best_first_click", "play_from", "compiled_players_built"]

_play_engine = extension("play._play_engine")

#: The compiled players' levels (``_play_engine.advance``); perfect's is without the total.
_STRENGTH = {"casual": 0, "subset": 1, "perfect": 2}
#: Nodes one compiled backbone search may visit before the game goes on in Python, which is
#: exact without a bound (``python benchmarks/no_guess.py`` never reaches it on expert boards).
SEARCH_BUDGET = 200_000
#: advance()'s statuses.
DONE, OUT_OF_BUDGET, UNSOUND = 0, 1, 2


def compiled_players_built() -> bool:
    """Whether the compiled subset and perfect players (``cpsolve.play._play_engine``) were built."""
    return _play_engine is not None


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
    """One board, and one game on it at a time for the chosen player.

    Args:
        board: The board (mines and present cells).
        player: ``casual``, ``subset`` or ``perfect``.
        use_total: Whether the perfect player knows the total number of mines.
        compiled: Use the compiled subset and perfect players (``_play_engine.c``) when built;
            False runs the Python ones, the tests' reference.
        search_budget: Nodes one compiled backbone search may visit before the game goes on in
            Python.

    Attributes:
        tables: The board's flat tables (:class:`cpsolve.play.tables.BoardTables`).
        cleared: Safe cells cleared so far.
        deductions: The stronger rules' steps so far (see :class:`GameEnd`).
        fallbacks: Compiled searches that ran out of budget, each finished in Python.
        lost: True once a reveal hit a mine.
        first_click: The first click of a game begun by :meth:`start` (None after :meth:`resume`).

    Example:
        >>> board = Board.from_rows(["...", "...", "..*"], mine_chars="M*")
        >>> game = Game(board, "perfect")
        >>> game.start((0, 0))
        >>> game.won
        True
    """

    # set for each game by _reset
    _state: bytearray
    deductions: int
    fallbacks: int
    first_click: Cell | None

    def __init__(
        self,
        board: Board,
        player: str = "casual",
        use_total: bool = True,
        *,
        compiled: bool = True,
        search_budget: int = SEARCH_BUDGET,
    ):
        if player not in _STRENGTH:
            # the best player guesses: it plays whole games through play_best, not as a Game's level
            hint = "; the best player plays through cpsolve.play.best_games.play_best" if player == "best" else ""
            raise ValueError(f"unknown player {player!r}; use one of {', '.join(_STRENGTH)}{hint}")
        self.player = player
        self.use_total = use_total
        self.compiled = compiled and _play_engine is not None
        self.search_budget = search_budget
        self.board = board
        self.tables = BoardTables.build(board.mines, board.present_mask)
        self.core = GameState(self.tables)  # the game core: the cells and the rules
        size = self.tables.grid.size
        # the worklist's scratch arrays, kept between calls (a generator plays millions of games)
        self._queued = bytearray(size)
        self._work = array("q", bytes(8 * size))
        self._changed = array("q", bytes(8 * size))
        self._reset()

    def set_mines(self, mines: np.ndarray) -> None:
        """Lay other mines on the same cells, keeping the tables that depend only on the shape.

        The generator draws many boards of one shape; this spares it rebuilding them.
        """
        self.board = Board(mines, None, self.board.present)
        self.tables = self.tables.with_mines(mines)
        self.core.tables = self.tables
        self._reset()

    @property
    def grid(self) -> PaddedGrid:
        """The board's flat layout."""
        return self.tables.grid

    @property
    def safe_total(self) -> int:
        """Safe cells on the board."""
        return self.tables.safe_total

    @property
    def won(self) -> bool:
        """True once every safe cell is cleared."""
        return self.core.won

    @property
    def cleared(self) -> int:
        """Safe cells cleared so far."""
        return self.core.cleared

    @property
    def lost(self) -> bool:
        """True once a reveal hit a mine."""
        return self.core.lost

    # -- starting a game --------------------------------------------------------------------

    def start(self, click: Cell) -> None:
        """Clear the first click (0-based, a safe cell) and apply the player's rules until stuck.

        Raises:
            ValueError: If `click` is off the board, missing, or a mine.
        """
        self._reset()
        self.first_click = click
        index = self._covered_index(click, "first click")
        if self.tables.mine[index]:
            raise ValueError(f"first click {click} is not a safe cell")
        if self.compiled and self.player != "casual":
            if self._advance(index):
                self._with_total()
        else:
            self._close_in_python(self._clear(index))
        self._flag_when_won()

    def resume(self, cleared: Iterable[Cell], flagged: Iterable[Cell] = ()) -> None:
        """Start from a position: these cells cleared and these flagged; then play until stuck.

        The position need not be one a first click reaches (a band of clues, a person's game).

        Args:
            cleared: 0-based safe cells shown cleared.
            flagged: 0-based mines shown flagged.

        Raises:
            ValueError: If a cleared cell is a mine, a flagged one safe, or either not a cell.
        """
        self._reset()
        state, mine = self._state, self.tables.mine
        for cell in flagged:
            index = self._covered_index(cell, "flagged cell")
            if not mine[index]:
                raise ValueError(f"flagged cell {cell} is not a mine")
            state[index] = FLAGGED
        shown = []
        for cell in cleared:
            index = self._covered_index(cell, "cleared cell")
            if mine[index]:
                raise ValueError(f"cleared cell {cell} is a mine")
            state[index] = CLEARED
            self.core.cleared += 1
            shown.append(index)
        # the casual rules first, from every shown number (the compiled players start from theirs)
        dirty: set[int] = set()
        for index in shown:
            dirty |= self._clear(index)
        self._play_on(dirty)

    def reveal(self, cell: Cell) -> bool:
        """Clear `cell` (a covered cell, 0-based) as a guess would, then play on until stuck.

        Returns:
            False when it was a mine: the game is lost and nothing else changes.

        Raises:
            ValueError: If `cell` is not a covered cell, or the game is already lost.
        """
        if self.lost:
            raise ValueError("the game is lost")
        index = self._covered_index(cell, "revealed cell")
        if self.tables.mine[index]:
            self.core.exploded = index
            return False
        self._play_on(self._apply((index,), ()))
        return True

    # -- what the player sees ---------------------------------------------------------------

    def view(self) -> Position:
        """What the player sees, as a clue puzzle: the shown numbers, the flags, every covered cell
        unknown, and the total when the player knows it."""
        return self.core.view(self.use_total).position()

    def end(self, click: Cell | None = None) -> GameEnd:
        """The game's state now; its click is `click`, else the first click ((-1, -1) after :meth:`resume`)."""
        flat = np.frombuffer(self._state, dtype=np.uint8)
        cleared = np.flatnonzero(flat == CLEARED).tolist()
        flagged = np.flatnonzero(flat == FLAGGED).tolist()
        if click is None:
            click = self.first_click if self.first_click is not None else (-1, -1)
        return GameEnd(
            click,
            len(cleared),
            len(flagged),
            self.tables.safe_total - len(cleared),
            FinalState(click, cleared, flagged),
            self.deductions,
        )

    def play(self, click: Cell) -> GameEnd:
        """Start from `click` (0-based, safe) and return where the player is stuck."""
        self.start(click)
        return self.end()

    def wins(self, click: Cell) -> bool:
        """Whether the player, starting at `click` (0-based, safe), clears every safe cell."""
        self.start(click)
        return self.won

    # -- the rules --------------------------------------------------------------------------

    def _reset(self) -> None:
        self.core.restart()
        self._state = self.core.state
        self.deductions = 0
        self.fallbacks = 0
        self.first_click = None

    def _covered_index(self, cell: Cell, what: str) -> int:
        row, col = cell
        grid = self.tables.grid
        if not (0 <= row < grid.rows and 0 <= col < grid.cols):
            raise ValueError(f"{what} {cell} is off the {grid.rows}x{grid.cols} board")
        index = grid.index(row, col)
        if self._state[index] != COVERED:
            raise ValueError(f"{what} {cell} is not a covered cell")
        return index

    def _play_on(self, dirty: set[int]) -> None:
        """The player's rules until stuck, the casual rules being at their fixpoint already."""
        if self.player == "casual":
            return
        if self.compiled:
            if self._advance(-1):
                self._with_total()
        else:
            self._close_in_python(dirty)
        self._flag_when_won()

    def _flag_when_won(self) -> None:
        """The perfect player with the total, once it has won, flags every covered cell: each is now a certain
        mine. So a game ends in one state whichever deduction cleared the last safe cell: the compiled player's
        own (without the total, which may leave mines unflagged) or the backbone with the total (which flags
        them all at once)."""
        if self.player == "perfect" and self.use_total and self.cleared == self.tables.safe_total:
            flat = np.frombuffer(self._state, dtype=np.uint8)  # a view of the state: writing it flags
            flat[flat == COVERED] = FLAGGED

    def _with_total(self) -> None:
        """Perfect with the total: the view's backbone in Python whenever the compiled player
        (without it) is stuck; what it proves without the total holds with it."""
        while self.player == "perfect" and self.use_total and self.cleared < self.tables.safe_total:
            self.deductions += 1
            safe, mines = perfect_deductions(self.tables, self._state, self.use_total, fast=True)
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
        if _play_engine is None:  # self.compiled says it was built
            raise InternalError("the compiled players were not built")
        tables = self.tables
        status, cleared, deductions = _play_engine.advance(
            self._state, tables.number, tables.mine, tables.offsets, start, _STRENGTH[self.player], self.search_budget
        )
        self.core.cleared += cleared
        self.deductions += deductions
        if status == UNSOUND:
            raise InternalError(f"the compiled {self.player} player cleared a mine or flagged a safe cell")
        if status == DONE:
            return True
        self.fallbacks += 1
        cleared_cells = np.flatnonzero(np.frombuffer(self._state, dtype=np.uint8) == CLEARED).tolist()
        self._close_in_python(set(cleared_cells))
        return False

    def _close_in_python(self, dirty: set[int]) -> None:
        """Apply the player's rules in Python until stuck; `dirty` are the cells changed lately."""
        state = self._state
        while self.cleared < self.tables.safe_total and self.player != "casual":
            safe, mines = subset_deductions(state, self.tables.number, self.tables.grid, dirty)
            if safe or mines:
                self.deductions += 1
            elif self.player == "perfect":
                self.deductions += 1
                safe, mines = perfect_deductions(self.tables, state, self.use_total)
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
        count, cleared = run_rules(
            cell, state, self.tables.number, self.tables.offsets, self._queued, self._work, self._changed
        )
        self.core.cleared += cleared - was_cleared
        return set(self._changed[:count])

    def _apply(self, safe: Iterable[int], mines: Iterable[int]) -> set[int]:
        """Flag `mines`, clear `safe`, and bring the casual rules back to their fixpoint."""
        state = self._state
        changed: set[int] = set()
        offsets = self.tables.offsets
        mine = self.tables.mine
        for cell in mines:
            if state[cell] != COVERED:
                continue
            if mine[cell] == 0:  # a sound rule never flags a safe cell
                raise InternalError(f"the {self.player} player flagged a safe cell {self.tables.grid.cell(cell)}")
            state[cell] = FLAGGED
            changed.add(cell)
            for offset in offsets:
                if state[cell + offset] == CLEARED:
                    changed |= self._clear(cell + offset)
        for cell in safe:
            if state[cell] == COVERED:
                if mine[cell]:
                    raise InternalError(f"the {self.player} player cleared a mine {self.tables.grid.cell(cell)}")
                changed |= self._clear(cell)
                # the engine looks again at cleared neighbours of cells it changes, but not of
                # the cell it starts from: they now see one covered cell fewer
                for offset in offsets:
                    if state[cell + offset] == CLEARED:
                        changed |= self._clear(cell + offset)
        return changed


def play_from(
    board: Board, click: Cell, player: str = "casual", use_total: bool = True, *, compiled: bool = True
) -> GameEnd:
    """The final state of `player` from first click `click` (0-based, a safe cell)."""
    return Game(board, player, use_total, compiled=compiled).play(click)


def best_first_click(
    board: Board,
    player: str = "casual",
    use_total: bool = True,
    click: Cell | None = None,
    *,
    compiled: bool = True,
) -> CasualResult:
    """The fewest safe cells `player` leaves covered, over every safe first click or from `click`.

    Args:
        board: The board.
        player: ``casual``, ``subset`` or ``perfect``.
        use_total: Whether the perfect player knows the total number of mines.
        click: A fixed first click (0-based, safe), or None for the best over all of them.
        compiled: Use the compiled players when built (False: the Python reference).

    Returns:
        The answer; a board with no safe cell answers 0 with no click.

    Notes:
        Candidates follow the module notes: zero cells in reading order (then, for perfect with
        the total, the other safe cells), skipping any cleared by an earlier final state, and
        stopping at the first win.
    """
    if player == "casual" and click is None:
        return solve_casual(board)  # the contest's engine, unchanged in speed
    began = time.perf_counter()
    game = Game(board, player, use_total, compiled=compiled)
    if click is not None:
        end = game.play(click)
        return CasualResult(
            end.covered, click, end.cleared, end.flagged, 1, end.state, seconds=time.perf_counter() - began
        )
    if game.safe_total == 0:
        return CasualResult(0, None, 0, 0, 0, seconds=time.perf_counter() - began)
    safe = board.present_mask & ~board.mines
    zero = safe & (game.tables.numbers == 0)
    candidates: list[Cell] = [(int(row), int(col)) for row, col in np.argwhere(zero)]
    if player == "perfect" and use_total:
        candidates += [(int(row), int(col)) for row, col in np.argwhere(safe & ~zero)]
    if not candidates:
        # no zero cell: any click stops on itself (module notes); the first safe cell stands for all
        row, col = np.argwhere(safe)[0]
        candidates = [(int(row), int(col))]
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
    seconds = time.perf_counter() - began
    return CasualResult(best.covered, best.click, best.cleared, best.flagged, tried, best.state, seconds=seconds)
