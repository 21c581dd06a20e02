"""The players against brute force: casual, subset and perfect (with and without the total)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pytest
from bruteforce import casual_oracle
from bruteforce_players import (
    backbone_bruteforce,
    best_over_clicks,
    perfect_play,
    subset_play,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolve.cli import app
from cpsolve.play import perfect as perfect_module
from cpsolve.play.casual import Board
from cpsolve.play.game import best_first_click, compiled_players_built, play_from


@dataclass(frozen=True)
class FakePosition:
    """The agreed cpsolve.deduce.Position, for the brute-force stand-in."""

    rows: int
    cols: int
    clues: Mapping
    known_mines: frozenset
    unknown: frozenset
    total: int | None = None


@pytest.fixture(params=["bruteforce", "deduce"])
def engine(request, monkeypatch):
    """The perfect player's backbone: a brute-force stand-in, and cpsolve.deduce."""
    if request.param == "bruteforce":
        monkeypatch.setattr(perfect_module, "_deduce", lambda: (FakePosition, backbone_bruteforce))
    return request.param


@pytest.fixture(params=["compiled", "python"])
def compiled(request):
    """Whether games run the compiled subset and perfect players (``_play_engine``) or the Python ones."""
    if request.param == "compiled" and not compiled_players_built():
        pytest.skip("the compiled players (cpsolve.play._play_engine) were not built")
    return request.param == "compiled"


def covered(rows, player, use_total=True, click=None, compiled=True):
    return best_first_click(Board.from_rows(rows, mine_chars="M*"), player, use_total, click, compiled=compiled).covered


small_boards = st.integers(1, 4).flatmap(
    lambda rows: st.integers(1, 4).flatmap(
        lambda cols: st.lists(st.text(alphabet="M..", min_size=cols, max_size=cols), min_size=rows, max_size=rows)
    )
)


@settings(max_examples=300, deadline=None)
@given(small_boards)
def test_casual_player_is_the_contest_engine(rows):
    assert covered(rows, "casual") == casual_oracle(rows)
    board = Board.from_rows(rows, mine_chars="M*")
    safe = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
    if safe:  # the game loop with the casual player (used for --click) agrees with the engine
        assert min(play_from(board, click, "casual").covered for click in safe) == casual_oracle(rows)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.integers(1, 6).flatmap(
        lambda rows: st.integers(1, 6).flatmap(
            lambda cols: st.lists(st.text(alphabet="M...#", min_size=cols, max_size=cols), min_size=rows, max_size=rows)
        )
    )
)
def test_subset_player_matches_brute_force(compiled, rows):
    assert covered(rows, "subset", compiled=compiled) == best_over_clicks(rows, subset_play)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(5, 9), st.integers(5, 9), st.floats(0.1, 0.3), st.integers(0, 2**32 - 1))
def test_subset_player_matches_brute_force_from_each_click_on_larger_boards(compiled, height, width, density, seed):
    rng = np.random.default_rng(seed)
    rows = ["".join("M" if x else "." for x in line) for line in rng.random((height, width)) < density]
    board = Board.from_rows(rows, mine_chars="M*")
    zero = [
        (r, c)
        for r in range(height)
        for c in range(width)
        if not any(
            rows[i][j] == "M"
            for i in range(max(r - 1, 0), r + 2)
            for j in range(max(c - 1, 0), c + 2)
            if i < height and j < width
        )
    ]
    for click in zero[:3]:
        end = play_from(board, click, "subset", compiled=compiled)
        cleared, flagged = subset_play(rows, click)
        assert end.cleared == len(cleared) and end.flagged == len(flagged)


@pytest.mark.slow  # every board of every small size, against brute force: seconds per engine
@pytest.mark.parametrize("use_total", [True, False])
def test_perfect_player_matches_brute_force(compiled, engine, use_total):
    rng = np.random.default_rng(12 + use_total)
    for _ in range(60):
        height, width = int(rng.integers(1, 4)), int(rng.integers(2, 5))
        rows = [
            "".join("M" if x else "." for x in line) for line in rng.random((height, width)) < rng.uniform(0.1, 0.5)
        ]
        expected = best_over_clicks(rows, lambda grid, click: perfect_play(grid, click, use_total))
        assert covered(rows, "perfect", use_total, compiled=compiled) == expected, rows


def test_perfect_players_first_click_on_a_number_with_the_total(compiled, engine):
    # ..*. with one mine: the 1 at column 2 and the count prove column 4 safe
    rows = ["..M."]
    assert covered(rows, "perfect", True, click=(0, 1), compiled=compiled) == 0
    assert covered(rows, "perfect", False, click=(0, 1), compiled=compiled) == 2
    # no zero cell anywhere, yet the total wins from a number
    rows = [".M.", "M.M"]
    assert covered(rows, "perfect", True, compiled=compiled) == best_over_clicks(
        rows, lambda g, c: perfect_play(g, c, True)
    )


def test_players_are_ordered_on_every_board(compiled):
    """perfect leaves no more covered than subset, subset no more than casual (each click and overall)."""
    rng = np.random.default_rng(7)
    for _ in range(40):
        height, width = int(rng.integers(3, 6)), int(rng.integers(3, 6))
        rows = ["".join("M" if x else "." for x in line) for line in rng.random((height, width)) < 0.25]
        answers = [
            covered(rows, p, t, compiled=compiled)
            for p, t in (("casual", True), ("subset", True), ("perfect", False), ("perfect", True))
        ]
        assert answers == sorted(answers, reverse=True), (rows, answers)


@pytest.mark.slow
def test_perfect_player_from_the_centre_on_larger_boards(compiled):
    """4x4 and 5x5 boards with an opening at the centre: cpsolve.deduce against full enumeration."""
    from bruteforce_players import _placements, parse

    from cpsolve.generate import GameSettings, draw_board

    for shape, mines, use_total, games in (((5, 5), 5, True, 12), ((4, 4), 4, False, 6), ((4, 4), 4, True, 6)):
        settings_ = GameSettings(*shape, mines, "perfect", use_total, start="safe")
        placements = None
        for index in range(games):
            drawn = draw_board(settings_, np.random.default_rng([3, index]))
            rows = ["".join("M" if x else "." for x in line) for line in drawn]
            if placements is None:
                cells, _, neighbours = parse(rows)
                placements = _placements(cells, neighbours, mines if use_total else None)
            end = play_from(
                Board.from_rows(rows, mine_chars="M*"), settings_.click, "perfect", use_total, compiled=compiled
            )
            cleared, flagged = perfect_play(rows, settings_.click, use_total, placements)
            assert (end.cleared, end.flagged) == (len(cleared), len(flagged)), rows


def test_play_command_casual_matches_casual_command(runner, examples):
    sample = str(examples / "casual" / "sample.in")
    for extra in ([], ["--format", "json"], ["--explain"]):
        played = runner.invoke(app, ["play", sample, "--player", "casual", *extra])
        contest = runner.invoke(app, ["casual", sample, *extra])
        assert played.exit_code == 0 and played.stdout == contest.stdout


def test_play_command_players_and_click(runner, tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("1 4\n..M.\n2 3\n.M.\nM.M\n0 0\n")
    result = runner.invoke(app, ["play", str(path), "--player", "perfect"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split()[0] == "0"
    assert runner.invoke(app, ["play", str(path), "--player", "perfect", "--no-total"]).stdout.split()[0] == "1"
    clicked = runner.invoke(
        app, ["play", str(path), "--player", "perfect", "--no-total", "--click", "1,2", "--format", "json"]
    )
    objects = [json.loads(line) for line in clicked.stdout.splitlines()]
    assert objects[0]["answer"] == 2 and objects[0]["click"] == [1, 2]


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--click", "1,3"], "is a mine"),
        (["--click", "9,9"], "off the"),
        (["--click", "x"], "ROW,COL"),
    ],
)
def test_play_command_bad_click(runner, tmp_path, args, fragment):
    path = tmp_path / "b.txt"
    path.write_text("1 4\n..M.\n0 0\n")
    result = runner.invoke(app, ["play", str(path), "--player", "subset", *args])
    assert result.exit_code == 1
    assert fragment in result.stderr and result.stderr.count("\n") == 1
