"""``cpsolve stats``: 3BV, openings and safe cells of boards; or win rates of random games."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from cpsolve.answers.checks import check_count
from cpsolve.cli.app import app
from cpsolve.cli.options import (
    MAX_GAMES,
    MAX_JOBS,
    FirstClick,
    OutputFormat,
    PlayerNoTotal,
    Start,
    StartRule,
    StatsPlayer,
    check_output_path,
    check_resume,
    parse_cell,
)
from cpsolve.cli.tables import progress_bar
from cpsolve.errors import InputError, UsageError
from cpsolve.interrupt import interrupts_between_solves

if TYPE_CHECKING:
    from cpsolve.generate import GameSettings

__all__ = ["stats", "DEFAULT_GAMES"]

#: Games played by ``--random`` unless ``--games`` says: a win rate to about +-3 points (95%).
DEFAULT_GAMES = 1000


@app.command()
def stats(
    board_file: Annotated[
        str | None,
        typer.Argument(
            metavar="FILE",
            help="Boards: 'r c' then r rows of M * . # (the contest's), or any board cpsolve writes ('-' for stdin).",
        ),
    ] = None,
    random: Annotated[
        tuple[int, int, int] | None,
        typer.Option(
            "--random", metavar="R C M", help="Random boards of R rows, C columns, M mines instead of a file."
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", metavar="N", help="How many random games (with --random).")
    ] = DEFAULT_GAMES,
    player: Annotated[
        StatsPlayer,
        typer.Option(
            "--player",
            help="Who plays the random games (best guesses when stuck); optimal: no games, the exact best win "
            "rate of any strategy, over every board (small boards).",
        ),
    ] = StatsPlayer("perfect"),
    no_total: PlayerNoTotal = False,
    first: FirstClick = None,
    start: StartRule = Start("opening"),
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Random seed; game k uses default_rng([seed, k]).")
    ] = 0,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="text or json.")] = OutputFormat.text,
    jobs: Annotated[
        int, typer.Option(metavar="N", help="With --random: worker processes of a local Dask cluster (1 plays here).")
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS", help="With --random: play on the Dask cluster at this address (tcp://host:port)."
        ),
    ] = None,
    store_path: Annotated[
        str | None,
        typer.Option(
            "--store", metavar="FILE", help="With --random: keep every finished game in this SQLite database."
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="With --store: skip the games the store already holds for the same settings."),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", help="No progress bar (with --jobs, --scheduler or --store).")
    ] = False,
) -> None:
    """Per board of FILE: 3BV, openings and safe cells. With --random: the share of random boards PLAYER wins
    without guessing.

    With --player best: the share it wins, guessing when stuck, with the mean guesses and seconds per game.
    With --player optimal: the best win rate any strategy reaches, exact (a fraction), by the whole game tree.
    """
    from cpsolve.answers import stats as answers  # the engine, imported when the command runs (cpsolve.cli)

    if random is None:
        if board_file is None:
            raise InputError("give a FILE of boards, or --random R C M")
        given = [
            name for name, value in (("--store", store_path), ("--resume", resume), ("--scheduler", scheduler)) if value
        ]
        if given:
            raise UsageError(f"{', '.join(given)} applies to --random only, not to a FILE of boards")
        for board in answers.board_stats(board_file):
            typer.echo(json.dumps(board.json()) if output_format is OutputFormat.json else board.text())
            sys.stdout.flush()
        raise typer.Exit(0)
    if board_file is not None:
        raise InputError("give either a FILE or --random, not both")
    if player.value == "optimal":  # the exact rate over every board, not games played
        if jobs > 1 or scheduler or store_path:
            raise UsageError("--jobs, --scheduler and --store are for games played, not for --player optimal")
        click = parse_cell(first, "--first") if first is not None else None
        exact = answers.exact_rate(*random, start=start.value, first=click, no_total=no_total)
        typer.echo(json.dumps(exact.json()) if output_format is OutputFormat.json else exact.text())
        raise typer.Exit(0)
    check_count(jobs, "jobs", MAX_JOBS)
    check_output_path(store_path, "--store")
    check_resume(resume, store_path)
    check_count(games, "games", MAX_GAMES)
    click = parse_cell(first, "--first") if first is not None else None
    settings = answers.game_settings(
        *random, player=player.value, no_total=no_total, first=click, start=start.value, seed=seed
    )
    if jobs > 1 or scheduler or store_path:
        summary, resumed = _games_as_sweep(settings, games, jobs, scheduler, store_path, resume, quiet)
        answer = answers.RandomStats(summary, resumed)
    else:
        answer = answers.random_stats(settings, games)
    typer.echo(json.dumps(answer.json()) if output_format is OutputFormat.json else answer.text())
    raise typer.Exit(0)


def _games_as_sweep(
    settings: GameSettings,
    games: int,
    jobs: int,
    scheduler: str | None,
    store_path: str | None,
    resume: bool,
    quiet: bool,
) -> tuple[dict, int]:
    """The games as tasks of a sweep (here, on a local Dask cluster or a remote one), kept in the store if asked."""
    from cpsolve.sweep.session import run_game_sweep  # the engine (Dask), imported when the command runs

    # the progress bar's thread is started with Ctrl-C held, as the sweep holds it
    with interrupts_between_solves(), progress_bar(games, quiet) as advance:
        return run_game_sweep(
            settings, games, jobs=jobs, scheduler=scheduler, store_path=store_path, resume=resume, progress=advance
        )
