"""The terminal game's result: the dialog at a game's end, its text, and the answer to "was that a guess?"."""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from cpsolve.game.minefield import percent
from cpsolve.play.session import Move, Summary

__all__ = ["EndScreen", "describe_safety", "end_text"]


def describe_safety(move: Move) -> str:
    """The answer to "was that a guess?" for a judged move.

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
    return f"was that a guess? yes: {what} safe with chance {percent(Fraction(move.safety))}, {outcome}"


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
    text.append("\n\nr again  n new board  u undo  esc look at the board  q quit", style="italic")
    return text


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
        """Show `text` instead (a verdict or the board's "needed a guess" came in)."""
        self.text = text
        self.query_one("#result", Static).update(text)

    def action_close(self) -> None:
        self.dismiss(None)
