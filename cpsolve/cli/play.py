"""``cpsolve play``: the fewest safe cells a player leaves covered, for any player."""

from __future__ import annotations

from typing import Annotated

import typer

from cpsolve.cli.app import app
from cpsolve.cli.boards import play_best_boards, play_boards
from cpsolve.cli.options import OutputFormat, Player, PlayerNoTotal
from cpsolve.errors import UsageError

__all__ = ["play"]


@app.command()
def play(
    board_file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="Boards: 'r c' then r rows of M * . # (the contest's), or any board cpsolve writes ('-' for stdin).",
        ),
    ],
    player: Annotated[
        Player,
        typer.Option(
            "--player", help="Who plays: casual, subset, perfect, or best (guesses when stuck; needs --click)."
        ),
    ] = Player("casual"),
    no_total: PlayerNoTotal = False,
    click: Annotated[
        str | None,
        typer.Option(
            "--click",
            metavar="ROW,COL",
            help="Play from this first click (1-based) instead of the best (or the board's c).",
        ),
    ] = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the first click and the final state of each board.")
    ] = False,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text (one integer per board) or json (one object per line).")
    ] = OutputFormat.text,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", help="With --player best: breaks its ties (board k uses default_rng([seed, k]))."
        ),
    ] = None,
    moves: Annotated[
        bool, typer.Option("--moves", help="With --player best and --format json: every reveal, in order.")
    ] = False,
) -> None:
    """The fewest safe cells a player leaves covered, over every safe first click, or from the board's c or --click.

    With --player best: a whole game per board from --click, guessing when stuck; the safe cells left covered (0 won).
    """
    if player.value == "best":
        play_best_boards(board_file, click, 0 if seed is None else seed, moves, output_format, no_total, explain)
        return
    if seed is not None or moves:
        raise UsageError("--seed and --moves are for --player best")
    play_boards(board_file, player.value, no_total=no_total, click=click, explain=explain, output_format=output_format)
