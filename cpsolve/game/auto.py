"""What the ``a`` key does: the best player's move played on the session, one step a press.

The certain safe cells are revealed; when there is none, the certain mines are flagged; when
nothing is certain, the hint's guess is taken only when asked to (the ``--auto-guess`` setting,
or a second ``a`` on the guess shown), else the step stops at it and says what it risks.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from cpsolve.cell_states import COVERED
from cpsolve.game.minefield import GUESS_MARK, cell_name, percent
from cpsolve.grid import Cell
from cpsolve.play.assist import Hint
from cpsolve.play.session import Move, Session
from cpsolve.words import counted

__all__ = ["AutoStep", "auto_step"]


@dataclass(frozen=True)
class AutoStep:
    """What one press of ``a`` did.

    Attributes:
        message: What the info line says about it.
        moves: The reveals played (each to be judged).
        flagged: Whether it flagged mines (the board changed without a move).
        cursor: Where the cursor goes: the last cell played, or the guess it stopped at.
        stopped: Whether it stopped at a guess, to show the guess and leave it untaken.
    """

    message: str
    moves: tuple[Move, ...] = ()
    flagged: bool = False
    cursor: Cell | None = None
    stopped: bool = False


def auto_step(session: Session, hint: Hint, take_guess: bool) -> AutoStep:
    """Play `hint` on `session`: the certain safe cells, else the certain mines' flags, else the guess.

    Args:
        session: The game (changed in place).
        hint: The best player's move for the game as it is (:func:`cpsolve.play.assist.hint`).
        take_guess: Whether a guess is taken; if not, the step stops at it.
    """
    safe = [cell for cell in hint.safe if session.state(cell) == COVERED]
    mines = [cell for cell in hint.mines if session.state(cell) == COVERED]
    if safe:
        moves = tuple(move for move in (session.reveal(cell, assisted=True) for cell in safe) if move is not None)
        return AutoStep(f"auto: opened {counted(len(safe), 'cell')} certain to be safe", moves, cursor=safe[-1])
    if mines:
        for cell in mines:
            session.toggle_flag(cell)
        return AutoStep(f"auto: flagged {counted(len(mines), 'certain mine')}", flagged=True, cursor=mines[-1])
    if hint.guess is None:
        return AutoStep("auto: the safe cells are flagged; take their flags off first")
    safety = hint.safety or Fraction(0)
    risk = f"safe with chance {percent(safety)}, a mine with chance {percent(1 - safety)}"
    where = cell_name(hint.guess)
    if not take_guess:
        message = f"auto stops at a guess: {where} ({GUESS_MARK}) is {risk}; a again takes it"
        return AutoStep(message, cursor=hint.guess, stopped=True)
    move = session.reveal(hint.guess, assisted=True)
    assert move is not None  # the hint's guess is a covered cell of the game as it is
    outcome = "it was a mine" if move.exploded else "it held"
    return AutoStep(f"auto: guessed {where}, {risk}: {outcome}", (move,), cursor=hint.guess)
