"""``cpsolve casual``: the fewest safe cells a casual player leaves covered (ACM Mid-Central 2003 "mines").

The contest's own command, kept as it was: it is ``cpsolve play --player casual`` and runs the
same code.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cpsolve.cli.app import app
from cpsolve.cli.boards import play_boards
from cpsolve.cli.options import OutputFormat

__all__ = ["casual"]


@app.command()
def casual(
    board_file: Annotated[
        str, typer.Argument(metavar="FILE", help="Boards as 'r c' then r rows of M/*/. ('-' for stdin).")
    ],
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the best first click and the final state of each board.")
    ] = False,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text (one integer per board) or json (one object per line).")
    ] = OutputFormat.text,
) -> None:
    """The fewest safe cells a casual player leaves covered (ACM Mid-Central 2003 'mines')."""
    play_boards(board_file, "casual", no_total=False, click=None, explain=explain, output_format=output_format)
