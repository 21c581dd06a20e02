"""What the terminal game's lines say about the session and the solver's answers, as plain functions.

Each takes the session (and the answer) it words, so the wording can be read and tested apart
from the screen: why a key did nothing (:func:`why_not`), the hint (:func:`hint_words`), a solver
step that failed (:func:`failure`), the title and the first message.
"""

from __future__ import annotations

from fractions import Fraction

from cpsolve.cell_states import COVERED, FLAGGED
from cpsolve.errors import TimeLimitError
from cpsolve.game.minefield import GUESS_MARK, MINE_MARK, SAFE_MARK, cell_name, percent
from cpsolve.grid import Cell
from cpsolve.play.assist import Hint
from cpsolve.play.session import Deal, Session
from cpsolve.words import counted

__all__ = ["title_words", "dealt_words", "why_not", "hint_words", "failure"]


def title_words(deal: Deal) -> str:
    """The title: the board, how it was dealt, the start rule and the seed (to deal it again)."""
    settings = deal.settings
    kind = f"no-guess for {deal.no_guess}" if deal.no_guess else "uniform"
    return (
        f"cpsolve game · {settings.rows}x{settings.cols}, {counted(settings.mines, 'mine')} · {kind}"
        f" · {settings.start} start · seed {settings.seed}"
    )


def dealt_words(deal: Deal) -> str:
    """The first message: where the board was dealt for a first click, and what the start rule makes safe."""
    safe = "its opening" if deal.settings.start == "opening" else "it"
    return f"the board was dealt for a first click at {cell_name(deal.first)} ({SAFE_MARK}); {safe} is safe"


def why_not(session: Session, cell: Cell, kind: str) -> str:
    """Why a key did nothing on `cell`: the session's rules, in words.

    Args:
        session: The game.
        cell: The cell under the cursor.
        kind: The move refused: ``reveal``, ``chord`` or ``flag``.
    """
    where = cell_name(cell)
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
    around = _around(session, cell)
    flags = sum(1 for other in around if session.state(other) == FLAGGED)
    if not any(session.state(other) == COVERED for other in around):
        return f"nothing is left to open around {where}"
    rule = "a chord needs as many flags as the number"
    return f"{where} shows {number} and has {counted(flags, 'flag')} around it: {rule}"


def _around(session: Session, cell: Cell) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0) and 0 <= r + dr < session.rows and 0 <= c + dc < session.cols
    ]


def hint_words(session: Session, hint: Hint) -> str:
    """The hint on the info line: the guess with its chance and why, or the certain cells' count."""
    if hint.guess is not None:
        return (
            f"hint: guess {cell_name(hint.guess)} ({GUESS_MARK}), safe with chance "
            f"{percent(hint.safety or Fraction(0))}: {hint.reason}"
        )
    unflagged = [cell for cell in hint.mines if session.state(cell) != FLAGGED]
    return (
        f"hint: {len(hint.safe)} safe ({SAFE_MARK}), {counted(len(unflagged), 'mine')} to flag ({MINE_MARK}): "
        f"{hint.reason}"
    )


def failure(error: Exception, limit: float) -> str:
    """What a failed solver step says: the time limit, or the error itself."""
    if isinstance(error, TimeLimitError):
        return f"the time limit ({limit:g} s) ran out"
    return f"failed: {error}"
