"""The terminal game's result: the dialog at a game's end, its text, and the answer to "was that a guess?".

The dialog is placed so that the lines under the board (the status, the verdict on the last move,
the info line) stay readable while it is up: over the board when it fits there, else in the free
space below the lines, else at the top.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import Static

from cpsolve.game.minefield import percent
from cpsolve.play.session import Move, Summary

__all__ = ["EndScreen", "describe_safety", "end_text"]


def describe_safety(move: Move, exact: bool = True) -> str:
    """The answer to "was that a guess?" for a judged move (`exact`: the chance's fraction too, when short).

    A move certain from what was shown is no guess, whichever way it was certain: safe (chance 1),
    or a mine (chance 0: the numbers shown said so), as the result's count of guesses has it
    (:meth:`cpsolve.play.session.Session.summary`).
    """
    if move.safety is None:
        return "was that a guess? not judged yet"
    chord = move.kind == "chord"
    if move.safety == 1:
        return "was that a guess? no: certain from what was shown"
    if move.safety == 0:
        mine = "the chord opened a mine for certain" if chord else "it was a mine for certain"
        return f"was that a guess? no: {mine} from what was shown"
    what = "the chord's cells were" if chord else "it was"
    outcome = "and it lost" if move.exploded else "and it held"
    return f"was that a guess? yes: {what} safe with chance {percent(Fraction(move.safety), exact)}, {outcome}"


def end_text(summary: Summary, needed: bool | None) -> Text:
    """The end screen's text: the outcome, then a row a counter, then the keys.

    Args:
        summary: The session's counters (:meth:`cpsolve.play.session.Session.summary`).
        needed: Whether the board needed a guess (None: not known yet).
    """
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
    # no blank line before the keys: a line less lets the dialog sit over a beginner board (the
    # title and ten lines) and leave the lines under it in sight
    text.append("\nr again  n new board  u undo  esc look at the board  q quit", style="italic")
    return text


class EndScreen(ModalScreen[None]):
    """The result, placed to leave the lines under the board readable: escape (or enter) closes it.

    Args:
        text: The result (:func:`end_text`).
        keep: Where the lines to keep in sight are, on the screen (the game's status line down to
            its last line above the keys).
    """

    # a modal screen hides the app's bindings: the ones that make sense after a game, again
    BINDINGS = [
        Binding("escape,enter", "close", "look at the board"),
        Binding("u", "app.undo", "undo"),
        Binding("r", "app.restart", "again"),
        Binding("n", "app.new", "new board"),
        Binding("q", "app.quit", "quit"),
    ]
    DEFAULT_CSS = """
    EndScreen { align: center top; background: $background 30%; }
    EndScreen > Static { width: auto; max-width: 76; height: auto; padding: 0 2;
                         border: heavy $accent; background: $surface; color: $text; }
    """

    def __init__(self, text: Text, keep: Callable[[], Region]) -> None:
        super().__init__()
        self.text = text
        self.keep = keep

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="result")

    def on_mount(self) -> None:
        self._place()

    def on_resize(self, event: events.Resize) -> None:
        # the game's lines move with the size: placed again once they have
        self.call_after_refresh(self._place)

    def update(self, text: Text) -> None:
        """Show `text` instead (a verdict or the board's "needed a guess" came in)."""
        self.text = text
        self.query_one("#result", Static).update(text)
        self._place()

    def _place(self) -> None:
        """Over the board above the kept lines when the dialog fits there, else below them, else at the top."""
        keep = self.keep()
        height = len(self.text.plain.split("\n")) + 2  # and its frame
        below = self.size.height - 1 - keep.bottom  # the screen's last line holds the keys
        if height <= keep.y:
            top = (keep.y - height) // 2
        elif height <= below:
            top = keep.bottom + (below - height) // 2
        else:
            top = 0
        self.query_one("#result", Static).styles.margin = (top, 0, 0, 0)

    def action_close(self) -> None:
        self.dismiss(None)
