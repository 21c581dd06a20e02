"""cpsolve compare: a small range end to end, a forced disagreement, an undecided case."""

import json

from cpsolve.cli import app
from cpsolve.layout import LayoutResult, Status
from cpsolve.layout.backends import register_backend
from cpsolve.layout.greedy import greedy_board, is_possible


def test_small_range_agrees_with_the_rule(runner, tmp_path):
    report = tmp_path / "report.json"
    table = tmp_path / "cases.csv"
    result = runner.invoke(
        app,
        [
            "compare",
            "--rows",
            "1-4",
            "--cols",
            "2-4",
            "--backends",
            "greedy,cp",
            "--dominance",
            "none",
            "--jobs",
            "2",
            "--json",
            str(report),
            "--csv",
            str(table),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.stdout
    data = json.loads(report.read_text())
    cases = [(r, c, m) for r in range(1, 5) for c in range(2, 5) for m in range(r * c)]
    assert data["cases"] == len(cases) and data["disagreements"] == [] and data["invalid_boards"] == []
    impossible = sum(not is_possible(*case) for case in cases)
    for backend in ("greedy", "cp"):
        figures = data["backends"][backend]
        assert (figures["possible"], figures["impossible"], figures["unknown"]) == (
            len(cases) - impossible,
            impossible,
            0,
        )
        assert figures["worst"] >= figures["p95"] >= figures["median"] >= 0
    lines = table.read_text().splitlines()
    assert lines[0] == "rows,cols,mines,backend,verdict,seconds" and len(lines) == 1 + 2 * len(cases)
    assert f"agreement: {len(cases)}/{len(cases)} cases (all)" in result.stdout


def _contrarian(problem, options):
    """A fake backend that calls the 3x3 boards with 8 safe cells impossible."""
    if (problem.rows, problem.cols, problem.mines) == (3, 3, 1):
        return LayoutResult(Status.IMPOSSIBLE)
    board = greedy_board(problem.rows, problem.cols, problem.mines)
    return LayoutResult(Status.POSSIBLE, board) if board is not None else LayoutResult(Status.IMPOSSIBLE)


def _liar(problem, options):
    """A fake backend whose boards are all mines but the click."""
    board = greedy_board(problem.rows, problem.cols, 0)
    board.mines[:] = True
    board.mines[0, 0] = False
    return LayoutResult(Status.POSSIBLE, board)


def test_forced_disagreement_exits_1_and_is_listed(runner, tmp_path):
    register_backend("contrarian", _contrarian)
    report = tmp_path / "r.json"
    result = runner.invoke(
        app,
        [
            "compare",
            "--rows",
            "3",
            "--cols",
            "3",
            "--backends",
            "greedy,contrarian",
            "--jobs",
            "1",
            "--json",
            str(report),
            "--quiet",
        ],
    )
    assert result.exit_code == 1
    assert "DISAGREE 3 3 1: greedy=possible, contrarian=impossible" in result.stdout
    data = json.loads(report.read_text())
    assert data["disagreements"] == [
        {"rows": 3, "cols": 3, "mines": 1, "verdicts": {"greedy": "possible", "contrarian": "impossible"}}
    ]


def test_invalid_board_exits_1(runner):
    register_backend("liar", _liar)
    result = runner.invoke(
        app, ["compare", "--rows", "3", "--cols", "3", "--mines", "0-2", "--backends", "liar", "--jobs", "1", "--quiet"]
    )
    assert result.exit_code == 1 and "INVALID BOARD 3 3 0 (liar)" in result.stdout


def _out_of_time(problem, options):
    return LayoutResult(Status.UNKNOWN)


def test_undecided_case_exits_3(runner):
    """A backend whose time ran out: counted as unknown, never as a disagreement; exit 3."""
    register_backend("out_of_time", _out_of_time)
    result = runner.invoke(
        app,
        [
            "compare",
            "--rows",
            "3",
            "--cols",
            "3",
            "--mines",
            "1-2",
            "--backends",
            "greedy,out_of_time",
            "--jobs",
            "1",
            "--quiet",
        ],
    )
    assert result.exit_code == 3, result.stdout
    assert "undecided: 2" in result.stdout and "agreement: 2/2" in result.stdout


def test_bad_ranges_and_backends(runner):
    assert runner.invoke(app, ["compare", "--rows", "5-2"]).exit_code == 1
    assert runner.invoke(app, ["compare", "--rows", "x"]).exit_code == 1
    bad = runner.invoke(app, ["compare", "--backends", "greedy,nope"])
    assert bad.exit_code == 1 and "unknown backend 'nope'" in bad.stderr


def test_plot_is_written(runner, tmp_path):
    picture = tmp_path / "sweep.png"
    result = runner.invoke(
        app, ["compare", "--rows", "1-4", "--cols", "1-4", "--backends", "greedy", "--plot", str(picture), "--quiet"]
    )
    assert result.exit_code == 0
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 10_000


def test_a_wrong_board_is_never_returned():
    """solve() judges every board: a backend's wrong board raises instead of reaching a printer."""
    import pytest

    from cpsolve.layout import LayoutProblem, WrongBoardError, solve

    register_backend("liar", _liar)
    with pytest.raises(WrongBoardError, match="safe cells stay covered|mines"):
        solve(LayoutProblem(3, 3, 0), "liar")


def test_the_backend_check_imports_no_solver():
    """OR-Tools starts a thread when imported; one started before the sweep holds Ctrl-C could take Ctrl-C mid-solve."""
    import subprocess
    import sys

    code = (
        "import sys; from cpsolve.cli.compare import _backend_names; print(_backend_names('greedy, cp,minizinc'));"
        " print(sorted({name.split('.')[0] for name in sys.modules} & {'ortools', 'minizinc'}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.splitlines() == ["['greedy', 'cp', 'minizinc']", "[]"], result.stderr


def test_settings_keys_are_those_of_stores_written_before_phases_existed():
    """A store's records are keyed by the settings that decide verdicts; fields added later are left
    out at their default, and an output path never counts, so old stores still resume."""
    from cpsolve.layout import SolveOptions
    from cpsolve.sweep.compare import layout_settings

    before = {
        "time_limit": 60.0,
        "seed": 0,
        "encoding": None,
        "dominance": None,
        "solver": "gecode",
        "relaxation_share": 0.3,
    }
    assert layout_settings(SolveOptions()) == before
    assert layout_settings(SolveOptions(workers=3, export_model="m.pbtxt")) == before
    assert layout_settings(SolveOptions(phases=("model",))) == {**before, "phases": ("model",)}
    assert layout_settings(SolveOptions(model="textbook", log=True)) == {**before, "model": "textbook"}
