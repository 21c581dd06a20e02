"""The results store checked before it is trusted: damaged stores, files that are not stores, versions,
read-only reports."""

import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolve.cli import app
from cpsolve.layout import SolveOptions
from cpsolve.sweep.session import LayoutSweep
from cpsolve.sweep.store import APPLICATION_ID, STORE_VERSION, ResultStore, StoreError

CASE = json.dumps({"rows": 2, "cols": 2, "mines": 1}, separators=(",", ":"))


@pytest.fixture(scope="module")
def real_store(tmp_path_factory) -> Path:
    """A store written by a real sweep (greedy and a second backend, 1-4 x 1-4: 100 cases), and its report."""
    folder = tmp_path_factory.mktemp("store")
    path = folder / "real.db"
    with LayoutSweep(
        (1, 4), (1, 4), None, ["greedy", "cp"], SolveOptions(dominance="none"), store_path=str(path)
    ) as sweep:
        sweep.run()
    return path


@pytest.fixture
def store(real_store, tmp_path) -> Path:
    """A copy of the real store to damage."""
    copy = tmp_path / "copy.db"
    shutil.copy(real_store, copy)
    return copy


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _edit(path: Path, *statements: str) -> None:
    """Change a store behind cpsolve's back, as a stray program or a bad disk would."""
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def _refused(runner, args, fragment: str):
    """The command exits 1 with one line on stderr holding `fragment`, and no traceback."""
    result = runner.invoke(app, args)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit) or result.exception is None
    assert result.stderr.count("\n") == 1 and fragment in result.stderr, result.stderr
    return result


def test_a_real_store_is_read_without_being_written(runner, store):
    before = _digest(store)
    result = runner.invoke(app, ["report", str(store)])
    assert result.exit_code == 0, result.stderr
    assert "agreement: 100/100 cases (all)" in result.stdout
    assert _digest(store) == before and sorted(os.listdir(store.parent)) == ["copy.db"]  # nor -wal/-shm beside it
    db = sqlite3.connect(store)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION == 1
    db.close()


@pytest.mark.parametrize("keep", [50, 100, 4096, 0.5, -100])
def test_a_truncated_store_is_one_line(runner, store, keep):
    size = store.stat().st_size
    with open(store, "r+b") as handle:
        handle.truncate(int(size * keep) if isinstance(keep, float) else keep if keep > 0 else size + keep)
    _refused(runner, ["report", str(store)], "damaged results store")
    _refused(
        runner,
        [
            "compare",
            "--rows",
            "1-4",
            "--cols",
            "1-4",
            "--backends",
            "greedy,cp",
            "--dominance",
            "none",
            "--jobs",
            "1",
            "--store",
            str(store),
            "--resume",
            "--quiet",
        ],
        "--resume cannot use it",
    )


@pytest.mark.parametrize("page", [0, 1, 3, -1])
def test_an_overwritten_page_is_one_line(runner, store, page):
    pages = store.stat().st_size // 4096
    with open(store, "r+b") as handle:
        handle.seek((page % pages) * 4096 + (100 if page == 0 else 0))  # page 0: keep SQLite's header
        handle.write(b"\xa5" * 600)
    _refused(runner, ["report", str(store)], "damaged results store")


@pytest.mark.parametrize(
    "statements,fragment",
    [
        (
            [f"UPDATE records SET status = 'maybe' WHERE case_key = '{CASE}' AND backend = 'cp'"],
            "unknown status 'maybe'",
        ),
        (
            [f"UPDATE records SET answer = '{{oops' WHERE case_key = '{CASE}' AND backend = 'cp'"],
            "the answer is not JSON",
        ),
        ([f"UPDATE records SET seconds = 'fast' WHERE case_key = '{CASE}'"], "seconds is 'fast'"),
        (['UPDATE sweeps SET spec = \'{"rows": [1, 4], "cols": [1, 4\''], "not JSON"),
        (['UPDATE sweeps SET spec = \'{"rows": [1, 4], "cols": [1, 4], "mines": null}\''], "the spec has no backends"),
        (["UPDATE sweeps SET spec = '[1, 2]'"], "not a JSON object"),
        (["UPDATE sweeps SET spec = json_set(spec, '$.rows', json('[4, 1]'))"], "rows is not a range"),
        (["UPDATE sweeps SET started = 'yesterday'"], "started is not a timestamp"),
        (["UPDATE sweeps SET resumed = 'some'"], "resumed is not a count"),
        (["ALTER TABLE records DROP COLUMN reason"], "table records has columns"),
        (["DROP TABLE settings"], "table settings is missing"),
        (["PRAGMA user_version = 0"], "damaged results store (version 0)"),
    ],
)
def test_a_row_that_is_not_cpsolve_s_is_one_line(runner, store, statements, fragment):
    _edit(store, *statements)
    before = _digest(store)
    result = _refused(runner, ["report", str(store)], fragment)
    assert "report and --resume cannot use it" in result.stderr
    assert _digest(store) == before


@pytest.mark.parametrize(
    "statement,fragment",
    [
        (f"UPDATE records SET status = 'maybe' WHERE case_key = '{CASE}' AND backend = 'cp'", "unknown status"),
        (
            f"UPDATE records SET answer = '{{oops' WHERE case_key = '{CASE}' AND backend = 'cp'",
            "the answer is not JSON",
        ),
    ],
)
def test_resume_refuses_a_damaged_row(runner, store, statement, fragment):
    _edit(store, statement)
    result = _refused(
        runner,
        [
            "compare",
            "--rows",
            "1-4",
            "--cols",
            "1-4",
            "--backends",
            "greedy,cp",
            "--dominance",
            "none",
            "--jobs",
            "1",
            "--store",
            str(store),
            "--resume",
            "--quiet",
        ],
        fragment,
    )
    assert "--resume cannot use it" in result.stderr


def test_a_resume_refuses_a_damaged_store_as_it_found_it(runner, store):
    """Every row is read before the store is opened to write: no settings row, no sweep started,
    not even its header touched (a row late in the store once let earlier chunks be written)."""
    _edit(store, 'UPDATE records SET status = \'maybe\' WHERE case_key = \'{"rows":4,"cols":4,"mines":15}\'')
    before = _digest(store)
    args = ["compare", "--rows", "1-4", "--cols", "1-4", "--backends", "greedy,cp", "--dominance", "none"]
    _refused(runner, [*args, "--jobs", "1", "--store", str(store), "--resume", "--quiet"], "unknown status 'maybe'")
    assert _digest(store) == before
    assert not Path(f"{store}-wal").exists() and not Path(f"{store}-journal").exists()


def test_a_later_version_is_refused(runner, store):
    _edit(store, f"PRAGMA user_version = {STORE_VERSION + 1}")
    before = _digest(store)
    _refused(runner, ["report", str(store)], f"results store version {STORE_VERSION + 1} is newer")
    _refused(
        runner, ["compare", "--rows", "2", "--cols", "2", "--jobs", "1", "--store", str(store), "--quiet"], "is newer"
    )
    assert _digest(store) == before


def test_a_store_from_before_versioning_is_read_as_it_is_and_stamped_by_a_sweep(runner, store, tmp_path):
    _edit(store, "PRAGMA application_id = 0", "PRAGMA user_version = 0")
    before = _digest(store)
    report = runner.invoke(app, ["report", str(store)])
    assert report.exit_code == 0 and "agreement: 100/100 cases (all)" in report.stdout
    assert _digest(store) == before
    resumed = runner.invoke(
        app,
        [
            "compare",
            "--rows",
            "1-4",
            "--cols",
            "1-4",
            "--backends",
            "greedy,cp",
            "--dominance",
            "none",
            "--jobs",
            "1",
            "--store",
            str(store),
            "--resume",
            "--quiet",
            "--json",
            str(tmp_path / "r.json"),
        ],
    )
    assert resumed.exit_code == 0, resumed.stderr
    assert json.loads((tmp_path / "r.json").read_text())["resumed"] == 100
    db = sqlite3.connect(store)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION
    db.close()


def test_an_empty_file_is_not_a_store_to_read(runner, tmp_path):
    empty = tmp_path / "empty.db"
    empty.touch()
    _refused(runner, ["report", str(empty)], "not a cpsolve results store (an empty file)")
    assert empty.stat().st_size == 0 and sorted(os.listdir(tmp_path)) == ["empty.db"]
    # a sweep may make its store in an empty file: there is nothing in it to lose
    made = runner.invoke(
        app,
        [
            "compare",
            "--rows",
            "2",
            "--cols",
            "2",
            "--backends",
            "greedy",
            "--jobs",
            "1",
            "--store",
            str(empty),
            "--quiet",
        ],
    )
    assert made.exit_code == 0 and runner.invoke(app, ["report", str(empty)]).exit_code == 0


@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_another_program_s_database_is_refused_untouched(runner, tmp_path, journal):
    foreign = tmp_path / "notes.db"
    db = sqlite3.connect(foreign)
    db.execute(f"PRAGMA journal_mode = {journal}")
    db.execute("CREATE TABLE notes (text TEXT)")
    db.execute("INSERT INTO notes VALUES ('keep me')")
    db.commit()
    db.close()
    before, files = _digest(foreign), sorted(os.listdir(tmp_path))
    _refused(runner, ["report", str(foreign)], "not a cpsolve results store (an SQLite database with tables: notes)")
    _refused(
        runner,
        ["compare", "--rows", "2", "--cols", "2", "--jobs", "1", "--store", str(foreign), "--quiet"],
        "not a cpsolve results store",
    )
    assert _digest(foreign) == before and sorted(os.listdir(tmp_path)) == files
    # someone else's database that happens to use cpsolve's table names, but not its columns
    _edit(foreign, "CREATE TABLE settings (a)", "CREATE TABLE records (b)", "CREATE TABLE sweeps (c)")
    before = _digest(foreign)
    _refused(runner, ["report", str(foreign)], "not a cpsolve results store")
    assert _digest(foreign) == before


def test_files_that_are_not_sqlite(runner, tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite at all\n" * 300)
    before = _digest(junk)
    _refused(runner, ["report", str(junk)], "not a cpsolve results store (not an SQLite database)")
    _refused(
        runner,
        ["compare", "--rows", "2", "--cols", "2", "--jobs", "1", "--store", str(junk), "--quiet"],
        "not an SQLite database",
    )
    assert _digest(junk) == before
    _refused(runner, ["report", str(tmp_path)], "not a regular file")
    _refused(runner, ["report", str(tmp_path / "missing.db")], "no such file")
    assert not (tmp_path / "missing.db").exists()


def test_the_library_refuses_a_later_version_too(store):
    _edit(store, f"PRAGMA user_version = {STORE_VERSION + 5}")
    with pytest.raises(StoreError, match="newer"):
        ResultStore(store, read_only=True)
    with pytest.raises(StoreError, match="newer"):
        ResultStore(store)


def _spools(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.startswith("cpsolve-csv-"))


def test_a_failing_report_leaves_no_csv_behind(runner, real_store, store, tmp_path, monkeypatch):
    spool_folder = tmp_path / "tmp"
    spool_folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool_folder))  # where CsvSpool puts its spool
    target = tmp_path / "cases.csv"
    # a bad row late in the sweep: the CSV already had rows when the store was found damaged
    _edit(store, 'UPDATE records SET status = \'maybe\' WHERE case_key = \'{"rows":4,"cols":4,"mines":9}\'')
    for _ in range(3):
        _refused(runner, ["report", str(store), "--csv", str(target)], "unknown status")
    empty = tmp_path / "empty.db"
    empty.touch()
    _refused(runner, ["report", str(empty), "--csv", str(target)], "an empty file")
    nothing = tmp_path / "nothing.db"
    ResultStore(nothing).close()  # a store without a sweep
    _refused(runner, ["report", str(nothing), "--csv", str(target)], "no compare sweep")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"x" * 200)
    _refused(
        runner,
        ["compare", "--rows", "2", "--cols", "2", "--jobs", "1", "--store", str(junk), "--csv", str(target), "--quiet"],
        "not an SQLite database",
    )
    assert _spools(spool_folder) == [] and not target.exists()
    # the spool of a report that works is moved into place
    fine = tmp_path / "fine.db"
    shutil.copy(real_store, fine)
    result = runner.invoke(app, ["report", str(fine), "--csv", str(target)])
    assert result.exit_code == 0 and len(target.read_text().splitlines()) == 1 + 2 * 100
    assert _spools(spool_folder) == []


MUTATIONS = st.lists(
    st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=255)), min_size=1, max_size=8
)


@pytest.mark.slow  # hundreds of damaged stores
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=MUTATIONS, cut=st.one_of(st.none(), st.integers(min_value=0)))
def test_report_on_mutated_bytes_is_an_answer_or_one_line(runner, real_store, tmp_path, mutations, cut):
    """Whatever bytes change, report answers (exit 0) or says in one line what is wrong (exit 1): never a traceback."""
    data = bytearray(real_store.read_bytes())
    for offset, value in mutations:
        data[offset % len(data)] = value
    if cut is not None:
        data = data[: cut % (len(data) + 1)]
    path = tmp_path / "mutated.db"
    for side in (path, path.with_name("mutated.db-wal"), path.with_name("mutated.db-shm")):
        side.unlink(missing_ok=True)
    path.write_bytes(bytes(data))
    result = runner.invoke(app, ["report", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1), (result.exit_code, result.stderr)
    assert result.stderr.count("\n") <= 1 and "Traceback" not in result.stderr + result.stdout, result.stderr
    if result.exit_code == 1:
        assert result.stderr.startswith("cpsolve: ")


def test_a_damaged_game_record_is_one_line(runner, tmp_path):
    store = tmp_path / "games.db"
    common = [
        "stats",
        "--random",
        "8",
        "8",
        "10",
        "--player",
        "casual",
        "--format",
        "json",
        "--store",
        str(store),
        "--quiet",
        "--games",
        "150",
    ]
    first = runner.invoke(app, common)
    assert first.exit_code == 0, first.stderr
    _edit(store, "UPDATE records SET answer = '{\"won\": 1}' WHERE case_key = '{\"index\":7}'")
    before = _digest(store)
    _refused(runner, [*common, "--resume"], "records row game 7: the answer is not a game's")
    assert _digest(store) == before  # refused as it was found


def test_a_closed_store_says_so():
    """Using a store after close() is the caller's bug: an InternalError (exit 4), not an AttributeError on None."""
    from cpsolve.errors import InternalError

    store = ResultStore(":memory:")
    key = store.register_settings("layout", {"a": 1})
    store.close()
    store.close()  # idempotent
    with pytest.raises(InternalError, match="closed"):
        store.count(key, "layout")
    with pytest.raises(InternalError, match="closed"):
        store.begin_sweep("layout", key, {})


@pytest.fixture
def best_games(runner, tmp_path):
    """A store of 3 games of the best player, and the command that wrote it."""
    store = tmp_path / "G.db"
    common = [
        "stats",
        "--random",
        "6",
        "6",
        "5",
        "--player",
        "best",
        "--format",
        "json",
        "--store",
        str(store),
        "--quiet",
        "--games",
        "3",
    ]
    first = runner.invoke(app, common)
    assert first.exit_code == 0, first.stderr
    return store, common


def test_a_stored_game_of_another_player_is_not_this_study_s(runner, best_games):
    """Once ``"games": 1, "resumed": 2`` came out as a normal answer: the game of another player was dropped and
    still counted as resumed."""
    store, common = best_games
    _edit(store, "UPDATE records SET backend = 'casual' WHERE case_key = '{\"index\":1}'")
    _refused(runner, [*common, "--resume"], "game 1 in the store was played by casual, not best")


def test_stored_settings_of_another_study_are_refused(runner, best_games):
    store, common = best_games
    _edit(store, "UPDATE settings SET settings = replace(settings, '\"seed\": 0', '\"seed\": 5')")
    _refused(runner, [*common, "--resume"], "played with other settings (seed)")


def test_a_stored_game_without_its_guesses_is_damaged(runner, best_games):
    store, common = best_games
    _edit(store, "UPDATE records SET answer = json_remove(answer, '$.guesses') WHERE case_key = '{\"index\":2}'")
    _refused(runner, [*common, "--resume"], "records row game 2: the answer is not a game's (no 'guesses')")


def test_a_study_resumed_whole_from_its_store(runner, best_games):
    store, common = best_games
    again = runner.invoke(app, [*common, "--resume"])
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["games"] == 3 and json.loads(again.stdout)["resumed"] == 3
