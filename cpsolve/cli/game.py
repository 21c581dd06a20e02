"""``cpsolve game``: play Minesweeper in the terminal, with the solver at your side."""

from __future__ import annotations

import secrets
import sys
from typing import Annotated

import typer

from cpsolve.answers.checks import check_seed, check_time_limit
from cpsolve.cli.app import app
from cpsolve.cli.options import Level, NoGuessPlayer, Start, StartRule
from cpsolve.errors import UsageError
from cpsolve.play import LEVELS

__all__ = ["game"]


@app.command()
def game(
    rows: Annotated[
        int | None, typer.Argument(metavar="R", help="Rows (R C M, or --level).", show_default=False)
    ] = None,
    cols: Annotated[int | None, typer.Argument(metavar="C", help="Columns.", show_default=False)] = None,
    mines: Annotated[int | None, typer.Argument(metavar="M", help="Mines.", show_default=False)] = None,
    level: Annotated[
        Level | None,
        typer.Option(
            "--level", help="beginner 9x9/10, intermediate 16x16/40, expert 16x30/99 (the default: beginner)."
        ),
    ] = None,
    no_guess: Annotated[
        NoGuessPlayer | None,
        typer.Option(
            "--no-guess",
            metavar="PLAYER",
            help="Deal boards this player (casual, subset, perfect) wins from the first click without a guess.",
        ),
    ] = None,
    start: StartRule = Start("opening"),
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", help="Seed of the first board (the next boards: seed+1, ...); default random."
        ),
    ] = None,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            metavar="S",
            help="Seconds each solver step (dealing, chances, hint, judging a move) may take.",
        ),
    ] = 10.0,
    auto_guess: Annotated[
        bool,
        typer.Option(
            "--auto-guess",
            help="Let a (auto) take the best player's guess when nothing is certain; without it, a stops at a "
            "guess, shows it with its risk, and takes it when pressed again.",
        ),
    ] = False,
) -> None:
    """Play Minesweeper in the terminal, with the solver's hint, mine chances and verdicts at your side.

    Mouse: left reveals (on a number: chords), right flags.
    Keys: arrows move, space reveals, f flags, d chords, ? hint, a plays it (stopping at a guess),
    p mine chances, u undoes the last reveal, r the same board again, n a new board, q quits.
    Every board is dealt for a first click at its centre, marked 'S' (safe).
    """
    from cpsolve.play.session import Dealer  # the engine, imported when the command runs (cpsolve.cli)

    given = [value for value in (rows, cols, mines) if value is not None]
    if given and level is not None:
        raise UsageError("give R C M or --level, not both")
    if given and len(given) != 3:
        raise UsageError("give all three of R C M (rows, columns, mines)")
    shape = (given[0], given[1], given[2]) if given else LEVELS[level.value if level is not None else "beginner"]
    check_time_limit(time_limit)
    if seed is None:
        seed = secrets.randbelow(2**31)
    check_seed(seed)
    dealer = Dealer(*shape, start=start.value, no_guess=no_guess.value if no_guess else None, seed=seed)
    # Textual reads the keys from stdin and draws on stderr
    if not (sys.stdin.isatty() and sys.__stderr__ is not None and sys.__stderr__.isatty()):
        raise UsageError("cpsolve game needs a terminal (its input or its screen, stderr, is not one)")
    from cpsolve.game.app import GameApp  # Textual: heavy, and this command's alone

    GameApp(dealer, time_limit, auto_guess=auto_guess).run()
    raise typer.Exit(0)
