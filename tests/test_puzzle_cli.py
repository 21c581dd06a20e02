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


def test_the_lowest_chance_names_every_cell_that_ties_with_it(runner, tmp_path):
    """Sixteen cells have exactly 1/8 here, which the fast engine's doubles give as 0.125 and as
    0.12499999999999976: the line names all sixteen, not the one that came out lowest."""
    text = "8 8 10\n........\n..3.....\n12.1....\n01...*..\n01..3...\n01**2...\n0122212.\n0000001*\n"
    path = write(tmp_path, text)
    result = run(runner, path, "--probabilities", "--width", "200")
    assert "lowest chance: 12.5% at (1,1), (1,5), (1,6) and 13 more" in result.stdout.splitlines()
    chances = answer(runner, path, "--probabilities")["probabilities"]
    eighths = [
        (r, c) for r, row in enumerate(chances) for c, p in enumerate(row) if p is not None and abs(p - 1 / 8) < 1e-12
    ]
    assert len(eighths) == 16


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
        # only ASCII spaces and tabs separate: a no-break or other Unicode space is a character, named
        ("2 2\n1\u00a0.\n..\n", 2, "unexpected character U+00A0 (NO-BREAK SPACE) in cell 2"),
        ("3 3 2\n1..\n.\u00a0..\n..*\n", 3, "unexpected character U+00A0 (NO-BREAK SPACE) in cell 2"),
        ("2\u20032\n1.\n..\n", 1, "unexpected character U+2003 (EM SPACE) in cell 2"),
        ("\u30002 2\n1.\n..\n", 1, "unexpected character U+3000 (IDEOGRAPHIC SPACE) in cell 1"),
        ("2 2\n1.\n..\x0c\n", 3, "unexpected character a form feed in cell 3"),
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
    [
        (b"", "empty file"),
        (b"\n  \n", "empty file"),
        (b"1.\x00.\n", "line 1: binary data"),
        (b"\xff\xfe1\n", "line 1: binary data"),
    ],
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
    assert run(runner, path, "--time-limit", 0).exit_code == 2  # a usage error, as in every command


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
    assert set(a) == {
        "file",
        "rows",
        "cols",
        "total_mines",
        "status",
        "kind",
        "solution",
        "count",
        "surely_safe",
        "surely_mine",
        "probabilities",
    }
    assert a["total_mines"] == 2 and a["count"] == 6 and a["surely_safe"] == [] and a["surely_mine"] == []
    assert a["probabilities"][0] == [None, pytest.approx(1 / 3), pytest.approx(1 / 6)]
    assert a["kind"] == "game_position"
    mines = {(r, c) for r, row in enumerate(a["solution"]) for c, ch in enumerate(row) if ch == "*"}
    assert len(mines) == 2 and all(len(set(neighbours(cell)) & mines) == 1 for cell in [(0, 0), (2, 2)])
    assert b["status"] == "no_solution" and b["solution"] is None and b["count"] == 0
    assert b["surely_safe"] is None and b["probabilities"] is None


def test_only_what_is_asked(runner, tmp_path):
    data = answer(runner, write(tmp_path, "1..\n...\n..1\n"))
    assert set(data) == {"file", "rows", "cols", "total_mines", "status", "kind", "solution"}
    assert data["kind"] == "game_position" and data["solution"] is not None  # the JSON keeps its solution


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
    assert lines[0] == f"{path}: 3x3, 2 mines: game position"
    assert lines[1] == "solutions: 6"
    assert lines[2] == "certain: 0 safe cells (S), 0 mines (M), 7 undecided (.)"
    assert lines[3:7] == ["    1 2 3", "  1 1 . .", "  2 . . .", "  3 . . 1"]
    # chances in percent (the board is narrow): (1,2) is 1/3, (1,3) is 1/6, clues are -
    start = lines.index("chance of a mine in percent, rounded (1 to 99 when not certain);")
    assert lines[start + 1] == "S safe and M a mine in every solution, - a clue, * a known mine, # no cell"
    assert lines[start + 2 : start + 6] == ["     1  2  3", "  1  - 33 17", "  2 33 33 33", "  3 17 33  -"]
    assert lines[start + 6 :] == [
        "lowest chance: 16.7% at (1,3), (3,1)",
        "each cell's chance in full: --format json --probabilities",
    ]
    # a game position's solution is one placement among many: only on request
    result = run(runner, path, "--count", "--solution")
    assert result.stdout.splitlines()[-4] == "a solution (* mine, . safe; others exist):"
    assert all(len(line) == 3 for line in result.stdout.splitlines()[-3:])
    impossible = write(tmp_path, "1 1\n2\n", "none.txt")
    result = run(runner, impossible)
    assert result.exit_code == 0 and result.stdout.strip() == f"{impossible}: 1x1, no total: no solution"
    one = write(tmp_path, "1 2 1\n1.\n", "one.txt")
    result = run(runner, one, "--deduce", "--solution")
    assert result.stdout.splitlines() == [
        f"{one}: 1x2, 1 mine: game position",
        "certain: 0 safe cells (S), 1 mine (M), 0 undecided (.)",
        "    1 2",
        "  1 1 M",
        "the solution (* mine, . safe; the only one):",
        "1*",
    ]


@pytest.mark.parametrize(
    "grid, kind",
    [
        ("1..\n...\n..1\n", "game_position"),  # numbers among covered cells
        ("000\n011\n01.\n", "game_position"),  # an opening: every 0's neighbours shown
        ("...\n...\n", "game_position"),  # before the first click
        ("0..\n...\n..1\n", "clue_puzzle"),  # a 0 beside an unknown: no game shows that
        ("#0#\n#.#\n", "clue_puzzle"),
    ],
)
def test_a_file_is_a_game_position_unless_a_zero_touches_an_unknown(runner, tmp_path, grid, kind):
    path = write(tmp_path, grid)
    assert answer(runner, path)["kind"] == kind
    lines = run(runner, path).stdout.splitlines()
    if kind == "game_position":  # what a player can use first: the certain cells, then the chances
        assert lines[0].endswith(": game position") and lines[1].startswith("certain: ")
        assert any(line.startswith("chance of a mine") for line in lines) and not shows_solution(lines)
    else:  # a clue puzzle: its solution, and what was asked
        assert lines[0].endswith(": solved") and lines[1].startswith(("the solution", "a solution"))
        assert not any(line.startswith(("certain", "chance")) for line in lines)
        assert shows_solution(lines) and not shows_solution(run(runner, path, "--no-solution").stdout.splitlines())


def shows_solution(lines: list[str]) -> bool:
    return any(line.startswith(("a solution (", "the solution (")) for line in lines)


def _expert_position(seed: int) -> str:
    """An expert game part-way: 99 mines on 16x30, the cells a few openings reveal shown as clues."""
    import numpy as np

    from cpsolve.grid import mine_numbers

    rng = np.random.default_rng(seed)
    mines = np.zeros(16 * 30, dtype=bool)
    mines[rng.choice(16 * 30, 99, replace=False)] = True
    mines = mines.reshape(16, 30)
    numbers = mine_numbers(mines)
    shown = np.zeros_like(mines)
    for _ in range(6):  # flood a few zero cells, as clicks would
        zeros = np.argwhere((numbers == 0) & ~mines & ~shown)
        if not len(zeros):
            break
        stack = [tuple(zeros[rng.integers(len(zeros))])]
        while stack:
            r, c = stack.pop()
            if shown[r, c]:
                continue
            shown[r, c] = True
            if numbers[r, c] == 0:
                stack.extend(
                    (r + a, c + b)
                    for a in (-1, 0, 1)
                    for b in (-1, 0, 1)
                    if 0 <= r + a < 16 and 0 <= c + b < 30 and not mines[r + a, c + b]
                )
    rows = ["".join(str(numbers[r, c]) if shown[r, c] else "." for c in range(30)) for r in range(16)]
    return "16 30 99\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_expert_text_fits_80_columns_and_marks_match_the_backbone(runner, tmp_path, seed):
    path = write(tmp_path, _expert_position(seed), "expert.txt")
    options = ("--count", "--deduce", "--probabilities")
    data = answer(runner, path, *options)
    result = run(runner, path, *options)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines[1:]), max(lines[1:], key=len)
    assert lines[2].startswith("certain: ") and lines[3].startswith("                      1 1")
    board = lines[5:21]
    assert all(row[:4] == f"{r + 1:>3} " and len(row) == 4 + 59 for r, row in enumerate(board))
    cells = [row[4:].split(" ") for row in board]
    marked_safe = sorted([r + 1, c + 1] for r in range(16) for c in range(30) if cells[r][c] == "S")
    marked_mine = sorted([r + 1, c + 1] for r in range(16) for c in range(30) if cells[r][c] == "M")
    assert marked_safe == data["surely_safe"] and marked_mine == data["surely_mine"]
    assert lines[2] == (
        f"certain: {len(marked_safe)} safe cell{'' if len(marked_safe) == 1 else 's'} (S), "
        f"{len(marked_mine)} mine{'' if len(marked_mine) == 1 else 's'} (M), "
        f"{sum(ch == '.' for row in cells for ch in row)} undecided (.)"
    )
    # the chances board at 80 columns: each unknown cell's tenths against the JSON probabilities
    start = next(i for i, line in enumerate(lines) if line.startswith("chance of a mine in tenths")) + 4
    assert lines[-1] == "in percent from --width 93; in full: --format json --probabilities"
    _check_chances([row[4:].split(" ") for row in lines[start : start + 16]], data, lambda p: str(int(p * 10 + 1e-12)))
    # from 93 columns: in percent
    lines = run(runner, path, *options, "--width", 93).stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("chance of a mine in percent")) + 3
    assert max(len(line) for line in lines[1:]) <= 93
    rows = [[row[4 + 3 * c : 4 + 3 * c + 2].strip() for c in range(30)] for row in lines[start : start + 16]]
    _check_chances(rows, data, lambda p: str(min(99, max(1, round(p * 100)))))


def _check_chances(rows, data, shown_for) -> None:
    for r in range(16):
        for c in range(30):
            p = data["probabilities"][r][c]
            shown = rows[r][c]
            if p is None:
                assert shown == "-"
            elif p == 0:
                assert shown == "S" and [r + 1, c + 1] in data["surely_safe"]
            elif p == 1:
                assert shown == "M"
            else:
                assert shown == shown_for(p), (r, c, p, shown)


def test_time_limit_gives_unknown_and_exit_3_after_every_answer(runner, tmp_path, monkeypatch):
    import time as time_module

    from cpsolve.answers import puzzles

    first = write(tmp_path, "3 3 2\n1..\n...\n..1\n", "a.txt")
    second = write(tmp_path, "1 1\n2\n", "b.txt")
    # deterministic: during the first analysis, the clock jumps an hour on every reading
    real_clock, real_analyse = time_module.perf_counter, puzzles.analyse
    jumps = iter(range(3600, 10**9, 3600))
    state = {"jumping": False, "calls": 0}
    monkeypatch.setattr(time_module, "perf_counter", lambda: real_clock() + (next(jumps) if state["jumping"] else 0))

    def analyse(*args, **kwargs):
        state["calls"] += 1
        state["jumping"] = state["calls"] == 1
        try:
            return real_analyse(*args, **kwargs)
        finally:
            state["jumping"] = False

    monkeypatch.setattr(puzzles, "analyse", analyse)
    result = run(runner, first, second, "--format", "json", "--time-limit", 1, "--count")
    assert result.exit_code == 3
    a, b = (json.loads(line) for line in result.stdout.splitlines())
    assert a["status"] == "unknown" and a["solution"] is None and a["count"] is None
    assert b["status"] == "no_solution"  # the next puzzle has its own limit


def test_time_limit_covers_the_reading(runner, tmp_path, monkeypatch):
    import time as time_module

    from cpsolve.answers import puzzles

    path = write(tmp_path, "3 3 2\n1..\n...\n..1\n", "a.txt")
    # every reading of the clock is an hour on: the reading alone outlasts the limit
    clock = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(time_module, "perf_counter", lambda: float(next(clock)))
    monkeypatch.setattr(puzzles, "analyse", lambda *args, **kwargs: pytest.fail("analysed after the limit"))
    result = run(runner, path, "--time-limit", 1)
    assert result.exit_code == 3 and result.stdout.strip() == f"{path}: 3x3, 2 mines: unknown (time limit reached)"


@pytest.mark.slow  # runs steps against their time limits
def test_long_steps_read_the_clock(monkeypatch):
    """Building the CP-SAT model and reducing the position stop at a deadline already past."""
    import time as time_module

    from cpsolve.deduce import Position, analyse
    from cpsolve.deduce.position import reduce_position
    from cpsolve.deduce.search import solve_position
    from cpsolve.errors import TimeLimitError
    from cpsolve.outcome import Status

    cells = {(r, c) for r in range(600) for c in range(600)}
    clues = {(r, c): 0 for r, c in cells if r % 3 == 1 and c % 3 == 1}
    position = Position(600, 600, clues, frozenset(), frozenset(cells - set(clues)))
    past = time_module.perf_counter() - 1
    assert solve_position(position, past) == (Status.UNKNOWN, None)
    with pytest.raises(TimeLimitError):
        reduce_position(position, past)
    assert analyse(position, count=True, deadline=past).status is Status.UNKNOWN
    # and without a deadline the large-board path (no neighbour table) agrees with the small one
    reduced = reduce_position(position)
    assert len(reduced.fixed_safe) == len(position.unknown) and not reduced.components


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


# every written form of one grid reads back as the same position
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cpsolve.formats.puzzle import read_puzzle  # noqa: E402

CELL = st.sampled_from(list("012345678.?-_X#*F"))


@settings(max_examples=int(__import__("os").environ.get("FORMS_EXAMPLES", 80)), deadline=None)
@given(
    grid=st.integers(1, 5).flatmap(
        lambda cols: st.lists(st.lists(CELL, min_size=cols, max_size=cols), min_size=1, max_size=5)
    ),
    header=st.sampled_from(["none", "two lines", "R C", "R C M"]),
    tokens=st.booleans(),
    newline=st.sampled_from(["\n", "\r\n"]),
    blank_every=st.integers(0, 3),
    total=st.integers(0, 30),
)
def test_every_written_form_reads_back(tmp_path_factory, grid, header, tokens, newline, blank_every, total):
    rows, cols = len(grid), len(grid[0])
    body = [(" ".join(row) if tokens else "".join(row)) + (" " if blank_every == 1 else "") for row in grid]
    head = {
        "none": [],
        "two lines": [str(rows), str(cols)],
        "R C": [f"{rows} {cols}"],
        "R C M": [f"{rows} {cols} {total}"],
    }[header]
    lines = []
    for index, line in enumerate(head + body):
        lines.append(line)
        if blank_every and index % blank_every == 0:
            lines.append("")
    path = tmp_path_factory.mktemp("forms") / "p.txt"
    path.write_text(newline.join(lines) + newline, newline="")
    digits_first_row = all(ch.isdigit() for ch in grid[0])
    if header == "none" and digits_first_row and (tokens or len(grid) > 1):
        return  # a first row of digits written like a header: read as either, or as a header missing its grid
    position = read_puzzle(str(path)).position
    assert (position.rows, position.cols) == (rows, cols)
    assert position.total == (total if header == "R C M" else None)
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            cell = (r, c)
            if ch.isdigit():
                assert position.clues[cell] == int(ch)
            elif ch in "*F":
                assert cell in position.known_mines
            elif ch == "#":
                assert cell not in position.unknown and cell not in position.clues and cell not in position.known_mines
            else:
                assert cell in position.unknown


@pytest.mark.parametrize("header, line", [("2 ²", 1), ("① 2", 1), ("٣ 2", 1), ("2 2 ³", 1), ("2\n٢", 2)])
def test_unicode_digits_are_not_numbers(runner, tmp_path, header, line):
    """int() reads '٣' as 3 and isdigit() says '²' is a digit: a header is ASCII digits only."""
    path = write(tmp_path, header + "\n..\n..\n")
    result = run(runner, path)
    assert (
        result.exit_code == 1
        and f"{path}, line {line}: unexpected character" in result.stderr
        and "U+" in result.stderr
    )
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("total", [2**63 - 1, 2**63, 2**64 + 5, 10**5000], ids=["2^63-1", "2^63", "2^64+5", "10^5000"])
def test_totals_past_any_board_have_no_solution(runner, tmp_path, total):
    import sys

    digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        text = str(total)
    finally:
        sys.set_int_max_str_digits(digits)
    path = write(tmp_path, f"2 2 {text}\n1.\n..\n")
    for options in [(), ("--count",), ("--deduce", "--probabilities")]:
        result = run(runner, path, *options)
        assert result.exit_code == 0 and result.stderr == ""
        assert result.stdout.splitlines()[0].endswith(": no solution"), result.stdout
    plain = write(tmp_path, "1.\n..\n", "plain.txt")
    if total < 10**100:  # --mines is an option: typer reads it
        result = run(runner, plain, "--mines", text, "--format", "json")
        assert result.exit_code == 0 and json.loads(result.stdout)["status"] == "no_solution"


def test_header_numbers_of_thousands_of_digits_are_shortened(runner, tmp_path):
    path = write(tmp_path, "9" * 5000 + " 2\n..\n..\n")
    result = run(runner, path)
    assert result.exit_code == 1 and "header says 99999999999999999999... (5000 characters) rows" in result.stderr
    assert len(result.stderr) < 200


def test_a_count_of_any_size_is_printed_whole(runner, tmp_path):
    """2^15000 solutions (15000 cells touching no clue, no total): 4516 digits, past Python's 4300."""
    import sys

    path = write(tmp_path, "." * 15000 + "\n")
    digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        expected = str(2**15000)
        result = run(runner, path, "--count")
        assert result.exit_code == 0, result.stderr
        assert f"solutions: {expected}" in result.stdout.splitlines()
        result = run(runner, path, "--count", "--format", "json")
        assert result.exit_code == 0 and json.loads(result.stdout)["count"] == 2**15000
    finally:
        sys.set_int_max_str_digits(digits)


def test_decimal_text_and_ascii_int_against_python():
    import random
    import sys

    from cpsolve.formats.values import ascii_int, json_line
    from cpsolve.words import decimal_text

    digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        generator = random.Random(5)
        for bits in [1, 64, 13000, 13001, 20000, 100_003, 400_000]:
            value = generator.getrandbits(bits) | (1 << (bits - 1))
            assert decimal_text(value) == str(value) and decimal_text(-value) == str(-value)
            assert ascii_int(str(value)) == value and ascii_int("-000" + str(value)) == -value
            assert json.loads(json_line({"count": value, "rows": [value, None]})) == {
                "count": value,
                "rows": [value, None],
            }
    finally:
        sys.set_int_max_str_digits(digits)
    assert [ascii_int(text) for text in ["", "-", "1.0", " 1", "1 ", "+1", "1_0", "٣", "²", "0x1"]] == [None] * 10


def test_a_puzzle_reads_into_the_flat_view_and_the_same_position(tmp_path):
    """The reader builds the engine's flat view; the Position built from it lists the same cells."""
    import cpsolve.formats.puzzle as puzzle_format
    from cpsolve.deduce import View
    from cpsolve.errors import InputError

    path = write(tmp_path, "4 5 3\r\n1.*..\r\n..2#.\r\n?...1\r\n0.F..\r\n", "a.txt")
    item = puzzle_format.read_puzzle(path)
    whole = item.position
    assert (whole.rows, whole.cols, whole.total, item.total) == (4, 5, 3, 3)
    assert whole.clues == {(0, 0): 1, (1, 2): 2, (2, 4): 1, (3, 0): 0}
    assert whole.known_mines == {(0, 2), (3, 2)} and len(whole.unknown) == 20 - 4 - 2 - 1
    assert (1, 3) not in whole.unknown  # the hole
    again = View.from_position(whole)
    assert (again.state, again.shown, again.total) == (item.view.state, item.view.shown, item.view.total)
    assert item.with_total(None).position.total is None and item.with_total(7).total == 7
    negative = write(tmp_path, "2 2 -1\n1.\n..\n", "b.txt")
    with pytest.raises(InputError, match="total of mines must be 0 or more"):
        puzzle_format.read_puzzle(negative)


def test_puzzle_and_hint_mark_the_certain_cells_with_the_same_letters(runner, examples):
    path = examples / "best" / "intermediate_opening.txt"
    puzzle = runner.invoke(app, ["puzzle", str(path), "--deduce"]).stdout.splitlines()
    hint = runner.invoke(app, ["hint", str(path)]).stdout.splitlines()
    first = next(i for i, line in enumerate(puzzle) if line.startswith("  1 "))
    puzzle_board = puzzle[first : first + 16]
    hint_board = hint[3:19]  # a title, then the column numbers in two lines
    marks = [
        {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row[4:].split(" ")) if ch == mark}
        for board in (puzzle_board, hint_board)
        for mark in "SM"
    ]
    data = answer(runner, path, "--deduce")
    assert marks[0] == marks[2] == {(r - 1, c - 1) for r, c in data["surely_safe"]} and marks[0]
    assert marks[1] == marks[3] == {(r - 1, c - 1) for r, c in data["surely_mine"]} and marks[1]


def test_width_below_twenty_columns_is_a_usage_error(runner, tmp_path):
    result = run(runner, write(tmp_path, "1..\n...\n..1\n"), "--width", 19)
    assert result.exit_code == 2 and "--width must be at least 20" in result.stderr and result.stdout == ""


@pytest.mark.slow
@pytest.mark.parametrize("command", [["puzzle", "--probabilities", "--format", "json"], ["hint", "--format", "json"]])
@pytest.mark.parametrize("total", ["", " 1000"])
def test_an_open_row_of_200000_cells_in_memory_that_grows_with_it(tmp_path, command, total):
    """One row of 200,000 covered cells (a 200 KB file): an answer within the limit, in memory about linear in
    the cells (hint held every floating cell's own copy of a 60,000-digit count: over 4 GiB)."""
    import subprocess
    import sys

    path = tmp_path / "row.txt"
    path.write_text(f"1 200000{total}\n" + "." * 200_000 + "\n")
    code = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    cpsolve = [sys.executable, "-m", "cpsolve", command[0], str(path), *command[1:], "--time-limit", "60"]
    out = subprocess.run([sys.executable, "-c", code, *cpsolve], capture_output=True, text=True, check=True).stdout
    exit_code, peak_kib = (int(word) for word in out.split())
    assert exit_code == 0
    assert peak_kib < 1_000_000  # about 200 MB here; a KiB a cell at most


def test_running_out_of_memory_is_one_line(runner, tmp_path, monkeypatch):
    """A MemoryError anywhere in a command (the machine's memory, or a ulimit) is one line, never a traceback."""
    from cpsolve.answers import puzzles

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(puzzles, "analyse", exhausted)
    result = run(runner, write(tmp_path, "3 3 2\n1..\n...\n..1\n"), "--count")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("cpsolve: out of memory")
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_10_by_300_strip_with_its_total_is_counted_in_little_memory(tmp_path):
    """A 3 KB clue strip (covered rows between rows of clues, half its cells mines, the total in the
    header): one component of over 1,000 cells counted by mines. The exact count held a polynomial of
    a coefficient per cell decided, each a bit per cell wide, for every state: gigabytes, then a
    MemoryError traceback under ``ulimit -v``. Now under a 2 GiB address-space limit it answers, and
    the count is the library's."""
    import random
    import resource
    import subprocess
    import sys

    from bruteforce_puzzle import clue_strip

    from cpsolve.deduce import Position, count_of

    clues, unknown, total = clue_strip(10, 300, "rows", 0.5, random.Random(0))
    rows = ["".join(str(clues[(r, c)]) if (r, c) in clues else "." for c in range(300)) for r in range(10)]
    path = tmp_path / "strip.txt"
    path.write_text(f"10 300 {total}\n" + "\n".join(rows) + "\n")

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    # the command's own peak, measured by a parent of its own: this process's children include other tests'
    measured = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:])\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(done.returncode)\n"
    )
    command = [sys.executable, "-m", "cpsolve", "puzzle", str(path), "--count", "--format", "json"]
    done = subprocess.run(
        [sys.executable, "-c", measured, *command, "--time-limit", "300"],
        capture_output=True,
        text=True,
        preexec_fn=limited,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stderr.splitlines()[-1]) < 600_000  # KiB; about 150 MB here
    position = Position(10, 300, clues, frozenset(), frozenset(unknown), total)
    assert json.loads(done.stdout)["count"] == count_of(position)


def _game_position_file(path, size: int, seed: int = 7) -> None:
    """A size x size game position: the left half opened (its mines flagged), the right half covered."""
    import numpy as np

    rng = np.random.default_rng(seed)
    mines = rng.random((size, size)) < 0.15
    padded = np.pad(mines, 1).astype(np.int8)
    number = sum(
        padded[1 + dr : 1 + dr + size, 1 + dc : 1 + dc + size] for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc
    )
    covered = np.zeros((size, size), dtype=bool)
    covered[:, size // 2 :] = True
    covered |= mines
    while True:  # a 0 beside a covered cell would have opened it: cover such 0s too
        around = np.zeros_like(covered)
        grown = np.pad(covered, 1)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                around |= grown[1 + dr : 1 + dr + size, 1 + dc : 1 + dc + size]
        exposed = ~covered & (number == 0) & around
        if not exposed.any():
            break
        covered |= exposed
    chars = np.where(covered, ord("."), number + ord("0")).astype(np.uint8)
    chars[mines & ~(np.arange(size)[None, :] >= size // 2)] = ord("F")
    path.write_bytes(f"{size} {size} {int(mines.sum())}\n".encode() + b"\n".join(bytes(row) for row in chars) + b"\n")


@pytest.mark.slow
@pytest.mark.parametrize("limit", ["0.05", "1"])
def test_a_3000_by_3000_position_keeps_a_short_time_limit(tmp_path, limit):
    """Reading (9 MB) and every step after it read the clock: a limit shorter than the work ends in exit 3
    and one line (the puzzle's unknown answer, or the reading's error), never a verdict, never a traceback."""
    import subprocess
    import sys

    path = tmp_path / "game.txt"
    _game_position_file(path, 3000)
    done = subprocess.run(
        [sys.executable, "-m", "cpsolve", "puzzle", str(path), "--time-limit", limit],
        capture_output=True,
        text=True,
        timeout=600,  # generous: a loaded machine; the figures are in docs/benchmarks.md
        check=False,
    )
    assert done.returncode == 3, done.stderr
    said = (done.stdout + done.stderr).strip().splitlines()
    assert len(said) == 1 and "Traceback" not in done.stderr
    unknown = said[0].startswith(f"{path}: 3000x3000, ") and said[0].endswith(": unknown (time limit reached)")
    assert unknown or said[0] == f"cpsolve: {path}: the time limit ran out while reading it"


def test_reading_and_drawing_a_position_keep_a_deadline(tmp_path):
    """What ``/api/position`` calls: the reading looks at the clock every few hundred rows, the drawing
    before it starts; both raise TimeLimitError past the deadline, and in time they give the grid as read."""
    import time

    from cpsolve.errors import TimeLimitError
    from cpsolve.formats.lines import TextSource
    from cpsolve.formats.puzzle import read_puzzle
    from cpsolve.formats.puzzle_output import position_json

    path = tmp_path / "game.txt"
    _game_position_file(path, 600)
    text = path.read_text()
    past = time.perf_counter() - 1
    with pytest.raises(TimeLimitError, match="position: the time limit ran out while reading it"):
        read_puzzle(TextSource("position", text), past)
    read = read_puzzle(TextSource("position", text), time.perf_counter() + 600)
    with pytest.raises(TimeLimitError):
        position_json(read, past)
    answer = position_json(read, time.perf_counter() + 600)
    rows = text.splitlines()
    assert answer == {
        "rows": 600,
        "cols": 600,
        "total_mines": int(rows[0].split()[2]),
        "grid": [row.replace("F", "*") for row in rows[1:]],
    }
    assert position_json(read.position) == answer  # from the Position, as the web app called it before
