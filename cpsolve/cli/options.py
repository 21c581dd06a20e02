"""The choices and checks the commands share: one definition each, derived from the library's own lists.

A choice the library defines (the backends, the players, the start conditions, the encodings) is
turned into a typer choice here, from the library's list, so ``--help`` and the library never
disagree. Every bound on an option is checked before any work starts.
"""

from __future__ import annotations

import dataclasses
import math
import os
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from cpsolve.errors import InputError, UsageError
from cpsolve.game import LEVELS
from cpsolve.layout import BACKENDS, PHASES, ModelKind
from cpsolve.play import PLAYERS, START_CONDITIONS

if TYPE_CHECKING:
    from cpsolve.deduce import Position

__all__ = [
    "PlayerNoTotal",
    "PuzzleNoTotal",
    "PuzzleMines",
    "FirstClick",
    "StartRule",
    "OutputFormat",
    "Backend",
    "Player",
    "Start",
    "PhasesOption",
    "ModelOption",
    "Level",
    "MAX_WORKERS",
    "MAX_JOBS",
    "MAX_SEED",
    "MAX_GAMES",
    "MAX_BOARDS",
    "check_time_limit",
    "check_count",
    "check_seed",
    "check_output_path",
    "check_resume",
    "check_total_override",
    "with_total_override",
    "parse_cell",
]

#: Upper bounds for thread and process counts: far above any machine cpsolve runs on, low enough
#: that a typo (100000) is caught before the solver tries to start that many threads.
MAX_WORKERS = 256
MAX_JOBS = 1024
#: CP-SAT's random seed is a 32-bit signed integer.
MAX_SEED = 2**31 - 1
#: More games, or boards, than anyone runs; catches a typo before a run that never ends.
MAX_GAMES = 100_000_000
MAX_BOARDS = 10_000_000


class OutputFormat(str, Enum):
    """How answers are printed."""

    text = "text"
    json = "json"


def _choice(name: str, values: tuple[str, ...]) -> type[Enum]:
    """A str Enum whose members are `values`, so typer lists them in ``--help``."""
    # mypy reads Enum(...) as a member lookup, not the functional API that makes a class
    return Enum(name, {value: value for value in values}, type=str)  # type: ignore[return-value]


if TYPE_CHECKING:
    # mypy cannot follow Enums built from a list; it sees str Enums, and commands name a default
    # by value (``Player("perfect")``), which works for both.
    class Backend(str, Enum): ...

    class Player(str, Enum): ...

    class Start(str, Enum): ...

    class Level(str, Enum): ...

else:
    #: The layout backends, from the registry (:data:`cpsolve.layout.BACKENDS`).
    Backend = _choice("Backend", tuple(BACKENDS))
    #: The players, weakest first (:data:`cpsolve.play.PLAYERS`).
    Player = _choice("Player", PLAYERS)
    #: How the first click is protected (:data:`cpsolve.play.START_CONDITIONS`).
    Start = _choice("Start", START_CONDITIONS)
    #: The game's classic levels (:data:`cpsolve.game.LEVELS`).
    Level = _choice("Level", tuple(LEVELS))


#: Options several commands share, each stated once.
PlayerNoTotal = Annotated[bool, typer.Option("--no-total", help="The perfect player does not know the mine count.")]
PuzzleNoTotal = Annotated[bool, typer.Option("--no-total", help="Ignore the header's total number of mines.")]
PuzzleMines = Annotated[
    int | None, typer.Option("--mines", metavar="M", help="The total number of mines (overrides the header's).")
]
FirstClick = Annotated[
    str | None, typer.Option("--first", metavar="ROW,COL", help="The first click, 1-based (default the centre).")
]
StartRule = Annotated[
    Start, typer.Option("--start", help="opening: no mine in the first click's 3x3; safe: only the click.")
]
#: The cp backend's phases (:func:`cpsolve.layout.parse_phases` reads the words).
PhasesOption = Annotated[
    str,
    typer.Option(
        "--phases",
        metavar="LIST",
        help=f"CP backend: the phases before the model, from {', '.join(PHASES)} (the model always runs last); "
        "all, or none: the model alone.",
    ),
]
#: Which CP-SAT model the cp backend builds (:class:`cpsolve.layout.ModelKind`).
ModelOption = Annotated[
    ModelKind,
    typer.Option(
        "--model", help="CP-SAT model: strong (the statement and its implied constraints) or textbook (the statement)."
    ),
]


def check_time_limit(seconds: float) -> float:
    """A time limit must be a positive, finite number of seconds."""
    if not math.isfinite(seconds) or seconds <= 0:
        raise InputError(f"--time-limit must be a positive number of seconds, got {seconds}")
    return seconds


def check_count(value: int | None, option: str, upper: int) -> int | None:
    """A count option (``--workers``, ``--jobs``) must lie in 1..upper; None is left for the default."""
    if value is not None and not 1 <= value <= upper:
        raise InputError(f"{option} must be from 1 to {upper}, got {value}")
    return value


def check_seed(seed: int) -> int:
    """A seed must fit the solvers' 32-bit signed range."""
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"--seed must be from 0 to {MAX_SEED}, got {seed}")
    return seed


def check_output_path(path: str | None, option: str) -> None:
    """Fail before any work when an output file cannot be created where it is asked for."""
    if path is None:
        return
    from pathlib import Path

    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise InputError(f"{option} {path}: is a directory")
    if not folder.is_dir():
        raise InputError(f"{option} {path}: no such directory {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise InputError(f"{option} {path}: not writable")


def check_resume(resume: bool, store_path: str | None) -> None:
    """``--resume`` reads the cases a store already holds, so it needs ``--store``."""
    if resume and not store_path:
        raise InputError("--resume needs --store FILE.db")


def check_total_override(mines: int | None, no_total: bool) -> None:
    """``--mines M`` replaces a position's total and ``--no-total`` removes it: one or the other, M not negative."""
    if mines is not None and no_total:
        raise UsageError("--mines and --no-total cannot be used together")
    if mines is not None and mines < 0:
        raise InputError(f"--mines must be 0 or more, got {mines}")


def with_total_override(position: Position, mines: int | None, no_total: bool) -> Position:
    """The position with the total ``--mines`` or ``--no-total`` gives it (unchanged without either)."""
    if mines is None and not no_total:
        return position
    return dataclasses.replace(position, total=mines)


def parse_cell(text: str, option: str) -> tuple[int, int]:
    """Parse ``ROW,COL`` (1-based) into a 0-based (row, col)."""
    parts = text.replace(" ", "").split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise InputError(f"{option} must be ROW,COL (1-based integers), got {text!r}") from None
    return row - 1, col - 1
