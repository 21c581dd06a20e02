"""``cpsolve puzzle``: clue puzzles solved, counted exactly, deduced, and given probabilities."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from cpsolve.cli.app import app
from cpsolve.cli.options import (
    OutputFormat,
    PuzzleMines,
    PuzzleNoTotal,
    check_time_limit,
    check_total_override,
)
from cpsolve.errors import EXIT_OK, EXIT_TIME_LIMIT

__all__ = ["puzzle"]


@app.command()
def puzzle(
    files: Annotated[
        list[str], typer.Argument(metavar="FILE...", help="Puzzle files, one puzzle each ('-' for stdin).")
    ],
    count: Annotated[bool, typer.Option("--count", help="The exact number of solutions.")] = False,
    deduce: Annotated[
        bool, typer.Option("--deduce", help="What is certain: the unknown cells safe, or mines, in every solution.")
    ] = False,
    probabilities: Annotated[
        bool, typer.Option("--probabilities", help="Each unknown cell's exact chance of a mine.")
    ] = False,
    mines: PuzzleMines = None,
    no_total: PuzzleNoTotal = False,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text (drawn) or json (one object per file, per line).")
    ] = OutputFormat.text,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            metavar="S",
            help="Seconds per puzzle, reading included; past it the puzzle is 'unknown' and the exit code 3.",
        ),
    ] = 60.0,
) -> None:
    """Solve clue puzzles: a solution or proof of none, and on request the count, what is certain and the chances.

    The time limit covers each puzzle's reading, building and solving. Exit 0 when every puzzle is
    decided, 1 bad input, 2 --mines with --no-total, 3 a time limit ran out.
    """
    from cpsolve import answers
    from cpsolve.formats.values import json_line

    check_total_override(mines, no_total)
    check_time_limit(time_limit)
    # read every file first: bad input fails before any answer is printed; each puzzle's reading
    # counts against its own time limit
    reads = [answers.read_puzzle_timed(path, time_limit) for path in files]
    exit_code = EXIT_OK
    for index, read in enumerate(reads):
        answer = answers.puzzle(
            read,
            count=count,
            deduce=deduce,
            probabilities=probabilities,
            mines=mines,
            no_total=no_total,
            time_limit=time_limit,
        )
        if answer.timed_out:
            exit_code = EXIT_TIME_LIMIT
        if output_format is OutputFormat.json:
            typer.echo(json_line(answer.json()))
        else:
            if index:
                typer.echo("")
            typer.echo("\n".join(answer.text()))
        sys.stdout.flush()
    raise typer.Exit(exit_code)
