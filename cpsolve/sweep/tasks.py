"""The work of a sweep as plain functions: arguments in, :class:`~cpsolve.outcome.Record` list out.

They are module-level and take everything they need as arguments (the problem, the backends and
a :class:`~cpsolve.layout.SolveOptions`): no module global is read, so a task gives the same
answer in this process, in a forked worker or on a Dask worker on another machine. Settings that
tests and benchmarks used to patch as globals belong in ``SolveOptions`` for that reason.

Example:
    >>> from cpsolve.layout import SolveOptions
    >>> [(r.backend, r.status.value) for r in solve_layout_case((2, 2, 1), ["greedy"], SolveOptions())]
    [('greedy', 'impossible')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpsolve.generate import play_game
from cpsolve.layout import LayoutProblem, SolveOptions, WrongBoardError, solve
from cpsolve.outcome import Record, Status
from cpsolve.sweep.cases import Case, case_dict

if TYPE_CHECKING:
    from cpsolve.generate import GameSettings

__all__ = ["LAYOUT", "GAME", "solve_layout_case", "solve_layout_chunk", "play_games"]

#: The problem kind of layout records in the store.
LAYOUT = "layout"


def solve_layout_case(case: Case, backends: Sequence[str], options: SolveOptions) -> list[Record]:
    """Solve one (R, C, M) case on every backend; a board the judge rejects becomes an INVALID record.

    Args:
        case: (rows, cols, mines).
        backends: Backend names, in the order the records come back.
        options: The solve settings, the same for every backend.

    Returns:
        One record per backend.
    """
    rows, cols, mines = case
    records = []
    for backend in backends:
        try:
            outcome = solve(LayoutProblem(rows, cols, mines), backend, options)
        except WrongBoardError as error:
            records.append(Record(LAYOUT, case_dict(case), backend, Status.INVALID, 0.0, reason=str(error)))
            continue
        records.append(Record(LAYOUT, case_dict(case), backend, outcome.status, outcome.seconds))
    return records


def solve_layout_chunk(cases: Sequence[Case], backends: Sequence[str], options: SolveOptions) -> list[Record]:
    """:func:`solve_layout_case` over a chunk of cases, records in case order: one task of a sweep."""
    # each case as a tuple, as solve_layout_case records it, whatever sequence it came as
    return [record for r, c, m in cases for record in solve_layout_case((r, c, m), backends, options)]


#: The problem kind of random-game records in the store.
GAME = "game"


def play_games(settings: GameSettings, indices: Sequence[int]) -> list[Record]:
    """Play games `indices` of a random series (:func:`cpsolve.generate.play_game`): one task of a win-rate study.

    Each game's board comes from its index and the seed alone, so the games give the same records
    on any worker and in any order. The records keep the case small (``{"index": i}``): the rest of
    the settings is the store's settings key.

    Args:
        settings: A :class:`cpsolve.generate.GameSettings`.
        indices: Which games.
    """

    records = []
    for index in indices:
        played = play_game(settings, index)
        records.append(Record(GAME, {"index": index}, played.backend, played.status, played.seconds, played.answer))
    return records
