"""The results store: every finished case and backend in a SQLite database, as it arrives.

One row per (settings, problem, case, backend): the settings that decide a verdict (a hash,
spelled out in the ``settings`` table), the case as JSON, the backend, the status, the seconds,
the answer and the judge's reason for an INVALID board. Rows are written one task's worth per
transaction, so a sweep killed at any moment leaves whole tasks in the store and nothing half
written. Rows are upserted on their key: a task that ran twice (its worker died, and the
scheduler ran it again) or a case solved again leaves one row, the latest.

The ``sweeps`` table remembers each run (what it covered, with which settings, how many cases it
took from the store), so ``cpsolve report`` can rebuild the last run's reports without solving.

A store is data users keep for days, so it is checked before it is trusted:

- It says whose it is: SQLite's ``application_id`` holds :data:`APPLICATION_ID` and its
  ``user_version`` the layout, :data:`STORE_VERSION`. A store written before versioning (both 0)
  is accepted when its tables are exactly cpsolve's (the layout has not changed since), and is
  stamped the first time a sweep writes to it. A later version is refused: this cpsolve would
  misread it.
- A file that is not a store (empty, not SQLite, someone else's database) is refused without a
  byte written: it is inspected read-only, and a file not known to be cpsolve's is opened
  ``immutable`` so SQLite does not even leave its side files beside it.
- A damaged store (a page SQLite cannot read, a row that is not what cpsolve writes: bad JSON,
  a missing key, an unknown status) is refused with one line saying what is wrong, at the
  first read that meets it. Opening a :class:`ResultStore` runs SQLite's ``quick_check`` first.
- ``read_only=True`` (``cpsolve report``) opens the database with ``mode=ro``: reading a store
  never writes it.

Example:
    >>> from cpsolve.outcome import Record, Status
    >>> store = ResultStore(":memory:")
    >>> key = store.register_settings("layout", {"time_limit": 60.0})
    >>> store.add(key, [Record("layout", {"rows": 2, "cols": 2, "mines": 3}, "greedy", Status.POSSIBLE, 0.5)])
    >>> store.fetch(key, "layout", [{"rows": 2, "cols": 2, "mines": 3}])[case_key({"rows": 2, "cols": 2, "mines": 3})]
    [Record(problem='layout', case={'rows': 2, 'cols': 2, 'mines': 3}, backend='greedy', ...)]
    >>> store.count(key, "layout")
    1
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import math
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cpsolve.errors import InputError, InternalError, parameter
from cpsolve.outcome import Record, Status

__all__ = ["ResultStore", "StoreError", "STORE_VERSION", "APPLICATION_ID", "case_key", "settings_hash"]

#: The layout of the tables below. Raise it when they change, and say how older stores are read.
STORE_VERSION = 1
#: SQLite's application_id of a cpsolve store (ASCII "cpsv"): whose file this is.
APPLICATION_ID = 0x63707376

_TABLES = {
    "settings": ("hash", "problem", "settings"),
    "records": ("settings", "problem", "case_key", "backend", "status", "seconds", "answer", "reason"),
    "sweeps": ("id", "problem", "settings", "spec", "started", "finished", "cases", "resumed"),
}

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS settings (
    hash TEXT PRIMARY KEY,
    problem TEXT NOT NULL,
    settings TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS records (
    settings TEXT NOT NULL,
    problem TEXT NOT NULL,
    case_key TEXT NOT NULL,
    backend TEXT NOT NULL,
    status TEXT NOT NULL,
    seconds REAL NOT NULL,
    answer TEXT,
    reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (settings, problem, case_key, backend)
) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS sweeps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    problem TEXT NOT NULL,
    settings TEXT NOT NULL,
    spec TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    cases INTEGER,
    resumed INTEGER
)""",
)

#: SQLite's limit on the parameters of one statement is 32766 (3.32+); stay well under it.
_BATCH = 900
_SQLITE_MAGIC = b"SQLite format 3\x00"
_STATUSES = {status.value: status for status in Status}
#: What a damaged file can make the sqlite3 module raise: its errors, and an error message
#: quoting the file's bytes that Python cannot decode.
_SQLITE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, UnicodeDecodeError)


class StoreError(InputError):
    """A results store that cannot be used: not a store, too new, or damaged (exit 1)."""


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
        path: The database file, or ``:memory:``. Written: created when missing or empty.
        read_only: Only read (``cpsolve report``): the file must exist, and is never written.

    Raises:
        StoreError: The file is not a cpsolve store (empty when only read, not SQLite, another
            program's database), is of a later version, or is damaged. Nothing was written to it.
    """

    def __init__(self, path: str | Path, read_only: bool = False):
        self.path = str(path)
        self.read_only = read_only
        self._db: sqlite3.Connection | None = None
        if self.path == ":memory:":
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._create()
            return
        version = self.check(self.path, read_only)
        try:
            if read_only:
                self._db = _connect_read_only(self.path)
            else:
                # isolation_level=None: transactions are opened explicitly, one per task's records
                self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
                if version != STORE_VERSION:  # new, empty, or written before versioning: stamp it whole
                    self._create()
                # WAL: readers (a report, a test polling the store) never block the writer
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
        except _SQLITE_ERRORS as error:
            self.close()
            raise self._error(error) from None
        except BaseException:
            self.close()
            raise

    @staticmethod
    def check(path: str | Path, read_only: bool = False) -> int | None:
        """Check the file at `path` is a store this cpsolve may use, without writing or creating anything.

        A sweep checks its store so before it starts what runs it (a cluster that fails to start
        then leaves no new, empty store behind), and opens it after.

        Returns:
            The store's version, or None where there is no store yet (no file, or an empty one).

        Raises:
            StoreError: As :class:`ResultStore` does.
        """
        path = str(path)
        target = Path(path)
        if target.exists() and not target.is_file():
            raise StoreError(f"{path}: not a cpsolve results store (not a regular file)")
        if read_only and not target.exists():
            raise StoreError(f"{path}: no such file")
        fresh = not target.exists() or target.stat().st_size == 0
        if fresh and read_only:
            raise StoreError(f"{path}: not a cpsolve results store (an empty file)")
        return None if fresh else _inspect(path)

    @property
    def _connection(self) -> sqlite3.Connection:
        """The open database; a store used after :meth:`close` is a bug in the caller."""
        if self._db is None:
            raise InternalError(f"{self.path}: results store used after it was closed")
        return self._db

    def _create(self) -> None:
        """The tables and the stamp, in one transaction: a store is never left half made."""
        with self._transaction():
            for statement in _SCHEMA:
                self._connection.execute(statement)
            self._connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._connection.execute(f"PRAGMA user_version = {STORE_VERSION}")

    def close(self) -> None:
        """Close the database (everything added is already committed).

        A written store goes back to a rollback journal, so at rest it is one file (no ``-wal``
        and ``-shm`` beside it) that ``report`` can read without SQLite creating them again.
        """
        if self._db is None:
            return
        if not self.read_only and self.path != ":memory:":
            # an error: another connection still reads it, and it stays in WAL, as good
            with contextlib.suppress(*_SQLITE_ERRORS):
                self._db.execute("PRAGMA journal_mode=DELETE")
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
            self._connection.execute(
                "INSERT OR IGNORE INTO settings (hash, problem, settings) VALUES (?, ?, ?)",
                (key, problem, json.dumps(settings, sort_keys=True)),
            )
        return key

    def settings(self, key: str) -> dict[str, Any]:
        """The settings behind a hash ({} when the store does not have them)."""
        with self._reading():
            row = self._connection.execute("SELECT settings FROM settings WHERE hash = ?", (key,)).fetchone()
        if row is None:
            return {}
        return _json_object(row[0], f"settings row {key}", self)

    def add(self, settings: str, records: Iterable[Record]) -> None:
        """Write records in one transaction (all of them or, if killed, none)."""
        rows = [
            (
                settings,
                r.problem,
                case_key(r.case),
                r.backend,
                r.status.value,
                r.seconds,
                None if r.answer is None else json.dumps(r.answer),
                r.reason,
            )
            for r in records
        ]
        with self._transaction():
            self._connection.executemany(
                "INSERT OR REPLACE INTO records (settings, problem, case_key, backend, status, seconds, answer, reason)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )

    def fetch(self, settings: str, problem: str, cases: Sequence[dict[str, Any]]) -> dict[str, list[Record]]:
        """The stored records of some cases, by case key (cases without records are left out).

        Raises:
            StoreError: A row is not what cpsolve writes (unknown status, bad JSON, bad seconds).
        """
        found: dict[str, list[Record]] = {}
        wanted = {case_key(case): case for case in cases}
        keys = list(wanted)
        for start in range(0, len(keys), _BATCH):
            batch = keys[start : start + _BATCH]
            query = (
                "SELECT case_key, backend, status, seconds, answer, reason FROM records"
                f" WHERE settings = ? AND problem = ? AND case_key IN ({','.join('?' * len(batch))})"
            )
            with self._reading():
                rows = self._connection.execute(query, (settings, problem, *batch)).fetchall()
            for key, backend, status, seconds, answer, reason in rows:
                if key not in wanted:  # an index that disagrees with its table
                    raise self.damaged(f"records: a row under key {_short(key)} that was not asked for")
                record = _record(problem, dict(wanted[key]), backend, status, seconds, answer, reason, self)
                found.setdefault(key, []).append(record)
        return found

    def check_records(
        self, problem: str, settings: dict[str, Any], each: Callable[[Record], object] | None = None
    ) -> None:
        """Read every record held for these settings once, as :meth:`fetch` reads them, and stop at
        the first that is not what cpsolve writes. A resume calls it on a read-only store before it
        opens the store to write, so a damaged store is refused as it was found; the rows stream
        past (a cursor, not a list), so a store of millions costs a read, not its size in memory.

        Args:
            problem: The problem kind.
            settings: The settings whose records are read.
            each: A further check of each record (a study's own: the player, the answer's fields).

        Raises:
            StoreError: A row is not what cpsolve writes.
        """
        key = settings_hash(problem, settings)
        query = (
            "SELECT case_key, backend, status, seconds, answer, reason FROM records WHERE settings = ? AND problem = ?"
        )
        with self._reading():
            for case, backend, status, seconds, answer, reason in self._connection.execute(query, (key, problem)):
                found = _json_object(case, f"records row {_short(str(case))}", self)
                record = _record(problem, found, backend, status, seconds, answer, reason, self)
                if each is not None:
                    each(record)

    def case_keys(self, settings: str, problem: str) -> list[str]:
        """The keys of the cases the store holds records of for these settings (each once)."""
        with self._reading():
            rows = self._connection.execute(
                "SELECT DISTINCT case_key FROM records WHERE settings = ? AND problem = ?", (settings, problem)
            ).fetchall()
        return [row[0] for row in rows]

    def count(self, settings: str, problem: str) -> int:
        """How many records the store holds for these settings."""
        with self._reading():
            return self._connection.execute(
                "SELECT COUNT(*) FROM records WHERE settings = ? AND problem = ?", (settings, problem)
            ).fetchone()[0]

    def begin_sweep(self, problem: str, settings: str, spec: dict[str, Any]) -> int:
        """Record that a sweep starts; return its id."""
        with self._transaction():
            cursor = self._connection.execute(
                "INSERT INTO sweeps (problem, settings, spec, started) VALUES (?, ?, ?, ?)",
                (problem, settings, json.dumps(spec), _now()),
            )
        assert cursor.lastrowid is not None  # set by every INSERT
        return cursor.lastrowid

    def finish_sweep(self, sweep: int, cases: int, resumed: int) -> None:
        """Record that a sweep finished, with its case count and how many it took from the store."""
        with self._transaction():
            self._connection.execute(
                "UPDATE sweeps SET finished = ?, cases = ?, resumed = ? WHERE id = ?", (_now(), cases, resumed, sweep)
            )

    def last_sweep(self, problem: str | None = None) -> dict[str, Any] | None:
        """The latest sweep (of a problem kind), as a dict, or None for an empty store.

        Raises:
            StoreError: The row is not what cpsolve writes (its spec is not a JSON object, a
                time is not a timestamp, a count is not an integer).
        """
        query = "SELECT id, problem, settings, spec, started, finished, cases, resumed FROM sweeps"
        query += " WHERE problem = ?" if problem else ""
        with self._reading():
            row = self._connection.execute(
                query + " ORDER BY id DESC LIMIT 1", (problem,) if problem else ()
            ).fetchone()
        if row is None:
            return None
        names = ("id", "problem", "settings", "spec", "started", "finished", "cases", "resumed")
        sweep = dict(zip(names, row, strict=True))
        where = f"sweeps row {sweep['id']}"
        sweep["spec"] = _json_object(sweep["spec"], where, self)
        for name in ("started", "finished"):
            if not (sweep[name] is None and name == "finished") and not _is_timestamp(sweep[name]):
                raise self.damaged(f"{where}: {name} is not a timestamp")
        for name in ("cases", "resumed"):
            if sweep[name] is not None and (type(sweep[name]) is not int or sweep[name] < 0):
                raise self.damaged(f"{where}: {name} is not a count")
        if not isinstance(sweep["settings"], str):
            raise self.damaged(f"{where}: settings is not a key")
        return sweep

    def damaged(self, what: str) -> StoreError:
        """The error for something in this store that is not what cpsolve wrote (callers check their own rows)."""
        return _damaged(self.path, what)

    def _error(self, error: Exception) -> StoreError:
        """One line for an error SQLite raised on this store."""
        if _not_the_file(error):
            return StoreError(f"{self.path}: {_message(error)}")  # locked, disk full, I/O: the file may be fine
        return self.damaged(_message(error))

    @contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            yield
        except _SQLITE_ERRORS as error:
            raise self._error(error) from None

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on an error: a task's records land whole or not at all."""
        try:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
            self._connection.execute("COMMIT")
        except _SQLITE_ERRORS as error:
            raise self._error(error) from None


def _connect_read_only(path: str, immutable: bool = False) -> sqlite3.Connection:
    """A connection that cannot write the file (``immutable``: nor take locks or leave side files)."""
    uri = Path(path).resolve().as_uri() + ("?immutable=1" if immutable else "?mode=ro")
    return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)


def _inspect(path: str) -> int:
    """Check an existing, non-empty file is a cpsolve store that this version reads; return its version.

    Raises:
        StoreError: It is not SQLite, not cpsolve's, of a later version, or damaged.
    """
    with open(path, "rb") as handle:
        header = handle.read(100)
    if not header.startswith(_SQLITE_MAGIC):
        raise StoreError(f"{path}: not a cpsolve results store (not an SQLite database)")
    header_id = int.from_bytes(header[68:72], "big") if len(header) >= 72 else 0
    # a file not (yet) known to be ours is read immutable: no lock, no -wal/-shm left beside it.
    # With a -wal beside it, the file alone may be out of date (a writer was killed): read it properly.
    immutable = header_id != APPLICATION_ID and not Path(path + "-wal").exists()
    try:
        db = _connect_read_only(path, immutable)
    except _SQLITE_ERRORS as error:
        raise StoreError(f"{path}: not a cpsolve results store ({_message(error)})") from None
    try:
        application_id, version, tables = _identity(db)
        if application_id == 0 and version == 0:  # a store from before versioning, or someone else's database
            if set(tables) - {"sqlite_sequence"} != set(_TABLES) or _table_problem(db) is not None:
                listed = ", ".join(sorted(tables)) or "none"
                raise StoreError(
                    f"{path}: not a cpsolve results store (an SQLite database with tables: {_short(listed)})"
                )
        elif application_id != APPLICATION_ID:
            raise StoreError(f"{path}: not a cpsolve results store (SQLite application_id {application_id:#x})")
        elif version > STORE_VERSION:
            raise StoreError(
                f"{path}: results store version {version} is newer than this cpsolve reads ({STORE_VERSION});"
                " upgrade cpsolve to use it"
            )
        elif version < 1:
            raise _damaged(path, f"version {version}")
        if immutable:  # it is ours: read it again as a reader among writers
            db.close()
            db = _connect_read_only(path)
        problem = _table_problem(db)
        if problem is not None:
            raise _damaged(path, problem)
        problems = [str(row[0]) for row in db.execute("PRAGMA quick_check(1)").fetchall()]
        if problems != ["ok"]:
            # SQLite's report starts with "*** in database main ***" lines: say what it found
            lines = [line for text in problems for line in text.splitlines() if line and not line.startswith("***")]
            raise _damaged(path, _short(lines[0] if lines else problems[0], 80))
        return version
    except _SQLITE_ERRORS as error:
        if _not_the_file(error):
            raise StoreError(f"{path}: {_message(error)}") from None
        raise _damaged(path, _message(error)) from None
    finally:
        db.close()


def _identity(db: sqlite3.Connection) -> tuple[int, int, list[str]]:
    """The application_id, the user_version, and the names of the tables."""
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return application_id, version, tables


def _table_problem(db: sqlite3.Connection) -> str | None:
    """What is wrong with cpsolve's tables in this database, or None when each has its columns."""
    for name, columns in _TABLES.items():
        found = tuple(row[0] for row in db.execute("SELECT name FROM pragma_table_info(?)", (name,)))
        if found != columns:
            return _short(f"table {name} has columns {', '.join(found)}" if found else f"table {name} is missing")
    return None


def _damaged(path: str, what: str) -> StoreError:
    return StoreError(f"{path}: damaged results store ({what}); report and {parameter('resume')} cannot use it")


def _message(error: Exception) -> str:
    """SQLite's message, one line (from a damaged file it may quote bytes that are not UTF-8)."""
    if isinstance(error, UnicodeDecodeError):
        return _short(error.object.decode("utf-8", "replace"), 80)
    return _short(str(error), 80)


def _not_the_file(error: Exception) -> bool:
    """Whether SQLite's error is about the circumstances (a lock, the disk), not the file's contents."""
    text = str(error).lower()
    circumstances = (
        "locked",
        "busy",
        "disk i/o",
        "disk is full",
        "unable to open",
        "readonly",
        "read-only",
        "permission",
    )
    return (
        isinstance(error, sqlite3.OperationalError)
        and "malformed" not in text
        and any(words in text for words in circumstances)
    )


def _record(
    problem: str,
    case: dict[str, Any],
    backend: Any,
    status: Any,
    seconds: Any,
    answer: Any,
    reason: Any,
    store: ResultStore,
) -> Record:
    """A records row as a Record, after checking each column is what :meth:`ResultStore.add` writes."""
    where = f"records row {_short(case_key(case))} {_short(str(backend))}"
    if not isinstance(backend, str) or not backend:
        raise store.damaged(f"{where}: the backend is not a name")
    if status not in _STATUSES:
        raise store.damaged(f"{where}: unknown status {_short(repr(status))}")
    if type(seconds) not in (int, float) or not math.isfinite(seconds) or seconds < 0:
        raise store.damaged(f"{where}: seconds is {_short(repr(seconds))}")
    if not isinstance(reason, str):
        raise store.damaged(f"{where}: the reason is not text")
    if answer is not None:
        try:
            answer = json.loads(answer)
        except (TypeError, ValueError, RecursionError):
            raise store.damaged(f"{where}: the answer is not JSON") from None
    return Record(problem, case, backend, _STATUSES[status], float(seconds), answer, reason)


def _json_object(text: Any, where: str, store: ResultStore) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        raise store.damaged(f"{where}: not JSON") from None
    if not isinstance(value, dict):
        raise store.damaged(f"{where}: not a JSON object")
    return value


def _is_timestamp(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _short(text: str, limit: int = 60) -> str:
    """A value from a damaged file, cut to fit the one line that reports it."""
    text = text.replace("\n", " ").replace("\r", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
