"""The terminal game's lines under the board, each a small widget drawn from its reactive attributes.

:class:`Lines` holds them, top to bottom, and gives each what it shows of the game (:meth:`Lines.show`):

- :class:`StatusLine`: ``playing``, ``won`` or ``lost``, the counters, and the cell under the
  cursor with its exact chance of a mine while the chances are shown (a :class:`GameStatus`).
- :class:`VerdictLine`: "was that a guess?" for the last move.
- :class:`InfoLine`: the solver at work (a spinner and the seconds spent), else a message, else
  what stands on the board (the hint, or what the chances count).
- :class:`Legend`: the key to the board's marks: the chances' scale while they are shown; before
  the first move, the start cell's ``S`` and why it is safe.

A message is a :class:`Note`: its text and the game it was said about, ``(deal number, session
version)``; a line shows it only while the game is that one (``now``), so a move, a flag or an undo
takes it away with the state it described.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from rich.text import Text
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widget import Widget

from cpsolve.game.jobs import Working
from cpsolve.game.minefield import SAFE_MARK, cell_name, chance_legend, percent
from cpsolve.game.words import hint_words
from cpsolve.grid import Cell
from cpsolve.play.assist import ExactChances, Hint
from cpsolve.play.session import Session
from cpsolve.words import counted

__all__ = [
    "Note",
    "SILENCE",
    "SPINNER",
    "GameStatus",
    "StatusLine",
    "NoteLine",
    "VerdictLine",
    "InfoLine",
    "Legend",
    "start_key",
    "Lines",
]

#: The progress indicator's frames, one a tenth of a second.
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


@dataclass(frozen=True)
class Note:
    """A line's message and the game it was said about: ``(deal number, session version)``; `short`,
    if any, says it in fewer characters (a chance without its fraction) for a line too narrow."""

    version: tuple[int, int]
    text: str
    short: str = ""


#: Nothing said.
SILENCE = Note((-1, -1), "")


@dataclass(frozen=True)
class GameStatus:
    """What the status line shows.

    Attributes:
        outcome: ``playing``, ``won`` or ``lost``.
        mines_left: The mine counter (mines less flags).
        seconds: Whole seconds from the first click.
        clicks: Effective clicks.
        undos: Moves taken back.
        where: The cell under the cursor, in words.
        chance: Its exact chance of a mine, while the chances are shown and it is covered.
    """

    outcome: str
    mines_left: int
    seconds: int
    clicks: int
    undos: int
    where: str
    chance: Fraction | None = None

    @classmethod
    def of(cls, session: Session, cursor: Cell, chance: Fraction | None) -> GameStatus:
        """The status of `session` with the cursor on `cursor`, whose chance of a mine is `chance` (if shown)."""
        outcome = "won" if session.won else "lost" if session.lost else "playing"
        seconds = round(session.seconds)
        return cls(outcome, session.mines_left, seconds, session.clicks, session.undos, cell_name(cursor), chance)


class StatusLine(Widget):
    """The game's state and the cell under the cursor (nothing before a board is dealt)."""

    status: reactive[GameStatus | None] = reactive(None)

    def watch_status(self, status: GameStatus | None) -> None:
        self.set_class(status is not None and status.outcome == "won", "won")
        self.set_class(status is not None and status.outcome == "lost", "lost")

    def render(self) -> Text:
        status = self.status
        if status is None:
            return Text("")
        text = Text(status.outcome, style="bold")
        text.append(f"  mines {status.mines_left}  time {status.seconds} s  clicks {status.clicks}")
        if status.undos:
            text.append(f"  undos {status.undos}")
        text.append("   " + self._cursor_words(status, self.size.width - len(text)), style="bold")
        return text

    @staticmethod
    def _cursor_words(status: GameStatus, room: int) -> str:
        """The cell under the cursor, and its exact chance of a mine (the fraction left out where
        the line has no room for it)."""
        chance = status.chance
        if chance is None:
            return status.where
        if chance in (0, 1):
            return f"{status.where}: {'certainly safe' if chance == 0 else 'certainly a mine'}"
        full = f"{status.where}: mine chance {percent(chance)}"
        return full if len(full) + 3 <= room else f"{status.where}: mine chance {percent(chance, exact=False)}"


class NoteLine(Widget):
    """A line that shows its note while the game is the one the note was said about."""

    #: The message, and the game as it is now (bound to the app's). A message may take two
    #: lines where the next takes one: each change lays the line out again.
    note: reactive[Note] = reactive(SILENCE, layout=True)
    now: reactive[tuple[int, int]] = reactive((0, -1), layout=True)

    def said(self) -> str:
        """The note's text, if it was said about the game as it is."""
        return self.note.text if self.note.version == self.now else ""

    def render(self) -> str:
        return self.said()


class VerdictLine(NoteLine):
    """The verdict on the last move: "was that a guess?", in its short form where the line is too
    narrow for the whole (one line: the rest would be cut off)."""

    def render(self) -> str:
        said = self.said()
        return self.note.short if self.note.short and len(said) > self.size.width else said


class InfoLine(NoteLine):
    """The solver at work, else the message said about this very game, else what stands on the board.

    Args:
        time_limit: The solver's time limit, shown beside the seconds spent.
    """

    #: The job the solver is at (:attr:`cpsolve.game.jobs.Jobs.busy`), and the line when nothing else is said.
    busy: reactive[Working | None] = reactive(None, layout=True)
    standing: reactive[str] = reactive("", layout=True)

    def __init__(self, time_limit: float, id: str | None = None) -> None:
        super().__init__(id=id)
        self.time_limit = time_limit

    def watch_busy(self, busy: Working | None) -> None:
        # the spinner turns while the solver works, and stands still otherwise
        self.auto_refresh = 0.1 if busy is not None else None

    def render(self) -> str:
        busy = self.busy
        if busy is not None:
            spent = time.perf_counter() - busy.began
            frame = SPINNER[int(spent * 10) % len(SPINNER)]
            return f"{frame} {busy.label}... {spent:.1f} s (limit {self.time_limit:g} s)"
        return self.said() or self.standing


class Legend(Widget):
    """The key to the board's marks: the chances' scale for cells `chances` columns wide while the
    chances are shown, else the start cell's mark while it is drawn (`start`: the start rule);
    hidden when there is neither."""

    chances: reactive[int | None] = reactive(None)
    start: reactive[str | None] = reactive(None)

    def watch_chances(self) -> None:
        self.display = bool(self.key())

    def watch_start(self) -> None:
        self.display = bool(self.key())

    def key(self) -> str:
        """The key as it stands."""
        if self.chances is not None:
            return chance_legend(self.chances)
        if self.start is not None:
            return start_key(self.start)
        return ""

    def render(self) -> str:
        return self.key()


def start_key(start: str) -> str:
    """The key to the start cell's mark: the board was dealt for a first click there, and the start
    rule (``opening`` or ``safe``) keeps the mines away from it."""
    where = "in its 3x3" if start == "opening" else "there"
    return f"{SAFE_MARK} start cell: safe by the start rule (no mine {where}); click it first"


class Lines(Vertical):
    """The lines under the board: status, verdict, info, key (the app composes them inside, binding the
    verdict and info lines to its messages). The result at a game's end leaves this region in sight."""

    DEFAULT_CSS = """
    Lines { height: auto; }
    """

    def show(
        self, session: Session | None, cursor: Cell, chances: ExactChances | None, hint: Hint | None, cell_width: int
    ) -> None:
        """Give each line what it shows of `session` now, with the cursor on `cursor` and the chances
        and the hint drawn on the board (if any) on cells `cell_width` columns wide. A line whose state
        is the same as before is not drawn again."""
        chance = None if chances is None else chances.cells.get(cursor)
        self.query_one(StatusLine).status = None if session is None else GameStatus.of(session, cursor, chance)
        # what the info line says when no message stands: the hint drawn, else what the chances drawn count
        standing = ""
        if hint is not None and session is not None:
            standing = hint_words(session, hint)
        elif chances is not None:
            standing = f"exact mine chances: {counted(chances.mines, 'mine')} in {counted(len(chances.cells), 'cell')}"
        self.query_one(InfoLine).standing = standing
        legend = self.query_one(Legend)
        legend.chances = cell_width if chances is not None else None
        # the start cell is marked until the first move: its key goes with it
        legend.start = session.deal.settings.start if session is not None and not session.moves else None
