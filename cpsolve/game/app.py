"""The terminal game (``cpsolve game``): a Textual application over a :class:`cpsolve.game.session.Session`.

The rules and the counters are the session's; every piece of help is :mod:`cpsolve.game.assist`'s,
computed in a Textual thread worker with a deadline while the screen goes on (a spinner and the
seconds spent show on the info line), and dropped if the game moved on meanwhile.

The screen, top to bottom: the title (board, kind, seed), the board (scrolls when the terminal is
too small; three columns a cell, two when three do not fit), the status line (``playing``,
``won`` or ``lost``, the mine counter, time, clicks), the verdict line ("was that a guess?"),
the info line (the chances, the hint, or the solver's progress) and the keys. The end screen is a
dialog over the board.

Colours: every cell paints its own background and foreground (slate covered cells, light cleared
cells with dark numbers), so the board reads the same on dark and light terminals; marks carry a
letter as well as a colour.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.css.query import NoMatches
from textual.geometry import Region, Size
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.formats.values import counted
from cpsolve.game import assist
from cpsolve.game.session import (
    SHOWN_EXPLODED,
    SHOWN_FLAG,
    SHOWN_MINE,
    SHOWN_WRONG_FLAG,
    Dealer,
    Move,
    Session,
    Summary,
)
from cpsolve.grid import Cell

__all__ = ["GameApp", "EndScreen", "Board", "describe_safety", "percent"]

#: Each number's colour on the light cleared cells (the classic hues, darkened to read on light grey).
NUMBER_COLOURS = {
    1: "#1d4ed8",
    2: "#15803d",
    3: "#c62828",
    4: "#312e81",
    5: "#7f1d1d",
    6: "#0f766e",
    7: "#111111",
    8: "#4b5563",
}
#: Backgrounds, in a faint checker so columns can be counted.
COVERED_BG = ("#56637a", "#5f6c84")
CLEARED_BG = ("#dfe3e9", "#d4d9e1")
#: The mark on the first click a board was dealt for, until the first move.
START_MARK = "o"
#: The hint's marks: a certainly safe cell (like the start: click here), a certain mine, the guess.
HINT_SAFE, HINT_MINE, HINT_GUESS = "o", "!", "?"
#: The progress indicator's frames, one a tenth of a second.
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
#: The lines around the board: the title, status, verdict, info (up to two) and keys.
_LINES = 6
#: The cursor's mark where a cell has one column to spare (it is also drawn in reverse).
CURSOR_MARK = "▸"


def percent(chance: Fraction) -> str:
    """A chance as a person reads it: ``87.5% (7/8)``, the fraction only when it is short."""
    text = f"{float(chance) * 100:.3g}%"
    if chance.denominator <= 1000 and chance not in (0, 1):
        text += f" ({chance.numerator}/{chance.denominator})"
    return text


def describe_safety(move: Move) -> str:
    """The answer to "was that a guess?" for a judged move."""
    if move.safety is None:
        return "was that a guess? not judged yet"
    what = "the chord's cells were" if move.kind == "chord" else "it was"
    if move.safety == 1:
        return "was that a guess? no: certain from what was shown"
    outcome = "and it lost" if move.exploded else "and it held"
    return f"was that a guess? yes: {what} safe with chance {percent(Fraction(move.safety))}, {outcome}"


def _chance_style(chance: Fraction) -> Style:
    """A shade from green (safe) through amber to red (a mine), with text that reads on it."""
    stops = ((0.0, (0x2F, 0x85, 0x5A)), (0.5, (0xD6, 0x9E, 0x2E)), (1.0, (0xC5, 0x30, 0x30)))
    value = float(chance)
    (low, a), (high, b) = (stops[0], stops[1]) if value <= 0.5 else (stops[1], stops[2])
    t = (value - low) / (high - low)
    rgb = tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    light = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 150
    return Style(color="#111111" if light else "#ffffff", bgcolor="#{:02x}{:02x}{:02x}".format(*rgb), bold=True)


def _chance_text(chance: Fraction) -> str:
    """At most two characters: ``0`` certainly safe, ``*`` certainly a mine, else the percentage (1-99)."""
    if chance == 0:
        return "0"
    if chance == 1:
        return SHOWN_MINE
    return str(min(99, max(1, round(float(chance) * 100))))


class Board(Widget):
    """The minefield: draws the session (and the overlays), and turns mouse clicks into moves."""

    DEFAULT_CSS = """
    Board { width: auto; height: auto; }
    """

    def __init__(self) -> None:
        super().__init__(id="board")
        self.cell_width = 3

    @property
    def game(self) -> GameApp:
        return self.app  # type: ignore[return-value]  # Textual types it as its base App; this widget lives in a GameApp

    def get_content_width(self, container: Any, viewport: Any) -> int:
        session = self.game.session
        return (session.cols if session else 20) * self.cell_width

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        session = self.game.session
        return session.rows if session else 1

    def render(self) -> Text:
        game = self.game
        session = game.session
        if session is None:
            return Text("dealing...")
        picture = session.picture()
        lines = Text()
        for r, row in enumerate(picture):
            if r:
                lines.append("\n")
            for c, shown in enumerate(row):
                text, style = self._cell(session, (r, c), shown)
                if (r, c) == game.cursor:
                    style = style + Style(reverse=True)
                    if len(text) == 1:
                        lines.append(("[" + text + "]") if self.cell_width == 3 else CURSOR_MARK + text, style)
                        continue
                lines.append(self._pad(text), style)
        return lines

    def _pad(self, text: str) -> str:
        if self.cell_width == 3:
            return f" {text} " if len(text) == 1 else f"{text} "
        return text.rjust(2)

    def _cell(self, session: Session, cell: Cell, shown: str) -> tuple[str, Style]:
        """The cell's text (one or two characters) and style."""
        r, c = cell
        checker = (r + c) % 2
        covered = Style(color="#ffffff", bgcolor=COVERED_BG[checker], bold=True)
        cleared = Style(color="#111111", bgcolor=CLEARED_BG[checker], bold=True)
        game = self.game
        if shown.isdigit():
            number = int(shown)
            return (shown if number else " "), cleared + Style(color=NUMBER_COLOURS.get(number))
        if shown == SHOWN_EXPLODED:
            return SHOWN_MINE, Style(color="#ffffff", bgcolor="#b91c1c", bold=True)
        if shown == SHOWN_MINE:
            return SHOWN_MINE, cleared
        if shown == SHOWN_WRONG_FLAG:
            return SHOWN_WRONG_FLAG, cleared + Style(color="#b91c1c")
        hint = game.shown_hint()
        if hint is not None:
            if cell in hint.safe:
                return HINT_SAFE, Style(color="#ffffff", bgcolor="#2f855a", bold=True)
            if cell in hint.mines and shown != SHOWN_FLAG:
                return HINT_MINE, Style(color="#ffffff", bgcolor="#b91c1c", bold=True)
            if cell == hint.guess:
                return HINT_GUESS, Style(color="#111111", bgcolor="#f6ad55", bold=True)
        chances = game.shown_chances()
        if chances is not None:
            chance = chances.cells.get(cell, Fraction(0) if cell in session.promised else None)
            if chance is not None:
                return (SHOWN_FLAG if shown == SHOWN_FLAG else _chance_text(chance)), _chance_style(chance)
        if shown == SHOWN_FLAG:
            return SHOWN_FLAG, covered + Style(color="#ffd43b")
        if not session.moves and cell == session.deal.first:
            return START_MARK, Style(color="#ffffff", bgcolor="#2f855a", bold=True)
        return " ", covered

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or self.game.session is None:
            return
        cell = (offset.y, offset.x // self.cell_width)
        if 0 <= cell[0] < self.game.session.rows and 0 <= cell[1] < self.game.session.cols:
            self.game.click_cell(cell, event.button)


class Field(ScrollableContainer, can_focus=False):
    """The board's scrolling frame; the keys are the game's, not the frame's."""


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
    """

    TITLE = "cpsolve game"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $panel; color: $text; text-style: bold; padding: 0 1; }
    Field { height: auto; width: 1fr; padding: 0 1; }
    #status, #verdict { height: 1; padding: 0 1; }
    #info { height: auto; max-height: 2; padding: 0 1; }
    .won { color: $success; }
    .lost { color: $error; }
    """
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

    def __init__(self, dealer: Dealer, time_limit: float = 10.0, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.dealer = dealer
        self.time_limit = time_limit
        self.clock = clock
        self.deal_number = 0
        self.session: Session | None = None
        self.cursor: Cell = (0, 0)
        self.showing_chances = False
        self._chances: tuple[int, assist.Chances] | None = None
        self.showing_hint = False
        self._hint: tuple[int, assist.Hint] | None = None
        self._needed: dict[int, bool] = {}
        self._jobs: dict[Worker, tuple[str, float, Callable[[Any], None]]] = {}
        self._message = ""

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Field():
            yield Board()
        yield Static(id="status")
        yield Static(id="verdict")
        yield Static(id="info")
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
        board = self.query_one(Board)
        self.query_one(Field).styles.max_height = max(3, height - _LINES)
        if self.session is not None:
            room = width - 4  # the frame's padding and a scrollbar
            board.cell_width = 3 if self.session.cols * 3 <= room else 2
        board.refresh(layout=True)
        self.call_after_refresh(self._show_cursor)

    def _show_cursor(self) -> None:
        board = self.query_one(Board)
        r, c = self.cursor
        self.query_one(Field).scroll_to_region(Region(c * board.cell_width, r, board.cell_width, 1), animate=False)

    def _redraw(self) -> None:
        """Redraw the board and both lines."""
        self.query_one(Board).refresh()
        self._draw_status()
        self._draw_info()

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
        status.update(text)
        status.set_class(session.won, "won")
        status.set_class(session.lost, "lost")

    def _draw_info(self) -> None:
        info = self.query_one("#info", Static)
        busy = [(label, began) for label, began, _ in self._jobs.values() if label]
        if busy:
            label, began = busy[0]
            spent = time.perf_counter() - began
            frame = SPINNER[int(spent * 10) % len(SPINNER)]
            info.update(f"{frame} {label}... {spent:.1f} s (limit {self.time_limit:g} s)")
            return
        info.update(self._message)

    def _tick(self) -> None:
        try:
            if self._jobs:
                self._draw_info()
            if self.session is not None and self.session.started is not None and not self.session.over:
                self._draw_status()
        except NoMatches:  # the app is closing: its widgets are gone
            pass

    def _say(self, message: str) -> None:
        """Put `message` on the info line (the solver's progress takes it while a job runs)."""
        self._message = message
        self._draw_info()

    def _verdict(self, message: str) -> None:
        """Put `message` on the verdict line (the last move's judgement)."""
        self.query_one("#verdict", Static).update(message)

    # -- the solver's jobs ------------------------------------------------------------------------

    def _run(
        self, label: str, work: Callable[[float], Any], done: Callable[[Any], None], group: str, exclusive: bool = True
    ) -> None:
        """Run ``work(deadline)`` in a thread worker; ``done(result)`` on the screen's thread after.

        A result is the work's return value, or the exception it raised (TimeLimitError
        when the time limit ran out). `label` (if any) shows with a spinner meanwhile.
        """

        def body() -> Any:
            try:
                return work(time.perf_counter() + self.time_limit)
            except Exception as error:  # handed to done(), which says what happened
                return error

        worker = self.run_worker(body, group=group, exclusive=exclusive, thread=True, exit_on_error=False)
        self._jobs[worker] = (label, time.perf_counter(), done)
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
        if isinstance(deal, Exception):
            self._say(f"no board: {deal}")
            return
        if number != self.deal_number:
            return
        self.session = Session(deal, self.clock)
        self.cursor = deal.first
        self._chances = None
        self._hint = None
        settings = deal.settings
        kind = f"no-guess for {deal.no_guess}" if deal.no_guess else "uniform"
        self.query_one("#title", Static).update(
            f"cpsolve game · {settings.rows}x{settings.cols}, {counted(settings.mines, 'mine')} · {kind}"
            f" · {settings.start} start · seed {settings.seed}"
        )
        self._fit()
        start = f"row {deal.first[0] + 1}, col {deal.first[1] + 1}"
        self._say(
            f"the board was dealt for a first click at {start} ({START_MARK}); "
            f"{'its opening' if settings.start == 'opening' else 'it'} is safe"
        )
        self._after_change()

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
        self.query_one(Board).refresh()
        self._show_cursor()
        if self.showing_chances:
            self._draw_info_chance()

    def action_reveal(self) -> None:
        if self.session is not None:
            self._played(self.session.reveal(self.cursor))

    def action_chord(self) -> None:
        if self.session is not None:
            self._played(self.session.chord(self.cursor))

    def action_flag(self) -> None:
        if self.session is not None and self.session.toggle_flag(self.cursor):
            self._after_change()

    def action_undo(self) -> None:
        if self.session is None:
            return
        move = self.session.undo()
        if move is None:
            self._say("nothing to undo")
            return
        self._close_end_screen()
        self._after_change()
        self._verdict(
            f"undone: the {move.kind} at row {move.cell[0] + 1}, col {move.cell[1] + 1} "
            f"({self.session.undos} undone, the result will say so)"
        )

    def action_restart(self) -> None:
        if self.session is not None:
            self.session.restart()
            self.cursor = self.session.deal.first
            self._close_end_screen()
            self._after_change()
            self._verdict("")
            self._say("the same board again, from the start")

    def action_new(self) -> None:
        self._close_end_screen()
        self.deal_number += 1
        self.session = None
        self._chances = None
        self._verdict("")
        self._redraw()
        self._deal()

    def _played(self, move: Move | None) -> None:
        if move is None:
            return
        session = self.session
        assert session is not None
        self._message = ""  # what was said before the move is about the board before it
        self._verdict("was that a guess? ...")
        self._run(
            "",
            lambda deadline: assist.judge(move, deadline),
            lambda result: self._judged(move, result),
            "judge",
            exclusive=False,
        )
        self._after_change()
        if session.over:
            self._game_over()

    def _judged(self, move: Move, result: Any) -> None:
        session = self.session
        if session is None or not any(move is standing for standing in session.moves):
            return
        if session.moves[-1] is move:
            failed = isinstance(result, Exception)
            self._verdict(f"was that a guess? {_failure(result, self.time_limit)}" if failed else describe_safety(move))
        if session.over:
            self._update_end_screen()

    def _after_change(self) -> None:
        """The session changed: redraw, and ask for the chances again if they are shown."""
        self._redraw()
        if self.showing_chances:
            self._ask_chances()

    # -- the chances ----------------------------------------------------------------------------

    def shown_chances(self) -> assist.Chances | None:
        """The chances to draw: when shown, and computed for the session as it is."""
        if not self.showing_chances or self.session is None or self._chances is None or self.session.over:
            return None
        version, chances = self._chances
        return chances if version == self.session.version else None

    def action_chances(self) -> None:
        self.showing_chances = not self.showing_chances
        if self.showing_chances:
            self._ask_chances()
        else:
            self._say("mine chances hidden")
        self.query_one(Board).refresh()

    def _ask_chances(self) -> None:
        session = self.session
        if session is None or session.over or self.shown_chances() is not None:
            return
        version, view = session.version, session.view()
        self._run(
            "working out the mine chances",
            lambda deadline: assist.chances(view, deadline),
            lambda result: self._got_chances(version, result),
            "chances",
        )

    def _got_chances(self, version: int, result: Any) -> None:
        if isinstance(result, Exception):
            self._say(f"mine chances: {_failure(result, self.time_limit)}")
            return
        self._chances = (version, result)
        self.query_one(Board).refresh()
        self._draw_info_chance()

    def _draw_info_chance(self) -> None:
        chances = self.shown_chances()
        session = self.session
        if chances is None or session is None:
            return
        here = chances.cells.get(self.cursor)
        where = f"row {self.cursor[0] + 1}, col {self.cursor[1] + 1}"
        cell = f"; {where}: {percent(here)}" if here is not None else ""
        self._say(f"exact chances: {counted(chances.mines, 'mine')} in {counted(len(chances.cells), 'cell')}{cell}")

    # -- the best player's hint and auto-step -------------------------------------------------------

    def shown_hint(self) -> assist.Hint | None:
        """The hint to draw: when asked for, and computed for the session as it is."""
        if not self.showing_hint or self.session is None or self._hint is None or self.session.over:
            return None
        version, hint = self._hint
        return hint if version == self.session.version else None

    def action_hint(self) -> None:
        """Show the best player's move for what is shown (again: hide it)."""
        if self.session is None or self.session.over:
            return
        self.showing_hint = not (self.showing_hint and self.shown_hint() is not None)
        if self.showing_hint:
            self._ask_hint(self._describe_hint)
        else:
            self._say("hint hidden")
        self.query_one(Board).refresh()

    def action_auto(self) -> None:
        """Play the hint's move: reveal the certain safe cells, else flag the certain mines, else
        reveal the recommended guess."""
        if self.session is not None and not self.session.over:
            self._ask_hint(self._play_hint)

    def _ask_hint(self, then: Callable[[assist.Hint], None]) -> None:
        session = self.session
        assert session is not None
        if self._hint is not None and self._hint[0] == session.version:
            then(self._hint[1])
            return
        version, view = session.version, session.view()
        promised = [cell for cell in session.promised if session.state(cell) == COVERED]

        def done(result: Any) -> None:
            if isinstance(result, Exception):
                self._say(f"hint: {_failure(result, self.time_limit)}")
            elif self.session is session and session.version == version:
                self._hint = (version, result)
                then(result)

        self._run("the best player is thinking", lambda deadline: assist.hint(view, promised, deadline), done, "hint")

    def _describe_hint(self, hint: assist.Hint) -> None:
        session = self.session
        assert session is not None
        # the cursor goes to the move, so that space plays it (the first click first: it opens)
        first = session.deal.first
        covered = [cell for cell in hint.safe if session.state(cell) == COVERED]
        target = hint.guess or (first if first in covered else covered[0] if covered else None)
        if target is not None:
            self.cursor = target
            self._show_cursor()
        self.query_one(Board).refresh()
        if hint.guess is not None:
            r, c = hint.guess
            self._say(
                f"hint: guess row {r + 1}, col {c + 1} ({HINT_GUESS}), safe with chance "
                f"{percent(hint.safety or Fraction(0))}: {hint.reason}"
            )
            return
        unflagged = [cell for cell in hint.mines if session.state(cell) != FLAGGED]
        self._say(
            f"hint: {len(hint.safe)} safe ({HINT_SAFE}), {counted(len(unflagged), 'mine')} to flag ({HINT_MINE}): "
            f"{hint.reason}"
        )

    def _play_hint(self, hint: assist.Hint) -> None:
        session = self.session
        assert session is not None
        safe = [cell for cell in hint.safe if session.state(cell) == COVERED]
        mines = [cell for cell in hint.mines if session.state(cell) == COVERED]
        if safe:
            for cell in safe:
                self.cursor = cell
                self._played(session.reveal(cell, assisted=True))
        elif mines:
            for cell in mines:
                session.toggle_flag(cell)
            self.cursor = mines[-1]
            self._after_change()
            self._say(f"auto: flagged {len(mines)} certain mine{'s' if len(mines) > 1 else ''}")
        elif hint.guess is not None:
            self.cursor = hint.guess
            self._played(session.reveal(hint.guess, assisted=True))
            self._say(f"auto: guessed row {hint.guess[0] + 1}, col {hint.guess[1] + 1}: {hint.reason}")
        else:
            self._say("auto: the safe cells are flagged; unflag them first")
        self._show_cursor()

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
    from cpsolve.errors import TimeLimitError

    if isinstance(error, TimeLimitError):
        return f"the time limit ({limit:g} s) ran out"
    return f"failed: {error}"
