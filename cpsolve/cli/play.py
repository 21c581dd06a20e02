"""``cpsolve play``: the fewest safe cells a player leaves covered, for any player."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from cpsolve.cli.app import app
from cpsolve.cli.options import OutputFormat, Player, PlayerNoTotal, check_seed, parse_cell
from cpsolve.errors import UsageError

if TYPE_CHECKING:
    from cpsolve.casual import CasualBoard
    from cpsolve.formats.casual import CasualInput

__all__ = ["play", "play_boards", "play_best_boards"]


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
        typer.Option("--seed", help="With --player best: breaks its ties (board k uses default_rng(\\[seed, k]))."),
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
    from cpsolve.casual import CasualBoard
    from cpsolve.formats import read_casual_boards
    from cpsolve.formats.best import game_json
    from cpsolve.play.best import play_board

    if click is None:
        raise UsageError("--player best needs --click ROW,COL (the board fixes the mines, so choose the first click)")
    if no_total or explain:
        raise UsageError("--player best always knows the total and has no --explain; drop --no-total and --explain")
    check_seed(seed)
    first = parse_cell(click, "--click")
    for item in read_casual_boards(board_file):
        board = CasualBoard.from_rows(list(item.rows))
        _check_click(board, first, click, item, board_file)
        game = play_board(board, first, seed, item.number, record_moves=moves)
        typer.echo(
            json.dumps(game_json(item.number, game)) if output_format is OutputFormat.json else str(game.covered)
        )
        sys.stdout.flush()
    raise typer.Exit(0)


def _check_click(board: CasualBoard, first: tuple[int, int], click: str, item: CasualInput, board_file: str) -> None:
    """The click must be a safe cell of this board."""
    from cpsolve.errors import InputError

    rows, cols = board.mines.shape
    if not (0 <= first[0] < rows and 0 <= first[1] < cols) or not board.present[first]:
        raise InputError(f"board {item.number}: --click {click} is off the {rows}x{cols} board", board_file, item.line)
    if board.mines[first]:
        raise InputError(f"board {item.number}: --click {click} is a mine", board_file, item.line)


def play_boards(
    board_file: str, player: str, *, no_total: bool, click: str | None, explain: bool, output_format: OutputFormat
) -> None:
    """Play every board of `board_file` and print one answer per board (``play`` and ``casual``)."""
    from cpsolve import answers
    from cpsolve.casual import CasualBoard, draw_state
    from cpsolve.formats import read_casual_boards
    from cpsolve.formats.values import counted

    given = parse_cell(click, "--click") if click is not None else None
    for item in read_casual_boards(board_file):
        # a board that names its first click (generate's 'c') is played from it, unless --click says otherwise
        if given is not None and click is not None:
            _check_click(CasualBoard.from_rows(list(item.rows)), given, click, item, board_file)
        answer = answers.casual(item, player=player, no_total=no_total, click=given)
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
                typer.echo("\n".join(draw_state(board, result.state)))
            typer.echo("")
        else:
            typer.echo(str(result.covered))
        sys.stdout.flush()
    raise typer.Exit(0)
