"""``cpsolve puzzle``: clue puzzles solved, counted exactly, deduced, and given probabilities."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from typing import Annotated, Optional

import typer

from cpsolve.cli.app import app
from cpsolve.cli.options import OutputFormat, check_time_limit
from cpsolve.errors import EXIT_OK, EXIT_TIME_LIMIT, InputError, UsageError

__all__ = ["puzzle"]


@app.command()
def puzzle(
    files: Annotated[list[str], typer.Argument(metavar="FILE...", help="Puzzle files, one puzzle each ('-' for stdin).")],
    count: Annotated[bool, typer.Option("--count", help="The exact number of solutions.")] = False,
    deduce: Annotated[bool, typer.Option("--deduce", help="The unknown cells that are mines, or safe, in every solution.")] = False,
    probabilities: Annotated[bool, typer.Option("--probabilities", help="Each unknown cell's exact probability of a mine.")] = False,
    mines: Annotated[Optional[int], typer.Option("--mines", metavar="M", help="The total number of mines (overrides the header's).")] = None,
    no_total: Annotated[bool, typer.Option("--no-total", help="Ignore the header's total number of mines.")] = False,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="text (drawn) or json (one object per file, per line).")] = OutputFormat.text,
    time_limit: Annotated[float, typer.Option("--time-limit", metavar="S", help="Seconds per puzzle; past it the puzzle is 'unknown' and the exit code 3.")] = 60.0,
) -> None:
    """Solve clue puzzles: a solution or proof of none, and on request the count, backbone and probabilities.

    Exit 0 when every puzzle is decided, 1 bad input, 2 --mines with --no-total, 3 a time limit ran out.
    """
    from cpsolve.deduce import analyse
    from cpsolve.formats.puzzle import puzzle_json, puzzle_text, read_puzzle
    from cpsolve.outcome import Status

    if mines is not None and no_total:
        raise UsageError("--mines and --no-total cannot be used together")
    if mines is not None and mines < 0:
        raise InputError(f"--mines must be 0 or more, got {mines}")
    check_time_limit(time_limit)
    # read every file first: bad input fails before any answer is printed
    puzzles = [read_puzzle(path) for path in files]
    exit_code = EXIT_OK
    for index, item in enumerate(puzzles):
        position = item.position
        if mines is not None or no_total:
            position = dataclasses.replace(position, total=mines)
        deadline = time.perf_counter() + time_limit
        analysis = analyse(position, count=count, backbone=deduce, probabilities=probabilities, deadline=deadline)
        if analysis.status is Status.UNKNOWN:
            exit_code = EXIT_TIME_LIMIT
        if output_format is OutputFormat.json:
            answer = puzzle_json(item, position, analysis, count=count, deduce=deduce, probabilities=probabilities)
            typer.echo(json.dumps(answer))
        else:
            if index:
                typer.echo("")
            typer.echo("\n".join(puzzle_text(item, position, analysis)))
        sys.stdout.flush()
    raise typer.Exit(exit_code)
