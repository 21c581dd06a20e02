"""Playing the boards of a file and printing an answer per board: shared by ``play`` and ``casual``.

A command module never imports another, so what both commands run lives here. A board large
enough to take a while (:data:`SHOWN_FROM_CELLS` cells) shows a spinner with the time it has taken
on a terminal's stderr while it is played, as ``compare`` shows its progress bar.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from cpsolve.cli.options import OutputFormat, parse_cell
from cpsolve.errors import UsageError
from cpsolve.formats.casual import read_casual_boards
from cpsolve.words import counted

if TYPE_CHECKING:
    from cpsolve.formats.casual import CasualInput

__all__ = ["play_boards", "play_best_boards", "SHOWN_FROM_CELLS"]

#: Boards of at least this many cells show that they are being played (a 100x100 board takes
#: about a second for the stronger players; smaller ones finish before a spinner would be seen).
SHOWN_FROM_CELLS = 10_000


@contextmanager
def _playing(item: CasualInput, player: str) -> Iterator[None]:
    """A spinner naming the board and the player, with the time so far, while a large board is played."""
    rows, cols = len(item.rows), len(item.rows[0]) if item.rows else 0
    if rows * cols < SHOWN_FROM_CELLS or not sys.stderr.isatty():
        yield
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    label = f"board {item.number} ({rows}x{cols}): the {player} player is playing"
    columns = (SpinnerColumn(), TextColumn(label), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        bar.add_task(label, total=None)
        yield


def play_best_boards(
    board_file: str,
    click: str | None,
    seed: int,
    moves: bool,
    output_format: OutputFormat,
    no_total: bool,
    explain: bool,
) -> None:
    """``play --player best``: one game per board from the click, one answer per board."""
    from cpsolve.answers import best_play  # the engine, imported when the command runs (cpsolve.cli)
    from cpsolve.answers.checks import check_seed

    if click is None:
        raise UsageError("--player best needs --click ROW,COL (the board fixes the mines, so choose the first click)")
    if no_total or explain:
        raise UsageError("--player best always knows the total and has no --explain; drop --no-total and --explain")
    check_seed(seed)
    first = parse_cell(click, "--click")
    for item in read_casual_boards(board_file):
        with _playing(item, "best"):
            answer = best_play.best_game(item, first, seed=seed, moves=moves, source=board_file)
        typer.echo(json.dumps(answer.json()) if output_format is OutputFormat.json else str(answer.game.covered))
        sys.stdout.flush()
    raise typer.Exit(0)


def play_boards(
    board_file: str, player: str, *, no_total: bool, click: str | None, explain: bool, output_format: OutputFormat
) -> None:
    """Play every board of `board_file` and print one answer per board (``play`` and ``casual``)."""
    from cpsolve.answers import players  # the engine, imported when the command runs (cpsolve.cli)

    given = parse_cell(click, "--click") if click is not None else None
    explained = False
    for item in read_casual_boards(board_file):
        # a board that names its first click (generate's 'c') is played from it, unless --click says otherwise
        if given is not None:
            players.check_click(players.Board.from_rows(list(item.rows), mine_chars="M*"), given, item, board_file)
        with _playing(item, player):
            answer = players.casual(item, player=player, no_total=no_total, click=given)
        board, result = answer.board, answer.result
        if output_format is OutputFormat.json:
            typer.echo(json.dumps(answer.json()))
        elif explain:
            where = (
                f"first click at row {result.click[0] + 1}, col {result.click[1] + 1}"
                if result.click
                else "no safe cell to click"
            )
            typer.echo(
                f"Board {item.number}: {counted(result.covered, 'safe cell')} left covered; {where} "
                f"({result.cleared} cleared, {result.flagged} flagged)"
            )
            if result.state is not None:
                typer.echo("\n".join(players.draw_state(board, result.state)))
                explained = True
            typer.echo("")
        else:
            typer.echo(str(result.covered))
        sys.stdout.flush()
    if explained:  # the drawings' characters, once, after them
        typer.echo(f"legend: {players.STATE_LEGEND}")
    raise typer.Exit(0)
