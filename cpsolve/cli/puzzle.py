"""``cpsolve puzzle``: clue puzzles solved, counted exactly, deduced, and given probabilities."""

from __future__ import annotations

import shutil
import sys
from typing import Annotated

import typer

from cpsolve.answers.checks import check_time_limit, check_total
from cpsolve.cli.app import app
from cpsolve.cli.options import OutputFormat, PuzzleMines, PuzzleNoTotal
from cpsolve.errors import EXIT_OK, EXIT_TIME_LIMIT, UsageError
from cpsolve.formats.values import json_line

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
        bool,
        typer.Option(
            "--probabilities",
            help="Each unknown cell's chance of a mine (a double within about 1e-12 of the exact fraction).",
        ),
    ] = False,
    solution: Annotated[
        bool | None,
        typer.Option(
            "--solution/--no-solution",
            help="Show a solution in the text answer (default: for a clue puzzle, not for a game position).",
            show_default=False,
        ),
    ] = None,
    width: Annotated[
        int | None,
        typer.Option(
            "--width",
            metavar="COLUMNS",
            help="Columns the text answer may use: chances are drawn in percent where they fit, else in tenths "
            "(default: the terminal's width, 80 when the output is not a terminal).",
            show_default=False,
        ),
    ] = None,
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
    """Analyse positions and clue puzzles: what is certain, the chances, a solution or proof of none, the count.

    A file is a game position unless some 0 touches an unknown cell (a game would have opened it):
    then it is a clue puzzle. The text answer for a game position gives what is certain and the
    chances unless --deduce or --probabilities says which, and a solution only with --solution; a
    clue puzzle's gives its solution and what is asked. The JSON answer holds what is asked, the
    solution and the kind. The time limit covers each puzzle's reading, building and solving. Exit 0
    when every puzzle is decided, 1 bad input, 2 --mines with --no-total, 3 a time limit ran out.
    """
    from cpsolve.answers import puzzles  # the engine, imported when the command runs (cpsolve.cli)

    check_total(mines, no_total)
    check_time_limit(time_limit)
    if width is not None and width < 20:
        raise UsageError(f"--width must be at least 20 columns, got {width}")
    text_width = width if width is not None else shutil.get_terminal_size().columns if sys.stdout.isatty() else 80
    # read every file first: bad input fails before any answer is printed; each puzzle's reading
    # counts against its own time limit
    reads = [puzzles.read_puzzle_timed(path, time_limit) for path in files]
    exit_code = EXIT_OK
    for index, read in enumerate(reads):
        answer = puzzles.puzzle(
            read,
            count=count,
            deduce=deduce,
            probabilities=probabilities,
            mines=mines,
            no_total=no_total,
            time_limit=time_limit,
            for_reading=output_format is OutputFormat.text,
        )
        if answer.timed_out:
            exit_code = EXIT_TIME_LIMIT
        if output_format is OutputFormat.json:
            typer.echo(json_line(answer.json()))
        else:
            if index:
                typer.echo("")
            typer.echo("\n".join(answer.text(solution=solution, width=text_width)))
        sys.stdout.flush()
    raise typer.Exit(exit_code)
