"""One error path for every command: exit codes, option checks, broken pipes, and the edge cases of the formats."""

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cpsolve import __version__
from cpsolve.cli import app
from cpsolve.errors import UsageError
from cpsolve.layout import LayoutResult, Status
from cpsolve.layout.backends import _registered as registered_backends
from cpsolve.layout.greedy import greedy_board


def _one_line(result) -> bool:
    return result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_version(runner):
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"cpsolve {__version__}\n"


#: Every command that takes --time-limit, with what it needs besides.
TIMED_COMMANDS = [
    ["layout", "5", "5", "3", "--backend", "cp"],
    ["compare", "--rows", "2", "--cols", "2", "--quiet"],
    ["puzzle", str(Path(__file__).parent.parent / "examples" / "puzzles" / "ring_with_total.txt")],
    ["hint", str(Path(__file__).parent.parent / "examples" / "puzzles" / "ring_with_total.txt")],
    ["generate", "9", "9", "10"],
    ["game", "9", "9", "10"],
]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "1e300", "1000001"])
@pytest.mark.parametrize("command", TIMED_COMMANDS, ids=lambda command: command[0])
def test_a_time_limit_out_of_range_is_a_usage_error_in_every_command(runner, command, value):
    """0 is no limit to no one here: a usage error (exit 2), like an unknown choice; so are NaN, infinities,
    negatives and limits past the longest every backend honours."""
    result = runner.invoke(app, [*command, "--time-limit", value])
    assert result.exit_code == 2 and "--time-limit must be a number of seconds above 0" in result.stderr, result.stderr
    assert _one_line(result) and result.stdout == ""


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc is not installed")
def test_minizinc_is_never_handed_a_limit_it_reads_as_none_or_cannot_take(runner, monkeypatch):
    """A sub-millisecond limit was passed as MiniZinc's 0, which means no limit (it ran until killed); one past
    about 2,147,453 s was an OverflowError."""
    import time

    from cpsolve.layout import LayoutProblem, SolveOptions, solve
    from cpsolve.layout.minizinc import MAX_TIME_LIMIT_MS, time_limit_ms

    assert time_limit_ms(0.0004) == 1 and time_limit_ms(0.0019) == 1 and time_limit_ms(2.5) == 2500
    import subprocess

    from cpsolve.layout import minizinc

    handed = []
    real_run = subprocess.run

    def run(command, **kwargs):
        handed.append((command[command.index("--time-limit") + 1], kwargs["timeout"]))
        return real_run(command, **kwargs)

    monkeypatch.setattr(minizinc.subprocess, "run", run)
    started = time.monotonic()
    result = runner.invoke(app, ["layout", "3", "3", "1", "--backend", "minizinc", "--time-limit", "0.0005"])
    assert result.exit_code in (0, 3) and time.monotonic() - started < 30, result.stderr
    assert handed == [("1", 30.0005)]  # a millisecond, MiniZinc's least limit: never its 0, which is none
    result = runner.invoke(app, ["layout", "3", "3", "1", "--backend", "minizinc", "--time-limit", "1000000"])
    assert result.exit_code == 0 and result.stdout.splitlines() == ["c..", "...", "..*"]
    with pytest.raises(UsageError, match="more than the minizinc backend honours"):
        solve(LayoutProblem(3, 3, 1), "minizinc", SolveOptions(time_limit=MAX_TIME_LIMIT_MS / 1000 + 1))
    with pytest.raises(UsageError, match="more than the minizinc backend honours"):
        solve(LayoutProblem(3, 3, 1), "minizinc", SolveOptions(time_limit=2_147_460))


@pytest.mark.parametrize(
    "option,value", [("--workers", "0"), ("--workers", "100000"), ("--seed", "-1"), ("--seed", str(2**31))]
)
def test_counts_and_seeds_are_bounded(runner, option, value):
    result = runner.invoke(app, ["layout", "5", "5", "3", "--backend", "cp", option, value])
    assert result.exit_code == 1 and option in result.stderr and _one_line(result)


@pytest.mark.parametrize("option,value", [("--jobs", "0"), ("--jobs", "99999"), ("--workers", "0")])
def test_compare_counts_are_bounded(runner, option, value):
    result = runner.invoke(app, ["compare", "--rows", "2", "--cols", "2", option, value, "--quiet"])
    assert result.exit_code == 1 and option in result.stderr and _one_line(result)


def test_unknown_option_is_a_usage_error(runner):
    assert runner.invoke(app, ["layout", "3", "3", "1", "--bogus"]).exit_code == 2
    assert runner.invoke(app, ["casual", "x", "--bogus"]).exit_code == 2


def test_report_paths_are_checked_before_any_work(runner, tmp_path):
    """A sweep must not run for minutes and then lose its results to a path it cannot write."""
    for option in ("--json", "--csv", "--plot"):
        result = runner.invoke(
            app, ["compare", "--rows", "1-40", "--cols", "1-40", option, "/nonexistent/r.out", "--quiet"]
        )
        assert result.exit_code == 1 and "/nonexistent" in result.stderr and _one_line(result)
    result = runner.invoke(app, ["compare", "--rows", "2", "--cols", "2", "--json", str(tmp_path), "--quiet"])
    assert result.exit_code == 1 and "directory" in result.stderr


def _lying_greedy(problem, options):
    board = greedy_board(problem.rows, problem.cols, problem.mines)
    board.mines[:] = False  # every mine dropped: the judge must refuse it
    return LayoutResult(Status.POSSIBLE, board)


def test_a_wrong_board_exits_4_and_prints_nothing(runner, monkeypatch):
    monkeypatch.setitem(registered_backends, "greedy", _lying_greedy)
    result = runner.invoke(app, ["layout", "3", "3", "1"])
    assert result.exit_code == 4 and result.stdout == ""
    assert "internal error" in result.stderr or "wrong board" in result.stderr
    assert _one_line(result)


def test_ctrl_c_exits_130(runner, monkeypatch):
    def interrupted(problem, options):
        raise KeyboardInterrupt

    monkeypatch.setitem(registered_backends, "greedy", interrupted)
    result = runner.invoke(app, ["layout", "3", "3", "1"])
    assert result.exit_code == 130 and "interrupted" in result.stderr


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`cpsolve layout -i big | head -1`: no traceback when the reader goes away."""
    cases = tmp_path / "big.in"
    cases.write_text("3000\n" + "50 50 100\n" * 3000)
    process = subprocess.Popen(
        [sys.executable, "-m", "cpsolve", "layout", "-i", str(cases)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout.read(9) == b"Case #1:\n"
    process.stdout.close()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert b"Traceback" not in stderr and b"BrokenPipe" not in stderr


def test_click_must_agree_with_the_templates_c(runner, tmp_path):
    template = tmp_path / "t.txt"
    template.write_text("c??\n???\n???\n")
    result = runner.invoke(app, ["layout", "--template", str(template), "1", "--click", "3,3"])
    assert result.exit_code == 1 and "differs from the template" in result.stderr
    result = runner.invoke(app, ["layout", "--template", str(template), "1", "--click", "1,1"])
    assert result.exit_code == 0 and result.stdout.splitlines()[0][0] == "c"


def test_ragged_template_is_padded_with_holes(runner, tmp_path):
    """A short row is padded with '#': the padded cells are no cells, drawn as '#' and never mines."""
    template = tmp_path / "t.txt"
    template.write_text("....\n..\n....\n")
    result = runner.invoke(app, ["layout", "--template", str(template), "0"])
    assert result.exit_code == 0
    rows = result.stdout.split()
    assert rows[1][2:] == "##" and all(len(row) == 4 for row in rows) and "*" not in "".join(rows)
    # 10 cells: 9 mines leave one safe cell, the padding must not count as a cell
    assert runner.invoke(app, ["layout", "--template", str(template), "10"]).exit_code == 1


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_check_reads_the_one_line_impossible_form(runner, tmp_path):
    cases = _write(tmp_path, "in", "2\n2 2 1\n1 3 1\n")
    result = runner.invoke(app, ["check", cases, _write(tmp_path, "out", "Case #1: Impossible\nCase #2: c.*\n")])
    assert result.exit_code == 0 and "2/2 cases accepted" in result.stdout


@pytest.mark.parametrize(
    "output,lines",
    [
        # a gap is the missing case's fault alone: the case after it is in order
        ("Case #1:\nc\nCase #3:\nc.\n", ["Case #2: rejected: missing case", "2/3 cases accepted, 1 rejected"]),
        (
            "Case #1:\nc\nCase #3:\nc.\nCase #2:\n*\nc\n",
            ["Case #2: rejected: out of order: after Case #3", "2/3 cases accepted, 1 rejected"],
        ),
        (
            "Case #2:\n*\nc\nCase #1:\nc\nCase #3:\nc.\n",
            ["Case #1: rejected: out of order: after Case #2", "2/3 cases accepted, 1 rejected"],
        ),
        # two answers to one case: neither stands, and the counts still add up to the cases
        (
            "Case #1:\nc\nCase #1:\nc\nCase #2:\n*\nc\nCase #3:\nc.\n",
            ["Case #1: rejected: case repeated, line 3", "2/3 cases accepted, 1 rejected"],
        ),
        ("Case #1:\nc\nCase #2:\n*\nc\nCase #3:\nc.\n", ["3/3 cases accepted"]),
    ],
    ids=["missing", "late", "swapped", "repeated", "all"],
)
def test_check_gives_each_case_one_verdict(runner, tmp_path, output, lines):
    cases = _write(tmp_path, "in", "3\n1 1 0\n2 1 1\n1 2 0\n")
    result = runner.invoke(app, ["check", cases, _write(tmp_path, "out", output)])
    assert result.stdout.splitlines() == lines and result.exit_code == (0 if len(lines) == 1 else 1)


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc is not installed")
def test_unknown_minizinc_solver_is_one_line(runner):
    result = runner.invoke(app, ["layout", "3", "3", "1", "--backend", "minizinc", "--solver", "nosuch"])
    assert result.exit_code == 1 and "nosuch" in result.stderr and _one_line(result)


def test_math_isfinite_guard_is_used_for_every_limit():
    """The shared checker refuses what CP-SAT would call MODEL_INVALID."""
    from cpsolve.answers.checks import check_time_limit
    from cpsolve.errors import EXIT_USAGE, ParameterError

    for bad in (math.nan, math.inf, 0.0, -3.0, 1e7):
        with pytest.raises(ParameterError) as refused:
            check_time_limit(bad)
        assert refused.value.exit_code == EXIT_USAGE and refused.value.command_line().startswith("--time-limit ")
    assert check_time_limit(0.5) == 0.5


def test_every_cp_sat_status_maps_to_one_status_and_an_invalid_model_is_a_bug():
    """The one mapping of CP-SAT's statuses: MODEL_INVALID is an internal error, never "unknown"."""
    from ortools.sat.python import cp_model

    from cpsolve.errors import InternalError
    from cpsolve.outcome import Status, status_from_cp_sat

    assert status_from_cp_sat(cp_model.OPTIMAL) is Status.POSSIBLE
    assert status_from_cp_sat(cp_model.FEASIBLE) is Status.POSSIBLE
    assert status_from_cp_sat(cp_model.INFEASIBLE) is Status.IMPOSSIBLE
    assert status_from_cp_sat(cp_model.UNKNOWN) is Status.UNKNOWN
    model = cp_model.CpModel()
    model.proto.variables.add().domain.extend([3, 1])  # an empty domain: CP-SAT refuses the model
    code = cp_model.CpSolver().solve(model)
    assert code == cp_model.MODEL_INVALID
    with pytest.raises(InternalError, match="invalid domain"):
        status_from_cp_sat(code, model)


# --- values that once became tracebacks -------------------------------------------------------------------------

BOARD = ["c..", "...", "..*"]
BIG = "1" * 4301  # past Python's 4,300-digit limit on int <-> str


@pytest.mark.parametrize("form", ["case", "json"])
@pytest.mark.parametrize("number", ["-1", "0", BIG, str(2**63)])
@pytest.mark.parametrize(
    "command",
    [
        ["play", "--player", "best", "--click", "1,1"],
        ["play", "--format", "json"],
        ["stats"],
        ["casual", "--explain"],
        ["stats", "--format", "json"],
    ],
    ids=lambda command: " ".join(command),
)
def test_a_case_number_out_of_range_is_one_line(runner, tmp_path, form, number, command):
    path = tmp_path / "boards.txt"
    if form == "case":
        path.write_text(f"Case #{number}:\n" + "\n".join(BOARD) + "\n")
    else:
        path.write_text(f'{{"case": {number}, "board": ["c..", "...", "..*"]}}\n')
    result = runner.invoke(app, [command[0], str(path), *command[1:]])
    assert result.exit_code == 1 and result.stdout == "" and _one_line(result), result.stderr
    if form == "case" or number != BIG:
        assert "line 1: case number must be from 1 to 9223372036854775807, got" in result.stderr
    else:
        assert "a JSON number of more than 4,300 digits" in result.stderr
    assert len(result.stderr) < 200


def test_check_names_a_case_number_of_any_length(runner, tmp_path):
    cases = tmp_path / "in"
    cases.write_text("1\n3 3 1\n")
    output = tmp_path / "out"
    output.write_text(f"Case #{BIG}:\n" + "\n".join(BOARD) + "\n")
    result = runner.invoke(app, ["check", str(cases), str(output)])
    assert result.exit_code == 1 and result.stderr == ""
    assert result.stdout.splitlines() == [
        "Case #1: rejected: missing case",
        "Case #11111111111111111111... (4301 characters): rejected: extra case (input has 1), line 1",
        "0/1 case accepted, 2 rejected",
    ]


def test_the_largest_case_number_is_played(runner, tmp_path):
    path = tmp_path / "boards.txt"
    path.write_text(f"Case #{2**63 - 1}:\n" + "\n".join(BOARD) + "\n")
    result = runner.invoke(app, ["play", str(path), "--player", "best", "--click", "1,1", "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["board"] == 2**63 - 1


def test_hint_json_writes_a_count_of_any_length(runner, tmp_path):
    """A 120x120 open sheet with 7,200 mines has C(14400, 7200) placements, 4,333 digits: ``puzzle`` printed it,
    ``hint --format json`` raised ValueError."""
    from math import comb

    sheet = tmp_path / "open.txt"
    sheet.write_text("120 120 7200\n" + ("?" * 120 + "\n") * 120)
    result = runner.invoke(app, ["hint", str(sheet), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        answer = json.loads(result.stdout)
    finally:
        sys.set_int_max_str_digits(limit)
    assert answer["solutions"] == comb(14400, 7200) and answer["guess"]["safety_exact"] == "1/2"
    text = runner.invoke(app, ["hint", str(sheet)])
    assert text.exit_code == 0 and "(4333 characters) placements" in text.stdout


@pytest.mark.parametrize("depth", [1000, 100_000])
@pytest.mark.parametrize(
    "command",
    [["stats"], ["casual"], ["play", "--player", "perfect"], ["play", "--player", "best", "--click", "1,1"]],
    ids=lambda c: " ".join(c),
)
def test_json_nested_deep_is_one_line(runner, tmp_path, depth, command):
    path = tmp_path / "deep.txt"
    path.write_text('{"board": ' + "[" * depth + "]" * depth + "}\n")
    result = runner.invoke(app, [command[0], str(path), *command[1:]])
    assert result.exit_code == 1 and _one_line(result), result.stderr
    assert "line 1: JSON nested too deep" in result.stderr


def test_a_store_spec_nested_deep_is_damaged(runner, tmp_path):
    import sqlite3

    store = tmp_path / "S.db"
    swept = runner.invoke(app, ["compare", "--rows", "2", "--cols", "2", "--store", str(store), "--quiet"])
    assert swept.exit_code == 0
    with sqlite3.connect(store) as db:
        db.execute("UPDATE sweeps SET spec = ?", ('{"rows": ' + "[" * 2000 + "]" * 2000 + "}",))
    result = runner.invoke(app, ["report", str(store)])
    assert result.exit_code == 1 and _one_line(result)
    assert "damaged results store (sweeps row 1: not JSON)" in result.stderr


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc is not installed")
def test_an_unusable_tmpdir_for_minizinc_is_exit_1_naming_it(runner, tmp_path, monkeypatch):
    """MiniZinc failed deep in its run ("Error occurred when creating temporary file"): exit 4, an internal error."""
    monkeypatch.setenv("TMPDIR", str(tmp_path / "nowhere"))
    result = runner.invoke(app, ["layout", "3", "3", "1", "--backend", "minizinc"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        f"cpsolve: TMPDIR={tmp_path / 'nowhere'} does not exist: set TMPDIR to a writable folder, or unset it\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "9", "9", "9" * 5000],
        ["game", "9", "9", "9" * 5000],
        ["stats", "--random", "9", "9", "9" * 5000],
        ["layout", "3", "3", "1", "--seed", "9" * 5000],
        ["stats", "--random", "9", "9", "10", "--first", "1," + "9" * 5000],
        [
            "puzzle",
            str(Path(__file__).parent.parent / "examples" / "puzzles" / "ring_with_total.txt"),
            "--mines",
            "-" + "9" * 4000,
        ],
        ["compare", "--rows", "2-" + "x" * 5000],
        ["layout", "3", "3", "9" * 5000],
    ],
)
def test_echoed_values_are_shortened(runner, args):
    """A 5,000-digit mine count was echoed whole."""
    result = runner.invoke(app, args)
    assert result.exit_code in (1, 2) and "Traceback" not in result.stderr
    assert len(result.stderr) < 1000 and "characters)" in result.stderr, result.stderr
