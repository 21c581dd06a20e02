"""Win-rate studies as sweeps: random games as tasks on an executor, kept in the store, resumable.

Game ``k`` of a series is drawn from ``default_rng([seed, k])`` (:func:`cpsolve.generate.play_game`),
so a study gives the same games whatever runs them. Records are gathered and summed up in index
order by :func:`cpsolve.generate.summarise_records`: the summary is the same, digit for digit,
in this process, on 2 workers or on a cluster, from scratch or resumed.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

from cpsolve.errors import parameter
from cpsolve.generate import summarise_records
from cpsolve.outcome import Record
from cpsolve.sweep.cases import chunks
from cpsolve.sweep.executors import Executor, InProcessExecutor
from cpsolve.sweep.store import ResultStore, StoreError, case_key, settings_hash
from cpsolve.sweep.tasks import GAME, play_games

__all__ = ["GAME_CHUNK", "check_resumable", "run_games"]

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

    executor = executor or InProcessExecutor()
    key = store.register_settings(GAME, dataclasses.asdict(settings)) if store else ""
    if store and resume:
        _check_study(store, key, settings)
    records: list[Record] = []
    resumed = 0

    def tasks() -> Iterator[tuple]:
        nonlocal resumed
        for indices in chunks(range(games), GAME_CHUNK):
            stored: dict[str, list[Record]] = {}
            if store and resume:
                stored = store.fetch(key, GAME, [{"index": index} for index in indices])
                for found in stored.values():
                    records.extend(_checked(store, record, settings) for record in found)
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


#: What the summary reads of every stored game's answer (:func:`cpsolve.generate.summarise_records`), and of
#: the best player's besides.
_ANSWER_FIELDS = {"won": bool, "3bv": int}
_BEST_FIELDS = {**_ANSWER_FIELDS, "guesses": int}


def check_resumable(store: ResultStore, settings: Any) -> None:
    """What a resume of this study will trust in the store, read ahead (on a read-only store, before
    the sweep opens it to write: a store refused is left as it was): its settings, if it has them,
    and every game it holds for them.

    Raises:
        StoreError: As :func:`run_games` would, later.
    """
    fields = dataclasses.asdict(settings)
    key = settings_hash(GAME, fields)
    if store.settings(key):
        _check_study(store, key, settings)
    store.check_records(GAME, fields, lambda record: _checked(store, record, settings))


def _check_study(store: ResultStore, key: str, settings: Any) -> None:
    """The settings the store files under this study's key must be this study's (a key is a hash of them).

    Raises:
        StoreError: The store's settings row under this key is another study's.
    """
    stored = store.settings(key)
    wanted = json.loads(json.dumps(dataclasses.asdict(settings)))  # as the store keeps them: lists, not tuples
    if stored != wanted:
        differ = sorted(name for name in {*stored, *wanted} if stored.get(name) != wanted.get(name))
        raise StoreError(
            f"{store.path}: its games under this study's key were played with other settings "
            f"({', '.join(differ)}); they are not this study's: use another {parameter('store')}"
        )


def _checked(store: ResultStore, record: Record, settings: Any) -> Record:
    """A stored game's record, once it is known to be one of this study's games, as
    :func:`cpsolve.sweep.tasks.play_games` writes them.

    Raises:
        StoreError: The game was played by another player (not this study's), or its answer lacks a field.
    """
    index = record.case["index"]
    if record.backend != settings.player:
        raise StoreError(
            f"{store.path}: game {index} in the store was played by {_short(record.backend)}, not {settings.player}; "
            f"the store's games are not this study's: use another {parameter('store')}"
        )
    answer = record.answer
    problem = None if isinstance(answer, dict) else "not an object"
    for name, kind in (_BEST_FIELDS if settings.player == "best" else _ANSWER_FIELDS).items():
        if problem is None and name not in answer:
            problem = f"no {name!r}"
        elif problem is None and type(answer[name]) is not kind:
            problem = f"{name!r} is not {'true or false' if kind is bool else 'a count'}"
    if problem is not None:
        raise store.damaged(f"records row game {index}: the answer is not a game's ({problem})")
    return record


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."
