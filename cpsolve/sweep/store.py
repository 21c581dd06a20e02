"""The results store: every finished case and backend in a SQLite database, as it arrives.

One row per (settings, problem, case, backend): the settings that decide a verdict (a hash,
spelled out in the ``settings`` table), the case as JSON, the backend, the status, the seconds,
the answer and the judge's reason for an INVALID board. Rows are written one task's worth per
transaction, so a sweep killed at any moment leaves whole tasks in the store and nothing half
written. Rows are upserted on their key: a task that ran twice (its worker died, and the
scheduler ran it again) or a case solved again leaves one row, the latest.

The ``sweeps`` table remembers each run (what it covered, with which settings, how many cases it
took from the store), so ``cpsolve report`` can rebuild the last run's reports without solving.

Example:
    >>> from cpsolve.outcome import Record, Status
    >>> store = ResultStore(":memory:")
    >>> key = store.register_settings("layout", {"time_limit": 60.0})
    >>> store.add(key, [Record("layout", {"rows": 2, "cols": 2, "mines": 3}, "greedy", Status.POSSIBLE, 0.5)])
    >>> store.fetch(key, "layout", [{"rows": 2, "cols": 2, "mines": 3}])[case_key({"rows": 2, "cols": 2, "mines": 3})]
    [Record(problem='layout', case={'rows': 2, 'cols': 2, 'mines': 3}, backend='greedy', status=<Status.POSSIBLE: 'possible'>, seconds=0.5, answer=None, reason='', stats={})]
    >>> store.count(key, "layout")
    1
"""

from __future__ import annotations

import datetime
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from cpsolve.errors import InputError
from cpsolve.outcome import Record, Status

__all__ = ["ResultStore", "case_key", "settings_hash"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (
    hash TEXT PRIMARY KEY,
    problem TEXT NOT NULL,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
    settings TEXT NOT NULL,
    problem TEXT NOT NULL,
    case_key TEXT NOT NULL,
    backend TEXT NOT NULL,
    status TEXT NOT NULL,
    seconds REAL NOT NULL,
    answer TEXT,
    reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (settings, problem, case_key, backend)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sweeps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    problem TEXT NOT NULL,
    settings TEXT NOT NULL,
    spec TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    cases INTEGER,
    resumed INTEGER
);
"""

#: SQLite's limit on the parameters of one statement is 32766 (3.32+); stay well under it.
_BATCH = 900


def case_key(case: dict[str, Any]) -> str:
    """The case as the store keys it: compact JSON in the case's own field order."""
    return json.dumps(case, separators=(",", ":"))


def settings_hash(problem: str, settings: dict[str, Any]) -> str:
    """A short, stable name for a problem kind and the settings that decide its verdicts."""
    text = json.dumps({"problem": problem, "settings": settings}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class ResultStore:
    """A SQLite results store.

    Args:
        path: The database file (created when missing), or ``:memory:``.

    Raises:
        InputError: The file exists and is not a cpsolve store (or not SQLite at all).
    """

    def __init__(self, path: str | Path):
        self.path = str(path)
        try:
            # isolation_level=None: transactions are opened explicitly, one per task's records
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            if self.path != ":memory:":
                # WAL: readers (a report, a test polling the store) never block the writer
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise InputError(f"{self.path}: not a cpsolve results store ({error})") from None

    def close(self) -> None:
        """Close the database (everything added is already committed)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def register_settings(self, problem: str, settings: dict[str, Any]) -> str:
        """Remember a problem kind's settings; return their hash, the key of their records."""
        key = settings_hash(problem, settings)
        with self._transaction():
            self._db.execute(
                "INSERT OR IGNORE INTO settings (hash, problem, settings) VALUES (?, ?, ?)",
                (key, problem, json.dumps(settings, sort_keys=True)),
            )
        return key

    def settings(self, key: str) -> dict[str, Any]:
        """The settings behind a hash."""
        row = self._db.execute("SELECT settings FROM settings WHERE hash = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else {}

    def add(self, settings: str, records: Iterable[Record]) -> None:
        """Write records in one transaction (all of them or, if killed, none)."""
        rows = [
            (settings, r.problem, case_key(r.case), r.backend, r.status.value, r.seconds,
             None if r.answer is None else json.dumps(r.answer), r.reason)
            for r in records
        ]
        with self._transaction():
            self._db.executemany(
                "INSERT OR REPLACE INTO records (settings, problem, case_key, backend, status, seconds, answer, reason)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )

    def fetch(self, settings: str, problem: str, cases: Sequence[dict[str, Any]]) -> dict[str, list[Record]]:
        """The stored records of some cases, by case key (cases without records are left out)."""
        found: dict[str, list[Record]] = {}
        keys = [case_key(case) for case in cases]
        for start in range(0, len(keys), _BATCH):
            batch = keys[start:start + _BATCH]
            query = (
                "SELECT case_key, backend, status, seconds, answer, reason FROM records"
                f" WHERE settings = ? AND problem = ? AND case_key IN ({','.join('?' * len(batch))})"
            )
            for key, backend, status, seconds, answer, reason in self._db.execute(query, (settings, problem, *batch)):
                found.setdefault(key, []).append(
                    Record(problem, json.loads(key), backend, Status(status), seconds,
                           None if answer is None else json.loads(answer), reason)
                )
        return found

    def count(self, settings: str, problem: str) -> int:
        """How many records the store holds for these settings."""
        return self._db.execute(
            "SELECT COUNT(*) FROM records WHERE settings = ? AND problem = ?", (settings, problem)
        ).fetchone()[0]

    def begin_sweep(self, problem: str, settings: str, spec: dict[str, Any]) -> int:
        """Record that a sweep starts; return its id."""
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO sweeps (problem, settings, spec, started) VALUES (?, ?, ?, ?)",
                (problem, settings, json.dumps(spec), _now()),
            )
        return int(cursor.lastrowid)

    def finish_sweep(self, sweep: int, cases: int, resumed: int) -> None:
        """Record that a sweep finished, with its case count and how many it took from the store."""
        with self._transaction():
            self._db.execute(
                "UPDATE sweeps SET finished = ?, cases = ?, resumed = ? WHERE id = ?", (_now(), cases, resumed, sweep)
            )

    def last_sweep(self, problem: str | None = None) -> dict[str, Any] | None:
        """The latest sweep (of a problem kind), as a dict, or None for an empty store."""
        query = "SELECT id, problem, settings, spec, started, finished, cases, resumed FROM sweeps"
        query += " WHERE problem = ?" if problem else ""
        row = self._db.execute(query + " ORDER BY id DESC LIMIT 1", (problem,) if problem else ()).fetchone()
        if row is None:
            return None
        names = ("id", "problem", "settings", "spec", "started", "finished", "cases", "resumed")
        sweep = dict(zip(names, row))
        sweep["spec"] = json.loads(sweep["spec"])
        return sweep

    def _transaction(self) -> Any:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on an error: a task's records land whole or not at all."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if kind else "COMMIT")


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
