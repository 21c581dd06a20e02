"""The terminal game (``cpsolve game``): a Textual application over a :class:`cpsolve.play.session.Session`.

The rules and the counters are the session's; every piece of help is :mod:`cpsolve.play.assist`'s,
computed in a Textual thread worker with a deadline while the screen goes on (a spinner and the
seconds spent show on the info line), and dropped if the game moved on meanwhile.

The screen, top to bottom: the title (board, kind, seed); the board with its row numbers on the
left and its column numbers above (every column when a cell is three characters wide, the first
and every fifth when two), scrolling when the terminal is too small; the status line (``playing``,
``won`` or ``lost``, the mine counter, time, clicks, and the cell under the cursor with its exact
mine chance while the chances are shown); the verdict line ("was that a guess?"); the info line
(the hint, the solver's progress, or why a key did nothing); the chances' key while they are
shown; and the keys. The end screen is a dialog over the board.

Every line is drawn from the state it shows, the Textual way: the cursor, the session's version,
the shown overlays and the messages are reactive attributes, and their ``watch_*`` methods redraw
what depends on them. A message remembers the version of the game it was said about, so a move,
a flag or an undo takes it away with the state it described.

The board, its marks and its chances: :mod:`cpsolve.game.minefield`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.geometry import Region, Size
from textual.reactive import var
from textual.screen import ModalScreen
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.errors import TimeLimitError
from cpsolve.game.minefield import GUESS_MARK, MINE_MARK, SAFE_MARK, Field, Minefield, cell_name, chance_legend, percent
from cpsolve.grid import Cell
from cpsolve.play import assist
from cpsolve.play.session import Dealer, Move, Session, Summary
from cpsolve.words import counted

__all__ = ["GameApp", "EndScreen", "describe_safety", "end_text"]

#: The progress indicator's frames, one a tenth of a second.
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
#: The lines around the board: title, status, verdict, info (up to two), the chances' key, keys.
_LINES = 7


def describe_safety(move: Move) -> str:
    """The answer to "was that a guess?" for a judged move."""
    if move.safety is None:
        return "was that a guess? not judged yet"
    what = "the chord's cells were" if move.kind == "chord" else "it was"
    if move.safety == 1:
        return "was that a guess? no: certain from what was shown"
    outcome = "and it lost" if move.exploded else "and it held"
    return f"was that a guess? yes: {what} safe with chance {percent(Fraction(move.safety))}, {outcome}"


@dataclass(frozen=True)
class Note:
    """A line's message and the game it was said about: ``(deal number, session version)``."""

    version: tuple[int, int]
    text: str


_SILENCE = Note((-1, -1), "")


class EndScreen(ModalScreen[None]):
    """The result over the board: escape (or enter) closes it to look at the board."""

    # a modal screen hides the app's bindings: the ones that make sense after a game, again
    BINDINGS = [
        Binding("escape,enter", "close", "look at the board"),
        Binding("u", "app.undo", "undo"),
        Binding("r", "app.restart", "again"),
        Binding("n", "app.new", "new board"),
        Binding("q", "app.quit", "quit"),
    ]
    DEFAULT_CSS = """
    EndScreen { align: center middle; background: $background 30%; }
    EndScreen > Static { width: auto; max-width: 76; height: auto; padding: 0 2;
                         border: heavy $accent; background: $surface; color: $text; }
    """

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="result")

    def update(self, text: Text) -> None:
        self.text = text
        self.query_one("#result", Static).update(text)

    def action_close(self) -> None:
        self.dismiss(None)


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
    note: var[Note] = var(_SILENCE, init=False)
    verdict: var[Note] = var(_SILENCE, init=False)

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
        self._chances: tuple[tuple[int, int], assist.ExactChances] | None = None
        self._hint: tuple[tuple[int, int], assist.Hint] | None = None
        #: The version whose hint is drawn (``?``, or ``a`` stopping at a guess), if any.
        self._hint_shown_at: tuple[int, int] | None = None
        self._needed: dict[int, bool] = {}
        self._jobs: dict[Worker, tuple[str, float, Callable[[Any], None]]] = {}

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Field():
            yield Minefield()
        yield Static(id="status")
        yield Static(id="verdict")
        yield Static(id="info")
        yield Static(id="legend")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.set_interval(0.1, self._tick)
        self._deal()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    def _fit(self, size: Size | None = None) -> None:
        """Three columns a cell when the board fits the terminal so, else two; the board's frame
        scrolls beyond, leaving room for the lines around it."""
        width, height = size or self.size
        board = self.query_one(Minefield)
        self.query_one(Field).styles.max_height = max(3, height - _LINES)
        if self.session is not None:
            room = width - 4  # the frame's padding and a scrollbar
            board.cell_width = 3 if board.label_width + self.session.cols * 3 <= room else 2
        board.refresh(layout=True)
        self._draw_legend()
        self.call_after_refresh(self._show_cursor)

    def _show_cursor(self) -> None:
        board = self.query_one(Minefield)
        region = board.region_of(self.cursor)
        # the row's number and the column's stay in sight with the cell
        self.query_one(Field).scroll_to_region(
            Region(region.x - board.label_width, region.y - 1, region.width + board.label_width, 2), animate=False
        )

    # -- what the lines show (each redrawn by the watchers of what it depends on) ------------------

    def watch_cursor(self) -> None:
        self.query_one(Minefield).refresh()
        self._show_cursor()
        self._draw_status()

    def watch_version(self) -> None:
        """The game changed (a move, a flag, an undo, a new board): every line is redrawn from it,
        so none outlives the state it described; the chances follow if they are shown."""
        self.query_one(Minefield).refresh()
        self._draw_status()
        self._draw_verdict()
        self._draw_info()
        self._draw_legend()
        self._ask_chances()

    def watch_showing_chances(self, showing: bool) -> None:
        if showing:
            self._say("")  # what was said before (chances hidden) is over
            self._ask_chances()
        else:
            self._cancel("chances")
            self._say("mine chances hidden")
        self.query_one(Minefield).refresh()
        self._draw_status()
        self._draw_info()
        self._draw_legend()

    def watch_note(self) -> None:
        self._draw_info()

    def watch_verdict(self) -> None:
        self._draw_verdict()

    def _now(self) -> tuple[int, int]:
        return (self.deal_number, self.session.version if self.session is not None else -1)

    def _after_change(self) -> None:
        """The session changed: the screen's version follows it (and the watcher redraws)."""
        self.version = self._now()

    def _draw_status(self) -> None:
        status = self.query_one("#status", Static)
        session = self.session
        if session is None:
            status.update("")
            return
        outcome = "won" if session.won else "lost" if session.lost else "playing"
        text = Text(outcome, style="bold")
        text.append(f"  mines {session.mines_left}  time {session.seconds:.0f} s  clicks {session.clicks}")
        if session.undos:
            text.append(f"  undos {session.undos}")
        text.append("   " + self._cursor_words(self.size.width - 2 - len(text)), style="bold")
        status.update(text)
        status.set_class(session.won, "won")
        status.set_class(session.lost, "lost")

    def _cursor_words(self, room: int) -> str:
        """The cell under the cursor, and its exact chance of a mine while the chances are shown
        (the fraction left out where the line has no room for it)."""
        where = cell_name(self.cursor)
        chance = self.chance_of(self.cursor)
        if chance is None:
            return where
        if chance in (0, 1):
            return f"{where}: {'certainly safe' if chance == 0 else 'certainly a mine'}"
        full = f"{where}: mine chance {percent(chance)}"
        return full if len(full) + 3 <= room else f"{where}: mine chance {float(chance) * 100:.3g}%"

    def _draw_verdict(self) -> None:
        self.query_one("#verdict", Static).update(self.verdict.text if self.verdict.version == self.version else "")

    def _draw_info(self) -> None:
        self.query_one("#info", Static).update(self._info_text())

    def _info_text(self) -> str:
        """What the info line says now: the solver at work, else the message said about this very
        game, else the hint drawn, else what the chances drawn count."""
        busy = [(label, began) for worker, (label, began, _) in self._jobs.items() if label and not worker.is_cancelled]
        if busy:
            label, began = busy[0]
            spent = time.perf_counter() - began
            frame = SPINNER[int(spent * 10) % len(SPINNER)]
            return f"{frame} {label}... {spent:.1f} s (limit {self.time_limit:g} s)"
        if self.note.version == self.version and self.note.text:
            return self.note.text
        hint = self.shown_hint()
        if hint is not None:
            return self._hint_words(hint)
        chances = self.shown_chances()
        if chances is not None:
            return f"exact mine chances: {counted(chances.mines, 'mine')} in {counted(len(chances.cells), 'cell')}"
        return ""

    def _draw_legend(self) -> None:
        legend = self.query_one("#legend", Static)
        shown = self.shown_chances() is not None
        legend.update(chance_legend(self.query_one(Minefield).cell_width) if shown else "")
        legend.display = shown

    def _tick(self) -> None:
        try:
            if self._jobs:
                self._draw_info()
            if self.session is not None and self.session.started is not None and not self.session.over:
                self._draw_status()
        except NoMatches:  # the app is closing: its widgets are gone
            pass

    def _say(self, message: str) -> None:
        """Put `message` on the info line, for the game as it is now."""
        self.note = Note(self._now(), message)

    def _judge_line(self, message: str) -> None:
        """Put `message` on the verdict line, for the game as it is now."""
        self.verdict = Note(self._now(), message)

    # -- the solver's jobs ------------------------------------------------------------------------

    def _run(
        self, label: str, work: Callable[[float], Any], done: Callable[[Any], None], group: str, exclusive: bool = True
    ) -> None:
        """Run ``work(deadline)`` in a thread worker; ``done(result)`` on the screen's thread after.

        A result is the work's return value, or the exception it raised (TimeLimitError
        when the time limit ran out). `label` (if any) shows with a spinner meanwhile.
        An exclusive job replaces the group's running one, whose result is then never used.
        """

        def body() -> Any:
            try:
                return work(time.perf_counter() + self.time_limit)
            except Exception as error:  # handed to done(), which says what happened
                return error

        if exclusive:
            self._cancel(group)
        worker = self.run_worker(body, group=group, exclusive=exclusive, thread=True, exit_on_error=False)
        self._jobs[worker] = (label, time.perf_counter(), done)
        self._draw_info()

    def _cancel(self, group: str) -> None:
        """Cancel the group's jobs and forget them: a worker cancelled before it started never
        reports that it stopped, so the spinner must not wait for it."""
        for worker in [worker for worker in self._jobs if worker.group == group]:
            worker.cancel()
            del self._jobs[worker]
        self._draw_info()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        job = self._jobs.get(event.worker)
        if job is None or event.state in (WorkerState.PENDING, WorkerState.RUNNING):
            return
        del self._jobs[event.worker]
        try:
            if event.state == WorkerState.SUCCESS:
                job[2](event.worker.result)
            self._draw_info()
        except NoMatches:  # the app is closing (its workers are cancelled then): nothing to draw on
            pass

    # -- dealing ----------------------------------------------------------------------------------

    def _deal(self) -> None:
        number = self.deal_number
        kind = f"a no-guess board for the {self.dealer.no_guess} player" if self.dealer.no_guess else "a board"
        self._run(
            f"dealing {kind}",
            lambda deadline: self.dealer.deal(number, self.time_limit),
            lambda deal: self._dealt(number, deal),
            "deal",
        )

    def _dealt(self, number: int, deal: Any) -> None:
        if number != self.deal_number:
            return
        if isinstance(deal, Exception):
            self._say(f"no board: {deal}")
            return
        self.session = Session(deal, self.clock)
        self._chances = None
        self._hint = None
        settings = deal.settings
        kind = f"no-guess for {deal.no_guess}" if deal.no_guess else "uniform"
        self.query_one("#title", Static).update(
            f"cpsolve game · {settings.rows}x{settings.cols}, {counted(settings.mines, 'mine')} · {kind}"
            f" · {settings.start} start · seed {settings.seed}"
        )
        self._fit()
        self.cursor = deal.first
        self._after_change()
        self._say(
            f"the board was dealt for a first click at {cell_name(deal.first)} ({SAFE_MARK}); "
            f"{'its opening' if settings.start == 'opening' else 'it'} is safe"
        )

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
        session = self.session
        if session is not None:
            move = session.reveal(self.cursor)
            if move is None:
                self._say(self._why_not("reveal"))
            else:
                self._played([move])

    def action_chord(self) -> None:
        session = self.session
        if session is not None:
            move = session.chord(self.cursor)
            if move is None:
                self._say(self._why_not("chord"))
            else:
                self._played([move])

    def action_flag(self) -> None:
        session = self.session
        if session is None:
            return
        if session.toggle_flag(self.cursor):
            self._after_change()
        else:
            self._say(self._why_not("flag"))

    def _why_not(self, kind: str) -> str:
        """Why the key did nothing on the cell under the cursor (the session's rules, in words)."""
        session = self.session
        assert session is not None
        cell, where = self.cursor, cell_name(self.cursor)
        if session.over:
            return "the game is over: u takes the last move back, r plays the board again, n deals a new one"
        state = session.state(cell)
        if kind == "flag":
            return f"{where} is open: only a covered cell takes a flag"
        if kind == "reveal":
            if state == FLAGGED:
                return f"{where} is flagged: f takes the flag off before space can reveal it"
            return f"{where} is already open" + (": d chords on it" if session.number(cell) else "")
        if state == FLAGGED:
            return f"{where} is flagged: d chords on an open number, to reveal the cells around it"
        if state == COVERED:
            return f"{where} is covered: d chords on an open number (space reveals a covered cell)"
        number = session.number(cell)
        around = self._around(cell)
        flags = sum(1 for other in around if session.state(other) == FLAGGED)
        if not any(session.state(other) == COVERED for other in around):
            return f"nothing is left to open around {where}"
        return (
            f"{where} shows {number} and has {counted(flags, 'flag')} around it: "
            "a chord needs as many flags as the number"
        )

    def _around(self, cell: Cell) -> list[Cell]:
        session = self.session
        assert session is not None
        r, c = cell
        return [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0) and 0 <= r + dr < session.rows and 0 <= c + dc < session.cols
        ]

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
            self._cancel(group)
        self.deal_number += 1
        self.session = None
        self._chances = None
        self._hint = None
        self._after_change()
        self._deal()

    def _played(self, moves: list[Move]) -> None:
        """Moves were played: redraw, then judge each (was it a guess?) off the screen's thread."""
        session = self.session
        assert session is not None
        self._after_change()
        after = self.version
        self._judge_line("was that a guess? ...")
        for move in moves:
            self._judge(move, after)
        if session.over:
            self._game_over()

    def _judge(self, move: Move, after: tuple[int, int]) -> None:
        """Judge `move` in a worker; its verdict is shown if the game is still as the move left it."""
        self._run(
            "",
            lambda deadline: assist.judge_move(move, deadline),
            lambda result: self._judged(move, result, after),
            "judge",
            exclusive=False,
        )

    def _judged(self, move: Move, result: Any, after: tuple[int, int]) -> None:
        session = self.session
        if session is None or not any(move is standing for standing in session.moves):
            return
        if session.moves[-1] is move and self.version == after:
            failed = isinstance(result, Exception)
            self._judge_line(
                f"was that a guess? {_failure(result, self.time_limit)}" if failed else describe_safety(move)
            )
        if session.over:
            self._update_end_screen()

    # -- the chances ----------------------------------------------------------------------------

    def shown_chances(self) -> assist.ExactChances | None:
        """The chances to draw: when shown, and computed for the game as it is."""
        if not self.showing_chances or self.session is None or self._chances is None or self.session.over:
            return None
        version, chances = self._chances
        return chances if version == self.version else None

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
        version, view, promised = self.version, session.view(), session.promised_left()
        self._run(
            "working out the mine chances",
            lambda deadline: assist.chances(view, promised, deadline),
            lambda result: self._got_chances(version, result),
            "chances",
        )

    def _got_chances(self, version: tuple[int, int], result: Any) -> None:
        if version != self.version:
            return
        if isinstance(result, Exception):
            self._say(f"mine chances: {_failure(result, self.time_limit)}")
            return
        self._chances = (version, result)
        self.query_one(Minefield).refresh()
        self._draw_status()
        self._draw_info()
        self._draw_legend()

    # -- the best player's hint and auto-play -------------------------------------------------------

    def shown_hint(self) -> assist.Hint | None:
        """The hint to draw: when asked for, and computed for the game as it is."""
        if self._hint is None or self.session is None or self.session.over or self._hint_shown_at != self.version:
            return None
        version, hint = self._hint
        return hint if version == self.version else None

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
        if self._hint is not None and self._hint[0] == self.version:
            then(self._hint[1])
            return
        version, view, promised = self.version, session.view(), session.promised_left()

        def done(result: Any) -> None:
            if version != self.version:
                return
            if isinstance(result, Exception):
                self._say(f"hint: {_failure(result, self.time_limit)}")
            else:
                self._hint = (version, result)
                then(result)

        self._run("the best player is thinking", lambda deadline: assist.hint(view, promised, deadline), done, "hint")

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
        self._say(self._hint_words(hint))

    def _hint_words(self, hint: assist.Hint) -> str:
        session = self.session
        assert session is not None
        if hint.guess is not None:
            return (
                f"hint: guess {cell_name(hint.guess)} ({GUESS_MARK}), safe with chance "
                f"{percent(hint.safety or Fraction(0))}: {hint.reason}"
            )
        unflagged = [cell for cell in hint.mines if session.state(cell) != FLAGGED]
        return (
            f"hint: {len(hint.safe)} safe ({SAFE_MARK}), {counted(len(unflagged), 'mine')} to flag "
            f"({MINE_MARK}): {hint.reason}"
        )

    def _play_hint(self, hint: assist.Hint) -> None:
        session = self.session
        assert session is not None
        safe = [cell for cell in hint.safe if session.state(cell) == COVERED]
        mines = [cell for cell in hint.mines if session.state(cell) == COVERED]
        if safe:
            moves = [move for move in (session.reveal(cell, assisted=True) for cell in safe) if move is not None]
            self.cursor = safe[-1]
            self._played(moves)
            self._say(f"auto: opened {counted(len(safe), 'cell')} certain to be safe")
        elif mines:
            for cell in mines:
                session.toggle_flag(cell)
            self.cursor = mines[-1]
            self._after_change()
            self._say(f"auto: flagged {counted(len(mines), 'certain mine')}")
        elif hint.guess is not None:
            self._guess(hint)
        else:
            self._say("auto: the safe cells are flagged; take their flags off first")

    def _guess(self, hint: assist.Hint) -> None:
        """The hint is a guess: take it when the setting or a second ``a`` says so, else stop and
        say what it risks."""
        session = self.session
        assert session is not None and hint.guess is not None
        safety = hint.safety or Fraction(0)
        risk = f"safe with chance {percent(safety)}, a mine with chance {percent(1 - safety)}"
        if not self.auto_guess and self._hint_shown_at != self.version:
            self._show_hint(hint)
            self._say(f"auto stops at a guess: {cell_name(hint.guess)} ({GUESS_MARK}) is {risk}; a again takes it")
            return
        self.cursor = hint.guess
        move = session.reveal(hint.guess, assisted=True)
        assert move is not None
        self._played([move])
        self._say(f"auto: guessed {cell_name(hint.guess)}, {risk}: {'it was a mine' if move.exploded else 'it held'}")

    # -- the end ------------------------------------------------------------------------------------

    def _game_over(self) -> None:
        session = self.session
        assert session is not None
        number = self.deal_number
        if number not in self._needed:
            self._run(
                "",
                lambda deadline: assist.needed_guess(session.deal),
                lambda result: self._got_needed(number, result),
                "needed",
                exclusive=False,
            )
        self.push_screen(EndScreen(self._end_text()))

    def _got_needed(self, number: int, result: Any) -> None:
        if isinstance(result, bool):
            self._needed[number] = result
        self._update_end_screen()

    def _update_end_screen(self) -> None:
        if isinstance(self.screen, EndScreen):
            self.screen.update(self._end_text())

    def _close_end_screen(self) -> None:
        if isinstance(self.screen, EndScreen):
            self.screen.dismiss(None)

    def _end_text(self) -> Text:
        session = self.session
        assert session is not None
        summary = session.summary()
        needed = self._needed.get(self.deal_number)
        return end_text(summary, session, needed)


def end_text(summary: Summary, session: Session, needed: bool | None) -> Text:
    """The end screen's text."""
    text = Text(summary.outcome.upper(), style="bold " + ("green" if summary.outcome == "won" else "red"))
    if summary.undos:
        text.append(f"  (after {summary.undos} undo{'s' if summary.undos > 1 else ''})", style="bold")
    rows = [
        ("time", f"{summary.seconds:.1f} s"),
        ("3BV", str(summary.bbbv)),
        ("3BV/s", f"{summary.bbbv_per_second:.2f}" if summary.bbbv_per_second is not None else "-"),
        ("clicks", str(summary.clicks)),
        ("guesses made", str(summary.guesses) + (f" ({summary.unjudged} not judged yet)" if summary.unjudged else "")),
        ("hint moves", str(summary.assisted)),
        (
            "needed a guess",
            "..."
            if needed is None
            else "yes (the perfect player loses it)"
            if needed
            else "no (the perfect player wins it)",
        ),
    ]
    for name, value in rows:
        text.append(f"\n{name:<16}{value}")
    text.append("\n\nr again  n new board  u undo  esc look at the board  q quit", style="italic")
    return text


def _failure(error: Exception, limit: float) -> str:
    """What a failed job says: the time limit, or the error itself."""

    if isinstance(error, TimeLimitError):
        return f"the time limit ({limit:g} s) ran out"
    return f"failed: {error}"
