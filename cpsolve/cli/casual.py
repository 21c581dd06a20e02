"""``cpsolve casual``: the fewest safe cells a casual player leaves covered (ACM Mid-Central 2003 "mines")."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from cpsolve.cli.app import OutputFormat, app

__all__ = ["casual"]


@app.command()
def casual(
    board_file: Annotated[str, typer.Argument(metavar="FILE", help="Boards as 'r c' then r rows of M/*/. ('-' for stdin).")],
    explain: Annotated[bool, typer.Option("--explain", help="Show the best first click and the final state of each board.")] = False,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="text (one integer per board) or json (one object per line).")] = OutputFormat.text,
) -> None:
    """The fewest safe cells a casual player leaves covered (ACM Mid-Central 2003 'mines')."""
    from cpsolve.casual import CasualBoard, draw_state, solve_casual
    from cpsolve.formats import casual_json, read_casual_boards

    for item in read_casual_boards(board_file):
        board = CasualBoard.from_rows(list(item.rows))
        result = solve_casual(board)
        if output_format is OutputFormat.json:
            typer.echo(json.dumps(casual_json(item.number, int(board.present.sum()), result)))
        elif explain:
            where = f"first click at row {result.click[0] + 1}, col {result.click[1] + 1}" if result.click else "no safe cell to click"
            typer.echo(f"Board {item.number}: {result.covered} safe cells left covered; {where} "
                       f"({result.cleared} cleared, {result.flagged} flagged)")
            if result.state is not None:
                typer.echo("\n".join(draw_state(board, result.state)))
            typer.echo("")
        else:
            typer.echo(str(result.covered))
        sys.stdout.flush()
    raise typer.Exit(0)
