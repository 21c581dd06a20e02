"""Win-rate studies as sweeps: random games as tasks on an executor, kept in the store, resumable.

Game ``k`` of a series is drawn from ``default_rng([seed, k])`` (:func:`cpsolve.generate.play_game`),
so a study gives the same games whatever runs them. Records are gathered and summed up in index
order by :func:`cpsolve.generate.summarise_records`: the summary is the same, digit for digit,
in this process, on 2 workers or on a cluster, from scratch or resumed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from cpsolve.outcome import Record
from cpsolve.sweep.cases import chunks
from cpsolve.sweep.executors import Executor, InProcessExecutor
from cpsolve.sweep.store import ResultStore, case_key
from cpsolve.sweep.tasks import GAME, play_games

__all__ = ["GAME_CHUNK", "run_games"]

#: Games per task: a casual game takes about a millisecond, a perfect player's on an expert board tens.
GAME_CHUNK = 100


def run_games(
    settings: Any,
    games: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    store: ResultStore | None = None,
    resume: bool = False,
) -> tuple[dict, int]:
    """Play games 0..games-1 and sum them up.

    Args:
        settings: A :class:`cpsolve.generate.GameSettings` (already checked).
        games: How many games.
        executor: What runs the tasks; None runs them here.
        progress: Called with a number of games each time some finish (or come from the store).
        store: Where every task's records go as they arrive.
        resume: Take the games the store holds for the same settings from it.

    Returns:
        The summary of :func:`cpsolve.generate.summarise_records`, and how many games came from the store.

    Raises:
        StoreError: A game the store holds is not what :func:`cpsolve.sweep.tasks.play_games` writes.
    """
    from cpsolve.generate import summarise_records

    executor = executor or InProcessExecutor()
    key = store.register_settings(GAME, dataclasses.asdict(settings)) if store else ""
    records: list[Record] = []
    resumed = 0

    def tasks() -> Iterator[tuple]:
        nonlocal resumed
        for indices in chunks(range(games), GAME_CHUNK):
            stored: dict[str, list[Record]] = {}
            if store and resume:
                stored = store.fetch(key, GAME, [{"index": index} for index in indices])
                for found in stored.values():
                    records.extend(_checked(store, record) for record in found if record.backend == settings.player)
            todo = [index for index in indices if case_key({"index": index}) not in stored]
            resumed += len(indices) - len(todo)
            if progress and len(todo) < len(indices):
                progress(len(indices) - len(todo))
            if todo:
                yield settings, todo

    for _, played in executor.run(play_games, tasks()):
        if store:
            store.add(key, played)
        records.extend(played)
        if progress:
            progress(len(played))
    records.sort(key=lambda record: record.case["index"])
    return summarise_records(settings, records), resumed


def _checked(store: ResultStore, record: Record) -> Record:
    """A stored game's record, once its answer is known to be what :func:`cpsolve.sweep.tasks.play_games` writes."""
    answer = record.answer
    if not (isinstance(answer, dict) and type(answer.get("won")) is bool and type(answer.get("3bv")) is int):
        raise store.damaged(f"records row game {record.case['index']}: the answer is not a game's")
    return record
