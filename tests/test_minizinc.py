"""The MiniZinc backend (models/one_click.mzn on Gecode) against CP-SAT, greedy and brute force."""

import itertools
import json
import shutil

import pytest
from bruteforce import rectangle_wins

from cpsolve.cli import app
from cpsolve.layout import LayoutProblem, SolveOptions, Status, solve

# every case up to 5x5 through MiniZinc and Gecode, a process each: left out of the quick run, `pytest -m "not slow"`
pytestmark = pytest.mark.slow

needs_minizinc = pytest.mark.skipif(
    shutil.which("minizinc") is None, reason="minizinc executable not installed (apt-get install minizinc)"
)


@needs_minizinc
def test_every_case_up_to_5x5_agrees_with_cp_and_greedy(runner, tmp_path):
    report = tmp_path / "report.json"
    result = runner.invoke(
        app,
        [
            "compare",
            "--rows",
            "1-5",
            "--cols",
            "1-5",
            "--backends",
            "minizinc,cp,greedy",
            "--dominance",
            "none",
            "--jobs",
            "2",
            "--time-limit",
            "60",
            "--json",
            str(report),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.stdout
    data = json.loads(report.read_text())
    assert data["cases"] == 225 and data["disagreements"] == [] and data["invalid_boards"] == []
    assert data["backends"]["minizinc"]["unknown"] == 0
    assert data["backends"]["minizinc"]["impossible"] == data["backends"]["greedy"]["impossible"]


@needs_minizinc
@pytest.mark.parametrize("rows,cols", [(3, 3), (2, 3)])
def test_pinned_clicks_equal_brute_force(rows, cols):
    wins = rectangle_wins(rows, cols)
    for mines in range(rows * cols):
        for click in itertools.product(range(rows), range(cols)):
            result = solve(LayoutProblem(rows, cols, mines, click=click), "minizinc", SolveOptions(time_limit=30))
            assert (result.status is Status.POSSIBLE) == (click in wins.get(mines, ())), (rows, cols, mines, click)
            if result.board is not None:
                assert result.board.click == click


@needs_minizinc
def test_template_with_holes(tmp_path):
    template = ("??#??", "??#??")
    assert solve(LayoutProblem(2, 5, 0, template=template), "minizinc").status is Status.IMPOSSIBLE
    result = solve(LayoutProblem(2, 5, 4, template=template), "minizinc")
    assert result.status is Status.POSSIBLE and result.board.to_rows()[0][2] == "#"


def test_missing_executable_gives_the_install_hint(runner, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    result = runner.invoke(app, ["layout", "3", "3", "1", "--backend", "minizinc"])
    assert result.exit_code == 1
    assert "apt-get install minizinc" in result.stderr and result.stderr.count("\n") == 1


@needs_minizinc
def test_time_limit_gives_unknown_and_exit_3(runner):
    result = runner.invoke(app, ["layout", "30", "30", "400", "--backend", "minizinc", "--time-limit", "0.001"])
    assert result.exit_code == 3 and "time limit" in result.stderr and result.stdout == ""


@pytest.mark.parametrize("spent, limit, code", [(0.05, "0.002", 3), (0.0, "30", 4)])
def test_minizinc_failing_once_its_time_ran_out_is_unknown(runner, monkeypatch, spent, limit, code):
    """At a limit of a few milliseconds MiniZinc may fail while its solver starts ("Error in
    communication with solver"): past the limit that is the time running out (exit 3); well before
    it, a failure is a failure (exit 4)."""
    import subprocess
    import time

    from cpsolve.layout import minizinc

    def failed(command, **kwargs):
        time.sleep(spent)
        stderr = "Error: error: Error in communication with solver: Invalid argument\n"
        return subprocess.CompletedProcess(command, 1, stdout="", stderr=stderr)

    monkeypatch.setattr(minizinc.shutil, "which", lambda name: "/usr/bin/minizinc")
    monkeypatch.setattr(minizinc.subprocess, "run", failed)
    result = runner.invoke(app, ["layout", "30", "30", "400", "--backend", "minizinc", "--time-limit", limit])
    assert result.exit_code == code and result.stdout == "" and result.stderr.count("\n") == 1
