"""The terminal game (``cpsolve game``): a Textual application over a :class:`cpsolve.play.session.Session`.

The screen, top to bottom: the title; the board (:mod:`cpsolve.game.minefield`), scrolling when the
terminal is too small; the lines under it (:mod:`cpsolve.game.lines`: status, verdict, info, key);
the keys. The result at a game's end leaves those lines in sight (:mod:`cpsolve.game.end_screen`).

The rules and the counters are the session's, the help :mod:`cpsolve.play.assist`'s, computed in
the solver's jobs (:mod:`cpsolve.game.jobs`, :mod:`cpsolve.game.help`) while the screen goes on.
The app holds the keys and the flow between them: the cursor, the session's version, the overlays
shown and the messages are its reactive attributes, and every line is drawn from them, so that a
move, a flag or an undo takes each message away with the state it described.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import suppress
from fractions import Fraction
from functools import partial
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.geometry import Region, Size
from textual.reactive import var
from textual.widgets import Footer, Static

from cpsolve.cell_states import CLEARED, COVERED
from cpsolve.game.auto import auto_step
from cpsolve.game.end_screen import EndScreen, describe_safety, end_text
from cpsolve.game.help import Help
from cpsolve.game.jobs import Jobs, Working
from cpsolve.game.lines import SILENCE, InfoLine, Legend, Lines, Note, StatusLine, VerdictLine
from cpsolve.game.minefield import Field, Minefield, cell_name
from cpsolve.game.words import dealt_words, failure, hint_words, title_words, why_not
from cpsolve.grid import Cell
from cpsolve.play import assist
from cpsolve.play.session import Dealer, Move, Session

__all__ = ["GameApp"]

#: The lines around the board: title, status, verdict, info (up to two), the key, the keys.
_LINES = 7


class GameApp(App[None]):
    """A person's game with the solver at their side.

    Args:
        dealer: Where boards come from.
        time_limit: Seconds each solver step may take before it gives up (and says so).
        clock: The sessions' clock (tests pass their own).
        auto_guess: Let ``a`` take the best player's guess when nothing is certain. Off (the
            default), ``a`` stops there, shows the guess and what it risks, and takes it only
            when pressed again.
    """

    TITLE = "cpsolve game"
    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = "game.tcss"
    BINDINGS = [
        Binding("up", "move(-1, 0)", "up", show=False),
        Binding("down", "move(1, 0)", "down", show=False),
        Binding("left", "move(0, -1)", "left", show=False),
        Binding("right", "move(0, 1)", "right", show=False),
        Binding("space", "reveal", "reveal"),
        Binding("f", "flag", "flag"),
        Binding("d", "chord", "chord"),
        Binding("question_mark", "hint", "hint", key_display="?"),
        Binding("a", "auto", "auto"),
        Binding("p", "chances", "chances"),
        Binding("u", "undo", "undo"),
        Binding("r", "restart", "again"),
        Binding("n", "new", "new"),
        Binding("q", "quit", "quit"),
    ]

    #: The cell under the cursor.
    cursor: var[Cell] = var((0, 0), init=False)
    #: The game the screen shows: (deal number, the session's version; -1 while dealing).
    version: var[tuple[int, int]] = var((0, -1), init=False)
    #: Whether the mine chances are drawn (they follow every move while on).
    showing_chances: var[bool] = var(False, init=False)
    #: The info line's message, and the verdict line's (each shown only for the game it was said about).
    note: var[Note] = var(SILENCE, init=False)
    verdict: var[Note] = var(SILENCE, init=False)

    def __init__(
        self,
        dealer: Dealer,
        time_limit: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        auto_guess: bool = False,
    ):
        super().__init__()
        self.dealer = dealer
        self.time_limit = time_limit
        self.clock = clock
        self.auto_guess = auto_guess
        self.deal_number = 0
        self.session: Session | None = None
        #: The solver's jobs, and its answers, each for the game (the version) it was asked about.
        self.jobs = Jobs(time_limit, lambda: self.version)
        self.help = Help(self.jobs)
        #: The version whose hint is drawn (``?``, or ``a`` stopping at a guess), if any.
        self._hint_shown_at: tuple[int, int] | None = None

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Field():
            yield Minefield()
        with Lines():
            yield StatusLine(id="status")
            yield VerdictLine(id="verdict").data_bind(note=GameApp.verdict, now=GameApp.version)
            yield InfoLine(self.time_limit, id="info").data_bind(note=GameApp.note, now=GameApp.version)
            yield Legend(id="legend")
        yield self.jobs
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.watch(self.jobs, "busy", self._show_busy)
        self.set_interval(0.1, self._tick)
        self._deal()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    def _fit(self, size: Size | None = None) -> None:
        self.query_one(Field).fit(size or self.size, _LINES)
        self._redraw()
        self.call_after_refresh(self._show_cursor)

    def _show_cursor(self) -> None:
        self.query_one(Field).show(self.cursor)

    def _kept_lines(self) -> Region:
        """Where the lines under the board are (status down to the key): the result leaves them in sight."""
        return self.query_one(Lines).region

    # -- what the lines show (each redrawn by the watchers of what it depends on) ------------------

    def watch_cursor(self) -> None:
        self._show_cursor()
        self._redraw()

    def watch_version(self) -> None:
        """The game changed (a move, a flag, an undo, a new board): every line is redrawn from it,
        so none outlives the state it described (the bound lines follow the version themselves);
        the chances follow if they are shown."""
        self._redraw()
        self._ask_chances()

    def watch_showing_chances(self, showing: bool) -> None:
        if showing:
            self._say("")  # what was said before (chances hidden) is over
            self._ask_chances()
        else:
            self.jobs.cancel("chances")
            self._say("mine chances hidden")
        self._redraw()

    def _show_busy(self, busy: Working | None) -> None:
        self.query_one(InfoLine).busy = busy

    def _now(self) -> tuple[int, int]:
        return (self.deal_number, self.session.version if self.session is not None else -1)

    def _after_change(self) -> None:
        """The session changed: the screen's version follows it (and the watchers redraw)."""
        self.version = self._now()

    def _redraw(self) -> None:
        """Draw the board, and give each line what it shows now."""
        board = self.query_one(Minefield)
        board.refresh()
        self.query_one(Lines).show(self.session, self.cursor, self.shown_chances(), self.shown_hint(), board.cell_width)

    def _tick(self) -> None:
        session = self.session
        with suppress(NoMatches):  # the app is closing: its widgets are gone
            if session is not None and session.started is not None and not session.over:
                self._redraw()  # the time on the status line

    def _say(self, message: str) -> None:
        """Put `message` on the info line, for the game as it is now."""
        self.note = Note(self._now(), message)

    def _judge_line(self, message: str, short: str = "") -> None:
        """Put `message` on the verdict line (`short` where the line is too narrow), for the game as it is now."""
        self.verdict = Note(self._now(), message, short)

    # -- dealing ----------------------------------------------------------------------------------

    def _deal(self) -> None:
        number = self.deal_number
        kind = f"a no-guess board for the {self.dealer.no_guess} player" if self.dealer.no_guess else "a board"
        self.jobs.run(
            f"dealing {kind}",
            lambda deadline: self.dealer.deal(number, self.time_limit),
            self._dealt,
            "deal",
            about=self.version,
        )

    def _dealt(self, deal: Any) -> None:
        if isinstance(deal, Exception):
            self._say(f"no board: {deal}")
            return
        self.session = Session(deal, self.clock)
        self.query_one("#title", Static).update(title_words(deal))
        self._fit()
        self.cursor = deal.first
        self._after_change()
        self._say(dealt_words(deal))

    # -- moves ------------------------------------------------------------------------------------

    def click_cell(self, cell: Cell, button: int) -> None:
        """A mouse click: left reveals (chords on a cleared number), right flags, middle chords."""
        self.cursor = cell
        if button == 3:
            self.action_flag()
        elif button == 2 or (self.session is not None and self.session.state(cell) == CLEARED):
            self.action_chord()
        else:
            self.action_reveal()

    def action_move(self, rows: int, cols: int) -> None:
        if self.session is None:
            return
        r, c = self.cursor
        self.cursor = (min(max(r + rows, 0), self.session.rows - 1), min(max(c + cols, 0), self.session.cols - 1))

    def action_reveal(self) -> None:
        self._open("reveal")

    def action_chord(self) -> None:
        self._open("chord")

    def _open(self, kind: str) -> None:
        """Reveal or chord on the cell under the cursor, or say why that does nothing."""
        session = self.session
        if session is not None:
            move = session.reveal(self.cursor) if kind == "reveal" else session.chord(self.cursor)
            if move is None:
                self._say(why_not(session, self.cursor, kind))
            else:
                self._played([move])

    def action_flag(self) -> None:
        session = self.session
        if session is None:
            return
        if session.toggle_flag(self.cursor):
            self._after_change()
        else:
            self._say(why_not(session, self.cursor, "flag"))

    def action_undo(self) -> None:
        if self.session is None:
            return
        move = self.session.undo()
        if move is None:
            self._say("nothing to undo")
            return
        self._close_end_screen()
        self._after_change()
        self._judge_line(
            f"undone: the {move.kind} at {cell_name(move.cell)} ({self.session.undos} undone, the result will say so)"
        )

    def action_restart(self) -> None:
        if self.session is not None:
            self.session.restart()
            self.cursor = self.session.deal.first
            self._close_end_screen()
            self._after_change()
            self._say("the same board again, from the start")

    def action_new(self) -> None:
        self._close_end_screen()
        for group in ("chances", "hint", "deal"):
            self.jobs.cancel(group)
        self.deal_number += 1
        self.session = None
        self._after_change()
        self._deal()

    def _played(self, moves: list[Move]) -> None:
        """Moves were played: redraw, then judge each (was it a guess?) off the screen's thread."""
        session = self.session
        assert session is not None
        self._after_change()
        self._judge_line("was that a guess? ...")
        for move in moves:  # the verdict shows if the game is still as the moves left it
            self.help.judge(move, self.version, partial(self._judged, move))
        if session.over:
            self._game_over()

    def _judged(self, move: Move, result: Any) -> None:
        session = self.session
        assert session is not None
        if session.moves[-1] is move:  # a move of several (auto's) says nothing over the last one's verdict
            if isinstance(result, Exception):
                self._judge_line(f"was that a guess? {failure(result, self.time_limit)}")
            else:
                self._judge_line(describe_safety(move), describe_safety(move, exact=False))
        if session.over:
            self._update_end_screen()

    # -- the chances ----------------------------------------------------------------------------

    def shown_chances(self) -> assist.ExactChances | None:
        """The chances to draw: when shown, and computed for the game as it is."""
        if not self.showing_chances or self.session is None or self.session.over:
            return None
        return self.help.chances(self.version)

    def chance_of(self, cell: Cell) -> Fraction | None:
        """The exact chance of a mine drawn on `cell`, or None (no chances drawn, or not a covered cell)."""
        chances = self.shown_chances()
        return None if chances is None else chances.cells.get(cell)

    def action_chances(self) -> None:
        self.showing_chances = not self.showing_chances

    def _ask_chances(self) -> None:
        session = self.session
        if not self.showing_chances or session is None or session.over or self.shown_chances() is not None:
            return
        self.help.ask_chances(session, self.version, self._got_chances)

    def _got_chances(self, result: Any) -> None:
        if isinstance(result, Exception):
            self._say(f"mine chances: {failure(result, self.time_limit)}")
        else:
            self._redraw()

    # -- the best player's hint and auto-play -------------------------------------------------------

    def shown_hint(self) -> assist.Hint | None:
        """The hint to draw: when asked for, and computed for the game as it is."""
        if self.session is None or self.session.over or self._hint_shown_at != self.version:
            return None
        return self.help.hint(self.version)

    def action_hint(self) -> None:
        """Show the best player's move for what is shown (again: hide it)."""
        if self.session is None or self.session.over:
            return
        if self.shown_hint() is not None:
            self._hint_shown_at = None
            self._say("hint hidden")
            self.query_one(Minefield).refresh()
            return
        self._ask_hint(self._show_hint)

    def action_auto(self) -> None:
        """Play the hint's move: reveal the certain safe cells, else flag the certain mines, else
        the guess: shown with its risk and taken on the next ``a`` (at once with ``auto_guess``)."""
        if self.session is not None and not self.session.over:
            self._ask_hint(self._play_hint)

    def _ask_hint(self, then: Callable[[assist.Hint], None]) -> None:
        session = self.session
        assert session is not None

        def done(result: Any) -> None:
            if isinstance(result, Exception):
                self._say(f"hint: {failure(result, self.time_limit)}")
            else:
                then(result)

        self.help.ask_hint(session, self.version, done)

    def _show_hint(self, hint: assist.Hint) -> None:
        """Draw the hint, and put the cursor on its move so that space plays it (the first click first)."""
        session = self.session
        assert session is not None
        first = session.deal.first
        covered = [cell for cell in hint.safe if session.state(cell) == COVERED]
        target = hint.guess or (first if first in covered else covered[0] if covered else None)
        self._hint_shown_at = self.version
        if target is not None:
            self.cursor = target
        self.query_one(Minefield).refresh()
        self._say(hint_words(session, hint))

    def _play_hint(self, hint: assist.Hint) -> None:
        """One step of ``a``: the guess is taken with the setting, or once ``?`` or ``a`` has shown it."""
        session = self.session
        assert session is not None
        step = auto_step(session, hint, take_guess=self.auto_guess or self._hint_shown_at == self.version)
        if step.stopped:
            self._show_hint(hint)
        elif step.cursor is not None:
            self.cursor = step.cursor
        if step.moves:
            self._played(list(step.moves))
        elif step.flagged:
            self._after_change()
        self._say(step.message)

    # -- the end ------------------------------------------------------------------------------------

    def _game_over(self) -> None:
        session = self.session
        assert session is not None
        self.help.ask_needed(self.deal_number, session.deal, self._update_end_screen)
        self.push_screen(EndScreen(self._end_text(), self._kept_lines))

    def _update_end_screen(self) -> None:
        if isinstance(self.screen, EndScreen):
            self.screen.update(self._end_text())

    def _close_end_screen(self) -> None:
        if isinstance(self.screen, EndScreen):
            self.screen.dismiss(None)

    def _end_text(self) -> Text:
        session = self.session
        assert session is not None
        return end_text(session.summary(), self.help.needed.get(self.deal_number))
