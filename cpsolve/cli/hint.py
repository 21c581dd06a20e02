"""``cpsolve hint``: what the best player would do now in a position, and why."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from cpsolve.answers.checks import check_seed, check_time_limit, check_total
from cpsolve.cli.app import app
from cpsolve.cli.options import OutputFormat, PuzzleMines, PuzzleNoTotal
from cpsolve.errors import EXIT_OK, EXIT_TIME_LIMIT
from cpsolve.formats.values import json_line

__all__ = ["hint"]


@app.command()
def hint(
    files: Annotated[
        list[str],
        typer.Argument(metavar="FILE...", help="Positions in the puzzle format, one per file ('-' for stdin)."),
    ],
    mines: PuzzleMines = None,
    no_total: PuzzleNoTotal = False,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Breaks exact ties between equally good guesses.")
    ] = 0,
    deep: Annotated[
        bool,
        typer.Option(
            "--deep",
            help="Play the closest candidates out on a few hundred boards drawn from the position and take the "
            "one that wins most (seconds; the boards played so far when the time limit comes).",
        ),
    ] = False,
    output_format: Annotated[
        OutputFormat,
        typer.Option("--format", help="text (the board with the advice marked) or json (one object per file)."),
    ] = OutputFormat.text,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            metavar="S",
            help="Seconds per position; past it the answer is the best found so far, exit 3.",
        ),
    ] = 60.0,
) -> None:
    """The certain safe cells and mines of a position; with none safe, the best guess, its exact safety and why.

    A position no placement fits gets a minimal set of clues that cannot all hold.

    Exit 0 when every position was answered (a contradiction too), 1 unreadable input, 2 --mines with --no-total,
    3 out of time.
    """
    from cpsolve.answers import hints  # the engine, imported when the command runs (cpsolve.cli)

    check_total(mines, no_total)
    check_seed(seed)
    check_time_limit(time_limit)
    positions = [hints.read_puzzle(path) for path in files]  # bad input fails before any answer
    exit_code = EXIT_OK
    for index, item in enumerate(positions):
        answer = hints.hint(item, mines=mines, no_total=no_total, seed=seed, time_limit=time_limit, deep=deep)
        if answer.timed_out:
            exit_code = EXIT_TIME_LIMIT
        if output_format is OutputFormat.json:
            typer.echo(json_line(answer.json()))  # a count may have any number of digits
        else:
            if index:
                typer.echo("")
            typer.echo("\n".join(answer.text()))
        sys.stdout.flush()
    raise typer.Exit(exit_code)
