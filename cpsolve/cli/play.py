"""``cpsolve play``: the fewest safe cells a player leaves covered, for any player."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Optional

import typer

from cpsolve.cli.app import app
from cpsolve.cli.options import OutputFormat, Player, parse_cell

__all__ = ["play", "play_boards"]


@app.command()
def play(
    board_file: Annotated[str, typer.Argument(
        metavar="FILE", help="Boards: 'r c' then r rows of M * . # (the contest's), or any board cpsolve writes ('-' for stdin).")],
    player: Annotated[Player, typer.Option("--player", help="Who plays: casual, subset or perfect.")] = Player("casual"),
    no_total: Annotated[bool, typer.Option("--no-total", help="The perfect player does not know the mine count.")] = False,
    click: Annotated[Optional[str], typer.Option(
        "--click", metavar="ROW,COL", help="Play from this first click (1-based) instead of the best (or the board's c).")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Show the first click and the final state of each board.")] = False,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="text (one integer per board) or json (one object per line).")] = OutputFormat.text,
) -> None:
    """The fewest safe cells a player leaves covered, over every safe first click, or from the board's c or --click."""
    play_boards(board_file, player.value, no_total=no_total, click=click, explain=explain, output_format=output_format)


def play_boards(board_file: str, player: str, *, no_total: bool, click: str | None, explain: bool,
                output_format: OutputFormat) -> None:
    """Play every board of `board_file` and print one answer per board (``play`` and ``casual``)."""
    from cpsolve.casual import CasualBoard, draw_state
    from cpsolve.errors import InputError
    from cpsolve.formats import casual_json, read_casual_boards
    from cpsolve.formats.values import counted
    from cpsolve.play import best_first_click

    given = parse_cell(click, "--click") if click is not None else None
    for item in read_casual_boards(board_file):
        board = CasualBoard.from_rows(list(item.rows))
        # a board that names its first click (generate's 'c') is played from it, unless --click says otherwise
        first = given if given is not None else item.click
        if given is not None:
            rows, cols = board.mines.shape
            if not (0 <= first[0] < rows and 0 <= first[1] < cols) or not board.present[first]:
                raise InputError(f"board {item.number}: --click {click} is off the {rows}x{cols} board", board_file, item.line)
            if board.mines[first]:
                raise InputError(f"board {item.number}: --click {click} is a mine", board_file, item.line)
        result = best_first_click(board, player, not no_total, first)
        if output_format is OutputFormat.json:
            typer.echo(json.dumps(casual_json(item.number, int(board.present.sum()), result)))
        elif explain:
            where = f"first click at row {result.click[0] + 1}, col {result.click[1] + 1}" if result.click else "no safe cell to click"
            typer.echo(f"Board {item.number}: {counted(result.covered, 'safe cell')} left covered; {where} "
                       f"({result.cleared} cleared, {result.flagged} flagged)")
            if result.state is not None:
                typer.echo("\n".join(draw_state(board, result.state)))
            typer.echo("")
        else:
            typer.echo(str(result.covered))
        sys.stdout.flush()
    raise typer.Exit(0)
