"""A person's game: the rules, the state, the counters and the view, with no user interface.

A :class:`Session` is one board played by a person. The rules are the usual ones:

- reveal a covered, unflagged cell: a mine loses the game; a safe cell is cleared, and a cleared
  zero opens its neighbours, and so on (the opening cascade). Flags are the person's and a
  cascade leaves them alone.
- flag or unflag a covered cell.
- chord on a cleared number whose flagged neighbours match it: reveal every other covered
  neighbour at once (a wrong flag makes that lose).
- undo the last reveal or chord: the cells it cleared are covered again and a loss is taken
  back; flags set since stay. The count of undos is kept and shown in the result.
- restart: the same board from the start.

Boards come from a :class:`Dealer`: uniform under the start rule (:func:`cpsolve.generate.draw_board`)
or no-guess for a player (:func:`cpsolve.generate.generate_boards`), both for the first click
at the board's centre, which the game marks. Deal k of a dealer with seed S is the board of seed
S + k, so any board can be dealt again with ``--seed``.

The view (:meth:`Session.view`) is what was shown, as a :class:`cpsolve.deduce.Position` with
the conventions of :meth:`cpsolve.play.game.Game.view` (the numbers shown as clues, every
covered cell unknown, the total known), with two differences that make it what a person
actually knows: flags are the person's guesses, so they stay unknown cells unless asked
otherwise, and cells the start rule promises safe are left out until they are cleared (a safe
cell whose number is hidden constrains nothing, like a hole). After the first click on the
marked cell the second difference is gone: the promised cells are cleared.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.errors import InputError, UsageError
from cpsolve.generate import GameSettings, allowed_cells, draw_board, generate_boards, openings_and_3bv
from cpsolve.grid import Cell
from cpsolve.play import NO_GUESS_PLAYERS
from cpsolve.play.core import GameState, Move
from cpsolve.play.tables import BoardTables

if TYPE_CHECKING:
    from cpsolve.deduce import Position, View

__all__ = [
    "Deal",
    "Dealer",
    "Move",
    "Session",
    "Summary",
    "MAX_SIDE",
    "SHOWN_COVERED",
    "SHOWN_FLAG",
    "SHOWN_MINE",
    "SHOWN_EXPLODED",
    "SHOWN_WRONG_FLAG",
]

#: The longest side a person's board may have: larger boards are for the batch commands.
MAX_SIDE = 100
#: Seeds wrap below 2^31, the range ``--seed`` accepts, so every dealt board can be dealt again.
_SEEDS = 2**31

#: What :meth:`Session.picture` shows for a cell, besides its number ``0``-``8`` once cleared.
SHOWN_COVERED = "-"
SHOWN_FLAG = "F"
#: Only when the game is over: a mine not flagged, the mine that was hit, and a flag on a safe cell.
SHOWN_MINE = "*"
SHOWN_EXPLODED = "!"
SHOWN_WRONG_FLAG = "x"


@dataclass(frozen=True)
class Deal:
    """One board to play.

    Attributes:
        mines: Boolean rows x cols array of the mines.
        first: The 0-based first click the board was dealt for (safe under the start rule).
        settings: Its shape, start rule and seed (the player only counts when `no_guess`).
        no_guess: The player who wins it from `first` without guessing, or None for a uniform board.
        tries: The draws it took (1 for a uniform board).
    """

    mines: np.ndarray
    first: Cell
    settings: GameSettings
    no_guess: str | None = None
    tries: int = 1


class Dealer:
    """Deals boards of one kind: deal k is the board of seed ``seed + k``.

    Args:
        rows: Board height.
        cols: Board width.
        mines: Number of mines.
        start: ``opening`` (no mine around the first click) or ``safe`` (only the click).
        no_guess: A player who never guesses (``cpsolve.play.NO_GUESS_PLAYERS``) every board
            must be a win for from the first click, or None for uniform boards.
        seed: The seed of deal 0.

    Raises:
        InputError: If the board cannot be dealt (too large, too many mines for the start rule).
        UsageError: If `no_guess` is a player who guesses (``best``).
    """

    def __init__(
        self, rows: int, cols: int, mines: int, *, start: str = "opening", no_guess: str | None = None, seed: int = 0
    ):
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise InputError(f"the game plays boards from 1x1 to {MAX_SIDE}x{MAX_SIDE}, got {rows}x{cols}")
        if no_guess is not None and no_guess not in NO_GUESS_PLAYERS:
            raise UsageError(
                f"the {no_guess} player guesses, so no board is no-guess for it: "
                f"use one of {', '.join(NO_GUESS_PLAYERS)}"
            )
        self.no_guess = no_guess
        self.settings = GameSettings(rows, cols, mines, no_guess or "perfect", True, None, start, seed).check()

    def deal(self, number: int = 0, time_limit: float | None = None) -> Deal:
        """Deal board `number` (seed ``seed + number``).

        Args:
            number: Which deal.
            time_limit: Seconds a no-guess deal may take (None: no limit).

        Raises:
            TimeLimitError: A no-guess board was not found in time.
        """
        settings = replace(self.settings, seed=(self.settings.seed + number) % _SEEDS)
        if self.no_guess is None:
            mines = draw_board(settings, np.random.default_rng(settings.seed))
            return Deal(mines, settings.click, settings)
        dealt = next(generate_boards(settings, 1, time_limit))
        return Deal(dealt.mines, dealt.first, settings, self.no_guess, dealt.tries)


@dataclass(frozen=True)
class Summary:
    """A game's result as the end screen shows it.

    Attributes:
        outcome: ``won``, ``lost`` or ``playing``.
        seconds: Time from the first click to the end (or now).
        bbbv: The board's 3BV.
        bbbv_per_second: 3BV / seconds when won, else None.
        clicks: Effective clicks: reveals, chords and flag changes (misses on cleared cells are not counted).
        guesses: Standing moves judged a guess: safe with a chance between 0 and 1 (a move certain to be safe
            is none, and neither is a click on a mine the numbers shown made certain).
        unjudged: Standing moves not judged (yet, or out of time).
        undos: Moves taken back.
        assisted: Standing moves played by the hint key.
    """

    outcome: str
    seconds: float
    bbbv: int
    bbbv_per_second: float | None
    clicks: int
    guesses: int
    unjudged: int
    undos: int
    assisted: int


class Session:
    """One board played by a person (module docstring for the rules).

    Args:
        deal: The board.
        clock: Seconds, monotonic (a test passes its own).

    Attributes:
        deal: The board being played.
        game: The game on it (:class:`cpsolve.play.core.GameState`: the rules and the cells' states).
        tables: Its flat tables (:class:`cpsolve.play.tables.BoardTables`).
        bbbv: Its 3BV.
        moves: The standing reveals and chords, oldest first.
        clicks: Effective clicks so far (:class:`Summary`).
        undos: Moves taken back so far.
        cleared: Safe cells cleared.
        version: Grows with every change (a move, a flag, an undo, a restart): answers computed
            for an older version are stale.
    """

    def __init__(self, deal: Deal, clock: Callable[[], float] = time.monotonic):
        self.deal = deal
        self.clock = clock
        self.tables = BoardTables.build(deal.mines, np.ones(deal.mines.shape, dtype=bool))
        self.game = GameState(self.tables)
        grid = self.tables.grid
        self.bbbv = openings_and_3bv(deal.mines)[1]
        promised = np.argwhere(~allowed_cells(replace(deal.settings, first=deal.first)))
        #: The cells the start rule promises safe (the first click, and its 3x3 for ``opening``).
        self.promised = frozenset((int(r), int(c)) for r, c in promised)
        self._promised = [grid.index(*cell) for cell in self.promised]
        self.restart()

    def restart(self) -> None:
        """The same board from the start: everything covered, counters and clock at zero."""
        self.version = getattr(self, "version", -1) + 1
        self.game.restart()
        self.moves: list[Move] = []
        self.clicks = 0
        self.undos = 0
        self.started: float | None = None
        self.ended: float | None = None

    # -- what is shown ------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        """Board height."""
        return self.tables.grid.rows

    @property
    def cols(self) -> int:
        """Board width."""
        return self.tables.grid.cols

    @property
    def lost(self) -> bool:
        """True when the last standing move hit a mine."""
        return bool(self.moves and self.moves[-1].exploded)

    @property
    def won(self) -> bool:
        """True when every safe cell is cleared."""
        return self.cleared == self.tables.safe_total and not self.lost

    @property
    def cleared(self) -> int:
        """Safe cells cleared."""
        return self.game.cleared

    @property
    def over(self) -> bool:
        """Won or lost: only undo and restart change anything now."""
        return self.won or self.lost

    @property
    def flags(self) -> int:
        """Flags placed."""
        return self.game.state.count(FLAGGED)

    @property
    def mines_left(self) -> int:
        """The mine counter: mines minus flags (negative with too many flags)."""
        return self.tables.mine_total - self.flags

    @property
    def seconds(self) -> float:
        """Time from the first click to the end, or to now while playing (0 before it)."""
        if self.started is None:
            return 0.0
        return (self.ended if self.ended is not None else self.clock()) - self.started

    def state(self, cell: Cell) -> int:
        """The cell's state: COVERED, CLEARED or FLAGGED (:mod:`cpsolve.cell_states`)."""
        return self.game.state[self._index(cell)]

    def number(self, cell: Cell) -> int:
        """The number a cleared cell shows."""
        return int(self.tables.numbers[cell])

    def picture(self) -> list[str]:
        """What the person sees, a string per row: numbers, ``-`` covered, ``F`` flags; when the game
        is over also ``*`` mines, ``!`` the mine hit and ``x`` a flag on a safe cell."""
        over = self.over
        hit = set(self.moves[-1].exploded) if self.lost else set()
        mines, numbers = self.deal.mines, self.tables.numbers
        rows = []
        for r in range(self.rows):
            line = []
            for c in range(self.cols):
                state = self.state((r, c))
                if state == CLEARED:
                    line.append(str(numbers[r, c]))
                elif (r, c) in hit:
                    line.append(SHOWN_EXPLODED)
                elif state == FLAGGED:
                    line.append(SHOWN_WRONG_FLAG if over and not mines[r, c] else SHOWN_FLAG)
                else:
                    line.append(SHOWN_MINE if over and mines[r, c] else SHOWN_COVERED)
            rows.append("".join(line))
        return rows

    def view(self, flags_as_mines: bool = False) -> Position:
        """What was shown, as a clue puzzle (module docstring): the numbers shown, the covered cells
        unknown, the total; cells the start rule promises safe left out while covered.

        Args:
            flags_as_mines: Take the person's flags as known mines, as :meth:`cpsolve.play.game.Game.view`
                does with a player's (the view has no solution if a flag is wrong).
        """
        return self.flat_view(flags_as_mines).position()

    def flat_view(self, flags_as_mines: bool = False) -> View:
        """:meth:`view` as the engine's flat :class:`cpsolve.deduce.View`: a copy of the cells'
        states, quick to take (each move keeps one, to be judged by), turned into a position only
        when asked for."""
        state = bytearray(self.game.state)
        if not flags_as_mines:
            state = state.translate(_FLAGS_UNKNOWN)
        for index in self._promised:
            if state[index] == COVERED:
                state[index] = ABSENT
        return self.game.view(True, state)

    def promised_left(self) -> frozenset[Cell]:
        """The cells the start rule promises safe that are not cleared yet, flagged ones included: a flag
        is the person's mark, never a fact, so a flagged start cell is as safe as ever. The view leaves
        them out (:meth:`view`); the solver's help counts them safe (:mod:`cpsolve.play.assist`)."""
        return frozenset(cell for cell in self.promised if self.state(cell) != CLEARED)

    def summary(self) -> Summary:
        """The counters as the end screen shows them."""
        outcome = "won" if self.won else "lost" if self.lost else "playing"
        seconds = self.seconds
        rate = self.bbbv / seconds if self.won and seconds > 0 else None
        return Summary(
            outcome,
            seconds,
            self.bbbv,
            rate,
            self.clicks,
            sum(1 for move in self.moves if move.safety is not None and 0 < move.safety < 1),
            sum(1 for move in self.moves if move.safety is None),
            self.undos,
            sum(1 for move in self.moves if move.assisted),
        )

    # -- the person's actions -----------------------------------------------------------------

    def reveal(self, cell: Cell, assisted: bool = False) -> Move | None:
        """Reveal a covered, unflagged cell; None (nothing happens) for any other cell or once over.

        Raises:
            ValueError: If `cell` is off the board.
        """
        index = self._index(cell)
        if self.over or self.game.state[index] != COVERED:
            return None
        return self._play("reveal", cell, (index,), assisted)

    def chord(self, cell: Cell, assisted: bool = False) -> Move | None:
        """Reveal the covered, unflagged neighbours of a cleared number whose flags match it.

        Returns:
            The move, or None when nothing happens (not a cleared number, the flags do not match,
            no covered neighbour left, or the game is over).
        """
        index = self._index(cell)
        targets = () if self.over else self.game.chord_targets(index)
        if not targets:
            return None
        return self._play("chord", cell, targets, assisted)

    def toggle_flag(self, cell: Cell) -> bool:
        """Flag a covered cell, or unflag a flagged one. Returns whether anything changed."""
        index = self._index(cell)
        if self.over or not self.game.toggle_flag(index):
            return False
        self._click()
        return True

    def undo(self) -> Move | None:
        """Take back the last reveal or chord (None when there is none): the cells it cleared are
        covered again and a loss is undone; flags set since stay."""
        if not self.moves:
            return None
        move = self.moves.pop()
        self.game.cover(move.cleared)
        self.undos += 1
        self.version += 1
        self.ended = None
        return move

    # -- the rules ------------------------------------------------------------------------------

    def _index(self, cell: Cell) -> int:
        row, col = cell
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"cell {cell} is off the {self.rows}x{self.cols} board")
        return self.tables.grid.index(row, col)

    def _click(self) -> None:
        self.version += 1
        self.clicks += 1
        if self.started is None:
            self.started = self.clock()

    def _play(self, kind: str, cell: Cell, targets: tuple[int, ...], assisted: bool) -> Move:
        """Open `targets` (covered, unflagged flat indices) as one move."""
        before = self.flat_view()  # a replayed game of a thousand moves takes one each: the cheap form
        self._click()
        grid = self.tables.grid
        cleared: list[int] = []
        exploded = []
        for index in targets:
            opened = self.game.reveal(index)  # nothing when an earlier target's cascade opened it
            if opened is None:
                exploded.append(grid.cell(index))
            else:
                cleared.extend(opened)
        move = Move(
            kind,
            cell,
            opened=tuple(grid.cell(index) for index in targets),
            cleared=tuple(cleared),
            exploded=tuple(exploded),
            before=before,
            assisted=assisted,
        )
        self.moves.append(move)
        if self.over:
            self.ended = self.clock()
        return move


#: bytes.translate table turning flags into covered cells (a person's flags are not knowledge).
_FLAGS_UNKNOWN = bytes(COVERED if value == FLAGGED else value for value in range(256))
