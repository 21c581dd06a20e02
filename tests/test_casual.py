"""The casual player: contest sample, brute-force oracle, CRLF, holes, and every bad input."""

import json

import numpy as np
import pytest
from bruteforce import casual_oracle, king_neighbours
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.cli import app
from cpsolve.grid import PaddedGrid, king_graph
from cpsolve.play.casual import STATE_LEGEND, Board, draw_state, final_state, solve_casual


def answer(rows):
    return solve_casual(Board.from_rows(rows, mine_chars="M*")).covered


def test_sample_answers(runner, examples):
    result = runner.invoke(app, ["casual", str(examples / "casual" / "sample.in")])
    assert result.exit_code == 0
    assert result.stdout.split() == ["0", "5", "1", "0"]
    assert result.stdout == (examples / "casual" / "sample.out").read_text()


def test_official_sample_against_the_brute_force(examples):
    """The contest's own sample, read by the format reader, answered by the plain oracle as well."""
    from cpsolve.formats.casual import read_casual_boards

    boards = [list(item.rows) for item in read_casual_boards(str(examples / "casual" / "sample.in"))]
    assert [casual_oracle(rows) for rows in boards] == [answer(rows) for rows in boards] == [0, 5, 1, 0]


boards = st.integers(1, 7).flatmap(
    lambda rows: st.integers(1, max(1, 40 // rows)).flatmap(
        lambda cols: st.lists(st.text(alphabet="M..", min_size=cols, max_size=cols), min_size=rows, max_size=rows)
    )
)


@settings(max_examples=400, deadline=None)
@given(boards)
def test_matches_brute_force_up_to_40_cells(rows):
    assert answer(rows) == casual_oracle(rows)


@settings(max_examples=60, deadline=None)
@given(st.integers(8, 14), st.integers(8, 14), st.floats(0.05, 0.3), st.integers(0, 2**32 - 1))
def test_matches_brute_force_on_larger_boards(height, width, density, seed):
    rng = np.random.default_rng(seed)
    rows = ["".join("M" if x else "." for x in line) for line in rng.random((height, width)) < density]
    assert answer(rows) == casual_oracle(rows)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet="M...#", min_size=6, max_size=6), min_size=3, max_size=6))
def test_boards_with_holes_match_brute_force(rows):
    assert answer(rows) == casual_oracle(rows)


def test_compiled_engine_agrees_with_the_python_reference():
    """The C loops (built by pip install) and their Python reference give the same answers."""
    from cpsolve.play import casual

    if casual._best_click is casual._best_click_py:
        pytest.skip("the C extension was not built here (CI asserts that it is)")
    rng = np.random.default_rng(5)
    for _ in range(60):
        mines = rng.random((7, 9)) < rng.random() * 0.4
        board = Board(mines, None, rng.random((7, 9)) < 0.95)
        engine = casual._Engine(board)
        if not len(engine.zero_starts):
            continue
        safe = board.safe_count
        compiled = casual._best_click(engine.zero_starts, engine.state.copy(), engine.number, engine.offsets, safe)
        reference = casual._best_click_py(engine.zero_starts, engine.state.copy(), engine.number, engine.offsets, safe)
        assert tuple(map(int, compiled)) == tuple(map(int, reference))
        size = engine.state.shape[0]
        start = int(engine.zero_starts[-1])
        results = []
        for run in (casual.run_rules, casual._run_rules_py):
            state = engine.state.copy()
            queued, work, changed = np.zeros(size, np.uint8), np.empty(size, np.int64), np.empty(size, np.int64)
            count, cleared = run(start, state, engine.number, engine.offsets, queued, work, changed)
            results.append((int(count), int(cleared), state.tobytes()))
        assert results[0] == results[1]


def test_padded_offsets_match_the_networkx_graph():
    present = np.ones((5, 6), dtype=bool)
    present[2, 3] = False
    graph = king_graph(5, 6, present)
    grid = PaddedGrid(5, 6)
    for r, c in graph.nodes:
        by_offset = {grid.cell(grid.index(r, c) + o) for o in grid.offsets}
        inside = {(i, j) for i, j in by_offset if 0 <= i < 5 and 0 <= j < 6 and present[i, j]}
        assert inside == set(graph.neighbors((r, c)))
    cells = [node for node in graph.nodes]
    assert {k: set(v) for k, v in king_neighbours(cells).items()} == {n: set(graph.neighbors(n)) for n in graph.nodes}


def test_no_safe_cell_answers_zero():
    result = solve_casual(Board.from_rows(["MM", "MM"], mine_chars="M*"))
    assert (result.covered, result.click) == (0, None)


def test_no_zero_cell_leaves_all_but_one():
    rows = ["M.M", ".M.", "M.M"]
    assert answer(rows) == casual_oracle(rows) == 3


def test_explain_draws_the_final_state(runner, tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("3 3\nM..\n...\n..M\n0 0\n")
    result = runner.invoke(app, ["casual", str(path), "--explain"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Board 1: 3 safe cells left covered; first click at row 1, col 3")
    assert lines[1:4] == ["*10", "-21", "--*"]
    # the drawing's characters are named once, after the boards
    assert lines[-1] == "legend: " + STATE_LEGEND and all(f"{mark}: " in lines[-1] for mark in "F-*#")


def test_json_counts(runner, examples):
    result = runner.invoke(app, ["casual", str(examples / "casual" / "sample.in"), "--format", "json"])
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["answer"] for o in objects] == [0, 5, 1, 0]
    first = objects[0]  # the 3x3 board: 7 safe cells, 2 mines, all cleared and flagged
    assert (first["cleared"], first["flagged"], first["covered"]) == (7, 2, 0) and first["click"] is not None
    assert [o["cleared"] + o["flagged"] + o["covered"] for o in objects] == [9, 12, 35, 16]


def test_crlf_and_bare_grid(runner, tmp_path):
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(b"3 3\r\nM..\r\n...\r\n..M\r\n0 0\r\n")
    assert runner.invoke(app, ["casual", str(crlf)]).stdout == "3\n"
    bare = tmp_path / "bare.txt"
    bare.write_bytes(b"*..\r\n...\r\n..*\r\n")
    assert runner.invoke(app, ["casual", str(bare)]).stdout == "3\n"
    no_terminator = tmp_path / "eof.txt"
    no_terminator.write_text("1 3\n.M.\n2 2\n..\n..\n")
    assert runner.invoke(app, ["casual", str(no_terminator)]).stdout.split() == ["1", "0"]


@pytest.mark.parametrize(
    "content,fragment",
    [
        (b"2 3\n...\n..\n0 0\n", "board 1: row has 2 cells, expected 3"),
        (b"2 3\n...\n.x.\n0 0\n", "board 1: unexpected character 'x'"),
        (b"2 2\n..\n..\n3 3\n...\n", "board 2: header says 3 rows, file ends after 1"),
        (b"2 two\n..\n", "board 1: header should be two integers"),
        (b"2 -2\n..\n", "board 1: header needs positive"),
        (b"", "empty file"),
        (b"2 2\n.\x00\n..\n", "binary"),
        (b"...\n..\n", "board 1: row has 2 cells"),
    ],
)
def test_bad_input(runner, tmp_path, content, fragment):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    result = runner.invoke(app, ["casual", str(path)])
    assert result.exit_code == 1
    assert fragment in result.stderr and result.stderr.count("\n") == 1
    if fragment != "empty file":  # an empty file has no line to name
        assert "line" in result.stderr


def test_draw_state_marks():
    board = Board.from_rows(["M..", "...", "..M"], mine_chars="M*")
    state = final_state(board, (0, 2))
    assert draw_state(board, state) == ["*10", "-21", "--*"]
