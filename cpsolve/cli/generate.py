"""``cpsolve generate``: boards a chosen player wins without guessing from the first click."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from cpsolve.answers.checks import check_count, check_seed, check_time_limit
from cpsolve.cli.app import app
from cpsolve.cli.options import (
    MAX_BOARDS,
    FirstClick,
    NoGuessPlayer,
    OutputFormat,
    PlayerNoTotal,
    Start,
    StartRule,
    parse_cell,
)

__all__ = ["generate"]


@app.command()
def generate(
    rows: Annotated[int, typer.Argument(metavar="R", help="Rows.")],
    cols: Annotated[int, typer.Argument(metavar="C", help="Columns.")],
    mines: Annotated[int, typer.Argument(metavar="M", help="Mines.")],
    player: Annotated[NoGuessPlayer, typer.Option("--player", help="Who must win without a guess.")] = NoGuessPlayer(
        "perfect"
    ),
    no_total: PlayerNoTotal = False,
    first: FirstClick = None,
    start: StartRule = Start("opening"),
    count: Annotated[int, typer.Option("--count", metavar="N", help="How many boards.")] = 1,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Random seed (same seed, same boards).")] = 0,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text (boards, blank line between) or json (one object per line).")
    ] = OutputFormat.text,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit", metavar="S", help="Seconds to find each board; past it, exit 3 after the boards found."
        ),
    ] = 60.0,
) -> None:
    """Boards on which PLAYER, starting at the first click, clears every safe cell without a guess.

    Uniform over such boards: boards are drawn uniformly under the start condition and kept
    when the player wins them. Every board printed was played through by the player again.
    Exit 1 when no board of the size can qualify (small sizes are tried whole first), 3 when a
    board is not found within the time limit (the boards found before it are printed).
    """
    from cpsolve.answers import generated  # the engine, imported when the command runs (cpsolve.cli)

    check_count(count, "count", MAX_BOARDS)
    check_seed(seed)
    check_time_limit(time_limit)
    click = parse_cell(first, "--first") if first is not None else None
    boards = generated.generate(
        rows,
        cols,
        mines,
        player=player.value,
        no_total=no_total,
        first=click,
        start=start.value,
        count=count,
        seed=seed,
        time_limit=time_limit,
    )
    for number, board in enumerate(boards):
        if output_format is OutputFormat.json:
            typer.echo(json.dumps(board.json()))
        else:
            if number:
                typer.echo("")
            typer.echo(board.text())
        sys.stdout.flush()
    raise typer.Exit(0)
