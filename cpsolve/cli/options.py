"""The choices and checks the commands share: one definition each, derived from the library's own lists.

A choice the library defines (the backends, the players, the start conditions, the encodings) is
turned into a typer choice here, from the library's list, so ``--help`` and the library never
disagree. Every bound on an option is checked before any work starts.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from cpsolve.errors import InputError, UsageError
from cpsolve.layout import BACKENDS, PHASES, ModelKind
from cpsolve.play import EXACT_PLAYERS, LEVELS, NO_GUESS_PLAYERS, PLAYERS, START_CONDITIONS
from cpsolve.words import shorten

__all__ = [
    "PlayerNoTotal",
    "PuzzleNoTotal",
    "PuzzleMines",
    "FirstClick",
    "StartRule",
    "OutputFormat",
    "Backend",
    "Player",
    "NoGuessPlayer",
    "StatsPlayer",
    "Start",
    "PhasesOption",
    "ModelOption",
    "Level",
    "MAX_WORKERS",
    "MAX_JOBS",
    "MAX_GAMES",
    "MAX_BOARDS",
    "check_output_path",
    "check_output_paths",
    "same_file",
    "check_resume",
    "store_side_files",
    "parse_cell",
]

#: Upper bounds for thread and process counts: far above any machine cpsolve runs on, low enough
#: that a typo (100000) is caught before the solver tries to start that many threads.
MAX_WORKERS = 256
MAX_JOBS = 1024
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

    class NoGuessPlayer(str, Enum): ...

    class StatsPlayer(str, Enum): ...

    class Start(str, Enum): ...

    class Level(str, Enum): ...

else:
    #: The layout backends, from the registry (:data:`cpsolve.layout.BACKENDS`).
    Backend = _choice("Backend", tuple(BACKENDS))
    #: The players, weakest first (:data:`cpsolve.play.PLAYERS`).
    Player = _choice("Player", PLAYERS)
    #: The players who never guess, for whom a board can be no-guess (:data:`cpsolve.play.NO_GUESS_PLAYERS`).
    NoGuessPlayer = _choice("NoGuessPlayer", NO_GUESS_PLAYERS)
    #: The players, and the exact optimum (:data:`cpsolve.play.EXACT_PLAYERS`): ``stats --random`` alone takes it.
    StatsPlayer = _choice("StatsPlayer", (*PLAYERS, *EXACT_PLAYERS))
    #: How the first click is protected (:data:`cpsolve.play.START_CONDITIONS`).
    Start = _choice("Start", START_CONDITIONS)
    #: The game's classic levels (:data:`cpsolve.play.LEVELS`).
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


def check_output_path(path: str | None, option: str, others: Sequence[tuple[str, str | None]] = ()) -> None:
    """Fail before any work when an output file cannot be created where it is asked for, or names another file of
    the command.

    Args:
        path: The output path (None: not asked for).
        option: Its option, for the message.
        others: The command's other files as (how the message names it, path): its inputs, and its outputs
            checked before this one. An output that is one of them is refused: it would be written over (an
            input changed, or one report lost to another). Paths are compared after resolving ``.``, ``..``
            and symbolic links, and two existing names of one file (hard links) are the same file.

    Raises:
        InputError: The folder is missing or not writable, the path is a folder, or names another file of the command.
    """
    if path is None:
        return
    from pathlib import Path

    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    shown = shorten(path, 80)
    for what, other in others:
        if other is not None and same_file(path, other):
            raise InputError(f"{option} {shown}: the same file as {what} {shorten(other, 80)}; choose another name")
    if target.is_dir():
        raise InputError(f"{option} {shown}: is a directory")
    if not folder.is_dir():
        raise InputError(f"{option} {shown}: no such directory {shorten(str(folder), 80)}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise InputError(f"{option} {shown}: not writable")


def check_output_paths(
    outputs: Sequence[tuple[str, str | None]], inputs: Sequence[tuple[str, str | None]] = ()
) -> None:
    """:func:`check_output_path` for each of a command's outputs, as (option, path): each against the inputs
    (as (how the message names it, path)) and the outputs before it."""
    for index, (option, path) in enumerate(outputs):
        check_output_path(path, option, [*inputs, *outputs[:index]])


def same_file(first: str, second: str) -> bool:
    """Whether two paths name one file: equal once ``.``, ``..`` and symbolic links are resolved, or (both
    existing) one file under two names. Standard input and output (``-``) are no file."""
    if first == "-" or second == "-":
        return False
    try:
        if os.path.exists(first) and os.path.exists(second):
            return os.path.samefile(first, second)
        return os.path.realpath(first) == os.path.realpath(second)
    except (OSError, ValueError):  # a name the system cannot look up (too long, a NUL byte): not a file to match
        return False


def store_side_files(store_path: str | None) -> list[tuple[str, str | None]]:
    """The files SQLite keeps beside a store while it writes (as (how a message names it, path)): an
    output of that name would be taken for an unfinished journal, or deleted when the store is next opened."""
    if store_path is None:
        return []
    return [(f"the store's {suffix} file", store_path + suffix) for suffix in ("-journal", "-wal", "-shm")]


def check_resume(resume: bool, store_path: str | None) -> None:
    """``--resume`` reads the cases a store already holds, so it needs ``--store`` (a usage error without)."""
    if resume and not store_path:
        raise UsageError("--resume needs --store FILE.db")


def parse_cell(text: str, option: str) -> tuple[int, int]:
    """Parse ``ROW,COL`` (1-based) into a 0-based (row, col)."""
    parts = text.replace(" ", "").split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise InputError(f"{option} must be ROW,COL (1-based integers), got {shorten(text)!r}") from None
    return row - 1, col - 1
