"""``cpsolve puzzle``: every input form, every bad input, the JSON and text answers, exit codes."""

from __future__ import annotations

import json

import pytest

from bruteforce_puzzle import neighbours
from cpsolve.cli import app

SOLVED_3X3 = ["1.*", ".*.", "..1"]


def run(runner, *args, input=None):
    return runner.invoke(app, ["puzzle", *map(str, args)], input=input)


def write(tmp_path, text, name="p.txt", raw=False):
    path = tmp_path / name
    if raw:
        path.write_bytes(text)
    else:
        path.write_text(text, newline="")
    return path


def answer(runner, path, *options):
    result = run(runner, path, "--format", "json", *options)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    "text, total",
    [
        ("3\n3\n1..\n...\n..1\n", None),  # header on two lines
        ("3 3\n1..\n...\n..1\n", None),  # R C
        ("3 3 2\n1..\n...\n..1\n", 2),  # R C M
        ("1..\n...\n..1\n", None),  # no header
        ("3 3 2\n1 ? ?\n- _ X\n. . 1\n", 2),  # tokens, every unknown character
        ("\ufeff3 3 2\r\n\r\n1..  \r\n...\t\r\n\r\n..1\r\n\r\n", 2),  # BOM, CRLF, blank lines, trailing space
        ("1 . .\n. . .\n. . 1\n", None),  # a token grid whose first row is all digits-free
    ],
)
def test_input_forms(runner, tmp_path, text, total):
    data = answer(runner, write(tmp_path, text), "--count")
    assert (data["rows"], data["cols"], data["total_mines"]) == (3, 3, total)
    assert data["status"] == "solved"
    # without a total: (1,1) a mine alone, or one of two cells by each clue; 2^2 floating corners
    assert data["count"] == (6 if total == 2 else (1 + 2 * 2) * 2**2)


def test_rows_of_digits_are_a_grid_not_a_header(runner, tmp_path):
    data = answer(runner, write(tmp_path, "1 1 1\n. . .\n1 1 1\n"), "--count", "--deduce")
    assert data["solution"] == ["111", ".*.", "111"]
    assert data["count"] == 1 and data["surely_mine"] == [[2, 2]] and data["surely_safe"] == [[2, 1], [2, 3]]


def test_holes_and_known_mines(runner, tmp_path):
    data = answer(runner, write(tmp_path, "2 3\n2F#\n.*.\n"), "--count", "--probabilities")
    # (0,0) = 2 sees the known mines (0,1) and (1,1): its unknown neighbour (1,0) is safe
    assert data["solution"] == ["2*#", ".*."]
    assert data["count"] == 2  # (1,2) touches no clue
    assert data["probabilities"] == [[None, 1.0, None], [0.0, 1.0, 0.5]]


def test_stdin(runner):
    result = run(runner, "-", "--format", "json", input="3 3\n1..\n...\n..1\n")
    assert result.exit_code == 0 and json.loads(result.stdout)["file"] == "<stdin>"


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("3 3\n1..\n..\n..1\n", 3, "row has 2 cells"),
        ("1..\n...\n..1.\n", 3, "row has 4 cells"),
        ("1..\n.a.\n..1\n", 2, "unexpected character 'a'"),
        ("1..\n.9.\n..1\n", 2, "clues are 0 to 8"),
        ("3 3\n1..\n...\n", 1, "header says 3 rows, the grid has 2"),
        ("4\n3\n1..\n...\n..1\n", 1, "header says 4 rows"),
        ("2 4\n1..\n...\n", 2, "header says 4"),
        ("3 3\n", 1, "no grid follows"),
        ("0 3\n...\n", 1, "positive R and C"),
        ("1 .. .\n", 1, "not one cell"),
    ],
)
def test_bad_input_one_line_with_file_and_line(runner, tmp_path, text, line, fragment):
    path = write(tmp_path, text)
    result = run(runner, path)
    assert result.exit_code == 1
    assert f"{path}, line {line}: " in result.stderr and fragment in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    "content, fragment",
    [(b"", "empty file"), (b"\n  \n", "empty file"), (b"1.\x00.\n", "line 1: binary data"), (b"\xff\xfe1\n", "line 1: binary data")],
)
def test_empty_and_binary_files(runner, tmp_path, content, fragment):
    path = write(tmp_path, content, raw=True)
    result = run(runner, path)
    assert result.exit_code == 1 and fragment in result.stderr and str(path) in result.stderr
    assert result.stderr.count("\n") == 1


def test_missing_file_and_bad_options(runner, tmp_path):
    assert run(runner, tmp_path / "nope.txt").exit_code == 1
    path = write(tmp_path, "1..\n...\n..1\n")
    result = run(runner, path, "--mines", 2, "--no-total")
    assert result.exit_code == 2 and "cannot be used together" in result.stderr
    assert run(runner, path, "--mines", -1).exit_code == 1
    assert run(runner, path, "--time-limit", 0).exit_code == 1


def test_bad_file_fails_before_any_answer(runner, tmp_path):
    good = write(tmp_path, "1..\n...\n..1\n", "good.txt")
    bad = write(tmp_path, "1..\n.9.\n", "bad.txt")
    result = run(runner, good, bad)
    assert result.exit_code == 1 and result.stdout == ""


def test_json_fields_and_order_of_files(runner, tmp_path):
    first = write(tmp_path, "3 3 2\n1..\n...\n..1\n", "a.txt")
    second = write(tmp_path, "1 1\n2\n", "b.txt")  # a clue of 2 with no neighbour: no solution
    result = run(runner, first, second, "--format", "json", "--count", "--deduce", "--probabilities")
    assert result.exit_code == 0
    a, b = (json.loads(line) for line in result.stdout.splitlines())
    assert a["file"] == str(first) and b["file"] == str(second)
    assert set(a) == {"file", "rows", "cols", "total_mines", "status", "solution", "count", "surely_safe", "surely_mine", "probabilities"}
    assert a["total_mines"] == 2 and a["count"] == 6 and a["surely_safe"] == [] and a["surely_mine"] == []
    assert a["probabilities"][0] == [None, pytest.approx(1 / 3), pytest.approx(1 / 6)]
    mines = {(r, c) for r, row in enumerate(a["solution"]) for c, ch in enumerate(row) if ch == "*"}
    assert len(mines) == 2 and all(len(set(neighbours(cell)) & mines) == 1 for cell in [(0, 0), (2, 2)])
    assert b["status"] == "no_solution" and b["solution"] is None and b["count"] == 0
    assert b["surely_safe"] is None and b["probabilities"] is None


def test_only_what_is_asked(runner, tmp_path):
    data = answer(runner, write(tmp_path, "1..\n...\n..1\n"))
    assert set(data) == {"file", "rows", "cols", "total_mines", "status", "solution"}


def test_mines_overrides_and_no_total_ignores_the_header(runner, tmp_path):
    path = write(tmp_path, "3 3 2\n1..\n...\n..1\n")
    assert answer(runner, path, "--mines", 1, "--count")["count"] == 1  # one mine on (1,1)
    unbounded = answer(runner, path, "--no-total", "--count")
    assert unbounded["total_mines"] is None and unbounded["count"] > 6
    assert answer(runner, path, "--mines", 9, "--count")["status"] == "no_solution"


def test_text_output(runner, tmp_path):
    path = write(tmp_path, "3 3 2\n1..\n...\n..1\n")
    result = run(runner, path, "--count", "--deduce", "--probabilities")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path}: 3x3, 2 mines: solved"
    assert len(lines[1:4]) == 3 and all(len(line) == 3 for line in lines[1:4])
    assert "solutions: 6" in lines and "surely safe: none" in lines and "surely mine: none" in lines
    assert lines[lines.index("mine probabilities:") + 1].split() == ["1", "0.333", "0.167"]
    impossible = write(tmp_path, "1 1\n2\n", "none.txt")
    result = run(runner, impossible)
    assert result.exit_code == 0 and result.stdout.strip() == f"{impossible}: 1x1, no total: no solution"


def test_time_limit_gives_unknown_and_exit_3_after_every_answer(runner, tmp_path, monkeypatch):
    import time as time_module

    first = write(tmp_path, "3 3 2\n1..\n...\n..1\n", "a.txt")
    second = write(tmp_path, "1 1\n2\n", "b.txt")
    # deterministic: the clock jumps an hour on every reading, so any deadline has passed
    clock = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(time_module, "perf_counter", lambda: float(next(clock)))
    result = run(runner, first, second, "--format", "json", "--time-limit", 1, "--count")
    assert result.exit_code == 3
    a, b = (json.loads(line) for line in result.stdout.splitlines())
    assert a["status"] == "unknown" and a["solution"] is None and a["count"] is None
    assert b["status"] == "no_solution"  # decided before any clock reading


def test_examples_are_unique_and_match_their_solutions(runner, examples):
    folder = examples / "puzzles"
    puzzles = sorted(folder.glob("*.txt"))
    assert len(puzzles) >= 3
    for path in puzzles:
        data = answer(runner, path, "--count", "--deduce")
        assert data["count"] == 1, path
        assert data["solution"] == path.with_suffix(".solution").read_text().split(), path
        assert not data["solution"] or data["surely_safe"] is not None
    ring = answer(runner, folder / "ring_with_total.txt", "--no-total", "--count")
    assert ring["count"] > 1  # unique only with its total
