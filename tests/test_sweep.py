"""Sweeps on Dask and in this process, the results store, resume after a kill, reports from a store."""

import json
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cpsolve.cli import app
from cpsolve.errors import InternalError
from cpsolve.layout import SolveOptions
from cpsolve.layout.greedy import is_possible
from cpsolve.sweep.cases import iter_cases
from cpsolve.sweep.compare import run_comparison
from cpsolve.sweep.executors import DaskExecutor, InProcessExecutor, PoolExecutor
from cpsolve.sweep.report import CsvSpool, write_reports
from cpsolve.sweep.store import ResultStore

# Dask clusters, stores and interrupted sweeps: left out of the quick run, `pytest -m "not slow"`
pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def cluster():
    """One local Dask cluster of 2 workers shared by this module's tests (it takes seconds to start)."""
    with DaskExecutor(workers=2) as executor:
        yield executor


def _verdicts(executor, rows=(1, 4), cols=(1, 4), backends=("greedy", "cp")):
    seen = []
    comparison = run_comparison(
        iter_cases(rows, cols, None),
        list(backends),
        SolveOptions(workers=1),
        executor,
        on_case=lambda records: seen.extend((r.key, r.backend, r.status) for r in records),
    )
    return seen, comparison


def _without_times(report: dict) -> dict:
    for figures in report["backends"].values():
        for name in ("seconds", "median", "p95", "worst"):
            figures.pop(name)
    return report


def test_dask_gives_the_in_process_verdicts_case_by_case(cluster):
    here, here_report = _verdicts(InProcessExecutor())
    there, there_report = _verdicts(cluster)
    assert there == here and len(here) == 2 * 100
    assert _without_times(there_report.as_dict()) == _without_times(here_report.as_dict())
    with PoolExecutor(2) as pool:
        assert _verdicts(pool)[0] == here


def test_a_closed_pool_says_so():
    """Tasks given to a closed executor are the caller's bug: an InternalError, not an AttributeError on None."""
    pool = PoolExecutor(1)
    pool.close()
    pool.close()  # idempotent
    with pytest.raises(InternalError, match="closed"):
        next(pool.run(pow, [(2, 3)]))


def test_scheduler_address_runs_the_cli_sweep_there(cluster, runner, tmp_path):
    address = cluster.client.scheduler.address
    reports = []
    for extra in (["--scheduler", address], ["--jobs", "1"]):
        path = tmp_path / f"r{len(reports)}.json"
        result = runner.invoke(
            app,
            [
                "compare",
                "--rows",
                "2-5",
                "--cols",
                "2-5",
                "--backends",
                "greedy",
                "--json",
                str(path),
                "--quiet",
                *extra,
            ],
        )
        assert result.exit_code == 0, result.stdout + result.stderr
        reports.append(_without_times(json.loads(path.read_text())))
    assert reports[0] == reports[1] and reports[0]["cases"] == sum(r * c for r in range(2, 6) for c in range(2, 6))


def test_a_worker_that_dies_mid_task_loses_nothing_and_counts_nothing_twice(cluster, tmp_path):
    import sweep_helpers

    results = list(cluster.run(sweep_helpers.square_or_die, [(index, str(tmp_path)) for index in range(12)]))
    assert (tmp_path / "died").exists()
    assert sorted(results) == [(index, index * index) for index in range(12)]


def test_a_refused_address_is_one_line_and_exit_1(runner):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    result = runner.invoke(
        app, ["compare", "--rows", "2", "--cols", "2", "--scheduler", f"tcp://127.0.0.1:{port}", "--quiet"]
    )
    assert result.exit_code == 1 and time.monotonic() - started < 10
    assert len(result.stderr.strip().splitlines()) == 1 and "no Dask scheduler answers" in result.stderr


def _store_rows(path) -> int:
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def _start_sweep(store, signal_number: int, writes: int):
    """`cpsolve compare` over CASES_1_5 into `store`, sent `signal_number` right after the store's `writes`-th write
    (tests/sweep_helpers.py: the moment is fixed, where a signal sent from here could find the sweep done)."""
    arguments = [
        "--rows",
        "1-5",
        "--cols",
        "1-5",
        "--backends",
        "greedy,cp",
        "--dominance",
        "none",
        "--jobs",
        "1",
        "--store",
        str(store),
        "--quiet",
    ]
    run = (
        f"import sys; sys.path.insert(0, {os.path.join(ROOT, 'tests')!r}); import sweep_helpers; "
        f"sweep_helpers.compare_signalled_after({writes}, {int(signal_number)}, {arguments!r})"
    )
    # run from the store's folder: the package imported is the installed one, not a source tree in the working folder
    return subprocess.Popen(
        [sys.executable, "-c", run], cwd=os.path.dirname(store), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def _ended(process, timeout: float = 90.0) -> int:
    """The process's exit code once it ends; killed (and the test failed) if it runs past `timeout`."""
    try:
        return process.wait(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _wait_for_rows(process, store, rows: int, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while _store_rows(store) < rows:
        assert process.poll() is None, f"the sweep ended early: {process.stderr.read().decode()}"
        assert time.monotonic() < deadline, "the store stayed empty"
        time.sleep(0.05)


CASES_1_5 = [(r, c, m) for r in range(1, 6) for c in range(1, 6) for m in range(r * c)]


def test_a_killed_sweep_resumes_with_every_case_once(runner, tmp_path):
    store = tmp_path / "sweep.db"
    process = _start_sweep(store, signal.SIGKILL, writes=2)
    assert _ended(process) == -signal.SIGKILL, process.stderr.read().decode()
    kept = _store_rows(store)
    assert 40 <= kept < 2 * len(CASES_1_5) and kept % 2 == 0  # whole tasks only: both backends of each case

    report, table = tmp_path / "resumed.json", tmp_path / "resumed.csv"
    result = runner.invoke(
        app,
        [
            "compare",
            "--rows",
            "1-5",
            "--cols",
            "1-5",
            "--backends",
            "greedy,cp",
            "--dominance",
            "none",
            "--jobs",
            "1",
            "--store",
            str(store),
            "--resume",
            "--json",
            str(report),
            "--csv",
            str(table),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    data = json.loads(report.read_text())
    assert data["cases"] == len(CASES_1_5) and data["resumed"] == kept // 2
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT case_key, backend, status FROM records").fetchall()
    assert len(rows) == len({(key, backend) for key, backend, _ in rows}) == 2 * len(CASES_1_5)
    expected = {
        (json.dumps({"rows": r, "cols": c, "mines": m}, separators=(",", ":")), backend): "possible"
        if is_possible(r, c, m)
        else "impossible"
        for r, c, m in CASES_1_5
        for backend in ("greedy", "cp")
    }
    assert {(key, backend): status for key, backend, status in rows} == expected

    # the report rebuilt from the store is the sweep's own, byte for byte
    rebuilt_json, rebuilt_csv = tmp_path / "rebuilt.json", tmp_path / "rebuilt.csv"
    again = runner.invoke(app, ["report", str(store), "--json", str(rebuilt_json), "--csv", str(rebuilt_csv)])
    assert again.exit_code == 0, again.stdout + again.stderr
    assert rebuilt_json.read_text() == report.read_text()
    assert rebuilt_csv.read_text() == table.read_text()
    assert "agreement: 225/225 cases (all)" in again.stdout


def test_ctrl_c_keeps_what_finished_and_exits_130(tmp_path):
    store = tmp_path / "sweep.db"
    process = _start_sweep(store, signal.SIGINT, writes=1)
    assert _ended(process) == 130
    assert "interrupted" in process.stderr.read().decode()
    kept = _store_rows(store)
    assert 20 <= kept < 2 * len(CASES_1_5) and kept % 2 == 0


def test_report_of_an_unfinished_sweep_says_what_is_missing(runner, tmp_path):
    store = tmp_path / "s.db"
    with ResultStore(store) as results:
        key = results.register_settings("layout", {"time_limit": 60.0})
        results.begin_sweep(
            "layout", key, {"rows": [1, 2], "cols": [1, 2], "mines": None, "backends": ["greedy"], "total": 10}
        )
    result = runner.invoke(app, ["report", str(store)])
    assert result.exit_code == 0 and "10 of the sweep's cases are not in the store" in result.stderr
    assert runner.invoke(app, ["report", str(tmp_path / "none.db")]).exit_code == 1
    (tmp_path / "junk.db").write_text("not sqlite at all, not at all\n" * 100)
    junk = runner.invoke(app, ["report", str(tmp_path / "junk.db")])
    assert junk.exit_code == 1 and "not a cpsolve results store" in junk.stderr


def test_a_report_that_cannot_be_written_goes_to_a_fallback(tmp_path):
    _, comparison = _verdicts(InProcessExecutor(), (2, 3), (2, 3), ("greedy",))
    spool = CsvSpool(tmp_path / "gone" / "cases.csv")
    spool.add_case([])
    problems = write_reports(comparison, tmp_path / "gone" / "report.json", None, spool)
    assert len(problems) == 2
    assert problems[0].command_line().startswith("--csv ") and str(problems[0]).startswith("csv ")
    assert spool.spool.exists()
    fallback = str(problems[1]).rsplit("the report is in ", 1)[1]
    assert json.loads(Path(fallback).read_text())["cases"] == comparison.cases
    os.remove(fallback)
    spool.spool.unlink()


def test_a_backend_named_twice_is_refused_before_any_work(runner, tmp_path):
    """Its verdicts are counted and stored by name: twice counted every case twice and left a store
    that report called damaged."""
    store = tmp_path / "twice.db"
    result = runner.invoke(
        app, ["compare", "--rows", "2-3", "--cols", "2-3", "--backends", "greedy, greedy", "--store", str(store)]
    )
    assert result.exit_code == 1
    assert result.stderr == "cpsolve: --backends names 'greedy' twice; name each backend once\n"
    assert not store.exists()


@pytest.mark.parametrize("suffix", ["-journal", "-wal", "-shm"])
def test_a_report_named_as_the_store_s_own_side_file_is_refused(runner, tmp_path, suffix):
    """SQLite takes a file named after the store's journal for an unfinished one (or deletes it)."""
    store = tmp_path / "s.db"
    args = ["compare", "--rows", "2", "--cols", "2", "--backends", "greedy", "--store", str(store)]
    for option in ("--csv", "--json"):
        result = runner.invoke(app, [*args, option, f"{store}{suffix}", "--quiet"])
        assert result.exit_code == 1 and f"the same file as the store's {suffix} file" in result.stderr
    assert not store.exists()


def test_the_csv_report_is_made_as_any_output_is(runner, tmp_path):
    """It is spooled privately (0600) and copied into place: the report itself has the umask's mode."""
    old = os.umask(0o022)
    try:
        csv_path, json_path = tmp_path / "out.csv", tmp_path / "out.json"
        args = ["compare", "--rows", "2", "--cols", "2", "--backends", "greedy", "--quiet", "--jobs", "1"]
        result = runner.invoke(app, [*args, "--csv", str(csv_path), "--json", str(json_path)])
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.stderr
    assert stat.S_IMODE(csv_path.stat().st_mode) == stat.S_IMODE(json_path.stat().st_mode) == 0o644


def test_resume_needs_a_store(runner):
    result = runner.invoke(app, ["compare", "--rows", "2", "--cols", "2", "--resume", "--quiet"])
    assert result.exit_code == 2 and "--resume needs --store" in result.stderr  # a usage error


def test_random_games_are_the_same_on_any_number_of_workers(cluster, runner, tmp_path):
    from cpsolve.generate import GameSettings, summarise_games
    from cpsolve.sweep.games import run_games

    settings = GameSettings(8, 8, 10, "casual").check()
    alone = summarise_games(settings, 250)
    assert run_games(settings, 250, cluster) == (alone, 0)
    assert run_games(settings, 250, InProcessExecutor()) == (alone, 0)

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
    ]
    first = runner.invoke(app, [*common, "--games", "120"])
    assert first.exit_code == 0, first.stdout + first.stderr
    resumed = runner.invoke(
        app, [*common, "--games", "250", "--resume", "--scheduler", cluster.client.scheduler.address]
    )
    assert resumed.exit_code == 0, resumed.stdout + resumed.stderr
    assert json.loads(resumed.stdout) == {**alone, "resumed": 120}
    assert _store_rows(store) == 250


def _sweep_rows(path) -> int:
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM sweeps").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def _stop(process) -> None:
    """End a test's process group if it is still running (a failed test must leave nothing behind)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


def test_ctrl_c_during_a_dask_compare_is_one_line_and_keeps_the_store(runner, tmp_path):
    """Ctrl-C at a terminal reaches the whole process group: the workers too. Only the driver may answer it."""
    store = tmp_path / "sweep.db"
    # three cases of seconds each (2 x 1200, odd safe counts: impossible, proved by the model), one task
    command = [
        sys.executable,
        "-m",
        "cpsolve",
        "compare",
        "--rows",
        "2",
        "--cols",
        "1200",
        "--mines",
        "1797-1799",
        "--backends",
        "cp",
        "--dominance",
        "none",
        "--jobs",
        "2",
        "--store",
        str(store),
        "--quiet",
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 120
        while _sweep_rows(store) < 1:  # the sweep is recorded once the cluster is up
            assert process.poll() is None, process.stderr.read().decode()
            assert time.monotonic() < deadline, "the sweep never started"
            time.sleep(0.1)
        time.sleep(1.5)
        os.killpg(process.pid, signal.SIGINT)  # what a terminal does on Ctrl-C
        assert process.wait(timeout=60) == 130
    finally:
        _stop(process)
    assert process.stderr.read().decode() == "cpsolve: interrupted\n"
    report = runner.invoke(app, ["report", str(store)])
    assert report.exit_code == 0, report.stderr
    assert "did not finish" in report.stdout and "3 of the sweep's cases are not in the store" in report.stderr


_CTRL_C_SCRIPT = """
import sys

sys.path.insert(0, {tests!r})

if __name__ == "__main__":
    import sweep_helpers
    from cpsolve.interrupt import interrupts_between_solves
    from cpsolve.sweep.session import open_executor

    try:
        with interrupts_between_solves(), open_executor(None, 2) as executor:
            for _ in executor.run(sweep_helpers.long_solve, [({markers!r}, index) for index in range(2)]):
                pass
    except KeyboardInterrupt:
        print("cpsolve: interrupted", file=sys.stderr)
        sys.exit(130)
"""


def test_ctrl_c_while_workers_are_inside_cp_sat_prints_no_terminate_called(tmp_path):
    """CP-SAT catches SIGINT while it searches; in a Dask worker its handler ended the process with C++ lines."""
    script = tmp_path / "sweep.py"
    script.write_text(_CTRL_C_SCRIPT.format(tests=os.path.join(ROOT, "tests"), markers=str(tmp_path)))
    process = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    markers = [tmp_path / "solving-0", tmp_path / "solving-1"]
    try:
        deadline = time.monotonic() + 120
        while not all(marker.exists() for marker in markers):
            assert process.poll() is None, process.stderr.read().decode()
            assert time.monotonic() < deadline, "the workers never started solving"
            time.sleep(0.1)
        time.sleep(1.0)  # both searches running, CP-SAT's handlers installed
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(timeout=60) == 130
    finally:
        _stop(process)
    stderr = process.stderr.read().decode()
    assert "terminate called" not in stderr and "Traceback" not in stderr
    assert stderr == "cpsolve: interrupted\n"
    # the workers, in sessions of their own, ended with the sweep
    for pid in (int(marker.read_text()) for marker in markers):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            os.kill(pid, signal.SIGKILL)
            pytest.fail(f"worker {pid} outlived the sweep")


@pytest.mark.parametrize("answer", [None, b"HTTP/1.1 400 Bad Request\r\n\r\n" * 10])
def test_an_address_where_something_else_listens_is_one_line(answer):
    """A listener that never answers (Dask's own handshake waits for ever) or answers something else: exit 1,
    one line."""
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # the test closed the server
                return
            if answer is None:
                held.append(connection)  # accepted, never answered
            else:
                connection.sendall(answer)
                connection.close()

    threading.Thread(target=serve, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "cpsolve",
                "compare",
                "--rows",
                "2",
                "--cols",
                "2",
                "--scheduler",
                address,
                "--quiet",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=90,
        )
    finally:
        server.close()
        for connection in held:
            connection.close()
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and f"--scheduler {address}: " in result.stderr, result.stderr


# --- the size of a sweep: checked before any work, counted without listing, reported from what is stored -----


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--rows", "50000", "--cols", "50000"], "50000x50000, is larger than 100,000,000 cells"),
        (["--rows", "1-99999999999999999999", "--cols", "1"], "99999999999999999999x1, is larger than"),
        (["--rows", "1-" + "9" * 5000, "--cols", "1"], "99999999999999999999... (5000 characters)x1"),
        (["--rows", "1-100", "--cols", "1-100"], "the ranges hold 25,502,500 cases, more than the 10,000,000"),
        (
            ["--rows", "300", "--cols", "300", "--mines", "0-0", "--backends", "greedy,cp:levels"],
            "a 300x300 board (the largest of the ranges) is larger than the 40000 cells the cp:levels model takes",
        ),
        (
            ["--rows", "1-300", "--cols", "300", "--mines", "0-0", "--dominance", "none"],
            "the cp model takes with a template, a pinned click or a dominance other than staircase",
        ),
        (["--rows", "250", "--cols", "250", "--mines", "0-0", "--backends", "minizinc"], "the minizinc model takes"),
        (
            ["--rows", "2", "--cols", "2", "--mines", "0-" + "x" * 5000],
            "got '0-xxxxxxxxxxxxxxxxxx... (5002 characters)'",
        ),
        (["--rows", "٣", "--cols", "2"], "--rows must be A-B or A with integers, got '٣'"),
    ],
)
def test_compare_refuses_a_sweep_too_large_before_any_work(runner, tmp_path, args, fragment):
    store = tmp_path / "s.db"
    started = time.monotonic()
    result = runner.invoke(app, ["compare", *args, "--store", str(store), "--quiet"])
    assert result.exit_code == 1 and fragment in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and len(result.stderr) < 300 and result.stdout == ""
    assert time.monotonic() - started < 5 and not store.exists()


def test_a_huge_range_is_refused_at_once_and_ctrl_c_is_never_held(tmp_path):
    """``--rows 1-99999999999999999999 --cols 1`` once looped for ever counting its cases, holding Ctrl-C."""
    command = [
        sys.executable,
        "-m",
        "cpsolve",
        "compare",
        "--rows",
        "1-99999999999999999999",
        "--cols",
        "1-9",
        "--quiet",
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "is larger than" in done.stderr and done.stderr.count("\n") == 1


def test_counting_cases_agrees_with_listing_them():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from cpsolve.sweep.cases import count_cases

    span = st.tuples(st.integers(1, 12), st.integers(0, 9)).map(lambda pair: (pair[0], pair[0] + pair[1]))
    mines = st.none() | st.tuples(st.integers(0, 150), st.integers(0, 150)).map(lambda pair: (pair[0], sum(pair)))

    @settings(max_examples=300, deadline=None)
    @given(span, span, mines)
    def agree(rows, cols, mine_span):
        assert count_cases(rows, cols, mine_span) == sum(1 for _ in iter_cases(rows, cols, mine_span))

    agree()
    # the largest ranges accepted count in a blink: the time grows with the shorter range only
    started = time.perf_counter()
    assert count_cases((1, 10_000), (1, 10_000), (0, 0)) == 100_000_000
    longest = 100_000_000 - 5  # boards 1xC hold C - 5 cases from C = 6 on: 1 + 2 + ... + longest
    assert count_cases((1, 1), (1, 100_000_000), (5, 10**30)) == longest * (longest + 1) // 2
    assert time.perf_counter() - started < 1


def test_report_of_a_stopped_sweep_over_a_million_board_shapes(runner, tmp_path):
    """A genuine store of ``compare --rows 1-1001 --cols 1-1000 --mines 0-0`` stopped by Ctrl-C: report counts what
    is stored and what is missing (it once called such a store damaged, "ranges larger than any sweep")."""
    store = tmp_path / "S.db"
    command = [
        sys.executable,
        "-m",
        "cpsolve",
        "compare",
        "--rows",
        "1-1001",
        "--cols",
        "1-1000",
        "--mines",
        "0-0",
        "--backends",
        "greedy",
        "--jobs",
        "1",
        "--store",
        str(store),
        "--quiet",
    ]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for_rows(process, store, 4000)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130
    finally:
        if process.poll() is None:
            process.kill()
    stored = _store_rows(store)
    started = time.monotonic()
    result = runner.invoke(app, ["report", str(store), "--json", str(tmp_path / "r.json")])
    assert result.exit_code == 0, result.stderr
    assert f"{1001 * 1000 - stored} of the sweep's cases are not in the store" in result.stderr
    assert f"{stored} cases from the store" in result.stdout and "did not finish" in result.stdout
    assert json.loads((tmp_path / "r.json").read_text())["cases"] == stored
    assert time.monotonic() - started < 30  # the time of what is stored, not of the million cases that are not


def test_report_states_the_limit_of_a_spec_without_its_count(runner, tmp_path):
    """A store from before the spec kept its case count: its cases are counted, within compare's own limits."""
    store = tmp_path / "s.db"
    with ResultStore(store) as results:
        key = results.register_settings("layout", {"time_limit": 60.0})
        results.begin_sweep(
            "layout", key, {"rows": [1, 10**20], "cols": [1, 10**20], "mines": None, "backends": ["greedy"]}
        )
    result = runner.invoke(app, ["report", str(store)])
    assert result.exit_code == 1 and "no case count, and the largest board of the ranges" in result.stderr
    assert "larger than 100,000,000 cells" in result.stderr and result.stderr.count("\n") == 1


# --- a local cluster that cannot start -------------------------------------------------------------------------


def _limited_files(soft: int, hard: int):
    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    return limit


def test_a_cluster_that_cannot_open_its_files_is_one_line():
    """With 32 open files allowed, Dask printed 119 lines of "Nanny failed to start" (with 16, its loop spun on
    the error for ever): the limit is checked first."""
    command = [
        sys.executable,
        "-m",
        "cpsolve",
        "stats",
        "--random",
        "9",
        "9",
        "10",
        "--games",
        "20",
        "--jobs",
        "2",
        "--quiet",
    ]
    for files in (20, 32, 48):
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=120, preexec_fn=_limited_files(files, files)
        )
        assert done.returncode == 1 and done.stdout == "", done.stderr[-2000:]
        assert done.stderr == (
            f"cpsolve: a local Dask cluster of 2 workers needs about 56 open files, and this "
            f"process may open {files} (ulimit -n); raise the limit, or give fewer --jobs "
            "(--jobs 1 runs here)\n"
        )


def test_a_low_soft_limit_on_open_files_is_raised_to_start_the_cluster(tmp_path):
    command = [
        sys.executable,
        "-m",
        "cpsolve",
        "stats",
        "--random",
        "9",
        "9",
        "10",
        "--games",
        "20",
        "--jobs",
        "2",
        "--quiet",
        "--format",
        "json",
    ]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=180, preexec_fn=_limited_files(32, 4096)
    )
    assert done.returncode == 0, done.stderr[-2000:]
    alone = subprocess.run(command[:-5] + ["--format", "json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert json.loads(done.stdout) == {**json.loads(alone.stdout), "resumed": 0}


def test_any_other_failure_to_start_a_cluster_is_one_line(runner, monkeypatch):
    import dask.distributed

    def fails(*args, **kwargs):
        try:
            raise OSError(24, "Too many open files")
        except OSError as error:
            raise RuntimeError("Nanny failed to start.") from error

    monkeypatch.setattr(dask.distributed, "LocalCluster", fails)  # the name the executor imports
    result = runner.invoke(app, ["stats", "--random", "9", "9", "10", "--games", "20", "--jobs", "2", "--quiet"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        "cpsolve: the local Dask cluster of 2 workers could not start (Too many open files); "
        "try fewer --jobs, or --jobs 1 to run here\n"
    )


# --- a scheduler that does not answer leaves nothing behind -----------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("scheme", ["tcp", "tls"])
@pytest.mark.parametrize(
    "command",
    [["stats", "--random", "9", "9", "10", "--games", "20"], ["compare", "--rows", "2", "--cols", "2"]],
    ids=lambda command: command[0],
)
def test_a_scheduler_that_does_not_answer_leaves_no_new_store(runner, tmp_path, scheme, command):
    """Once a new, empty store stayed behind; and over tls:// nothing listening was called "not a Dask scheduler"."""
    store = tmp_path / "new.db"
    address = f"{scheme}://127.0.0.1:{_free_port()}"
    result = runner.invoke(app, [*command, "--scheduler", address, "--store", str(store), "--quiet"])
    assert (
        result.exit_code == 1
        and result.stderr == f"cpsolve: --scheduler {address}: no Dask scheduler answers (Connection refused)\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_tls_address_without_dask_s_tls_settings_says_so(runner, tmp_path):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"tls://127.0.0.1:{server.getsockname()[1]}"
        result = runner.invoke(
            app,
            [
                "stats",
                "--random",
                "9",
                "9",
                "10",
                "--scheduler",
                address,
                "--store",
                str(tmp_path / "new.db"),
                "--quiet",
            ],
        )
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "a tls:// address needs Dask's TLS settings" in result.stderr and list(tmp_path.iterdir()) == []


def test_an_existing_store_is_checked_before_the_scheduler(runner, tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("not a store\n" * 20)
    result = runner.invoke(
        app,
        [
            "compare",
            "--rows",
            "2",
            "--cols",
            "2",
            "--scheduler",
            f"tcp://127.0.0.1:{_free_port()}",
            "--store",
            str(junk),
            "--quiet",
        ],
    )
    assert result.exit_code == 1 and "not a cpsolve results store" in result.stderr
    assert junk.read_text() == "not a store\n" * 20


# --- an unusable TMPDIR is the environment's fault: exit 1, naming it ------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["compare", "--rows", "2", "--cols", "2", "--backends", "greedy", "--csv", "{out}/cases.csv"],
        ["compare", "--rows", "2", "--cols", "2", "--jobs", "2", "--store", "{out}/s.db"],
        ["stats", "--random", "9", "9", "10", "--games", "20", "--jobs", "2", "--store", "{out}/g.db"],
    ],
    ids=["csv spool", "local cluster", "games on a local cluster"],
)
@pytest.mark.parametrize("kind", ["missing", "a file"])
def test_an_unusable_tmpdir_is_one_line_naming_it(runner, tmp_path, monkeypatch, command, kind):
    out = tmp_path / "out"
    out.mkdir()
    tmpdir = tmp_path / "tmp"
    if kind == "a file":
        tmpdir.write_text("")
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    result = runner.invoke(app, [part.format(out=out) for part in command] + ["--quiet"])
    reason = "does not exist" if kind == "missing" else "is not a folder"
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == f"cpsolve: TMPDIR={tmpdir} {reason}: set TMPDIR to a writable folder, or unset it\n"
    assert list(out.iterdir()) == []  # no store, no report left behind


def test_a_greedy_sweep_on_a_pool_resumes_from_its_store(runner, tmp_path):
    """Found by the fuzz: the pool drew the tasks in a thread of its own, where reading the store (resume) failed, and
    the store was called damaged."""
    store, report = tmp_path / "s.db", tmp_path / "r.json"
    common = [
        "compare",
        "--rows",
        "1-5",
        "--cols",
        "1-5",
        "--backends",
        "greedy",
        "--jobs",
        "2",
        "--store",
        str(store),
        "--quiet",
    ]
    first = runner.invoke(app, [*common[:2], "1-3", *common[3:]])
    assert first.exit_code == 0, first.stderr
    again = runner.invoke(app, [*common, "--resume", "--json", str(report)])
    assert again.exit_code == 0, again.stderr
    data = json.loads(report.read_text())
    assert data["cases"] == len(CASES_1_5) and data["resumed"] == sum(r * c for r in range(1, 4) for c in range(1, 6))
