"""The generate and stats commands: output forms and bad input."""

from __future__ import annotations

import json

import pytest

from cpsolve.cli import app


def test_generate_text_and_json(runner):
    text = runner.invoke(app, ["generate", "5", "6", "4", "--player", "subset", "--count", "3", "--seed", "7"])
    assert text.exit_code == 0, text.stderr
    boards = text.stdout.rstrip("\n").split("\n\n")
    assert len(boards) == 3
    for board in boards:
        rows = board.split("\n")
        assert len(rows) == 5 and all(len(row) == 6 for row in rows)
        assert rows[2][2] == "c" and "".join(rows).count("*") == 4
    again = runner.invoke(app, ["generate", "5", "6", "4", "--player", "subset", "--count", "3", "--seed", "7"])
    assert again.stdout == text.stdout
    data = runner.invoke(
        app,
        [
            "generate",
            "5",
            "6",
            "4",
            "--player",
            "perfect",
            "--no-total",
            "--count",
            "2",
            "--first",
            "1,1",
            "--start",
            "safe",
            "--format",
            "json",
        ],
    )
    objects = [json.loads(line) for line in data.stdout.splitlines()]
    assert len(objects) == 2
    for item in objects:
        assert set(item) == {"board", "first", "3bv", "openings", "tries"}
        assert item["first"] == [1, 1] and item["board"][0][0] == "." and item["tries"] >= 1


def test_stats_file(runner, examples):
    result = runner.invoke(app, ["stats", str(examples / "casual" / "sample.in"), "--format", "json"])
    assert result.exit_code == 0
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    # the official 2003 sample: 3x3, 3x4, 7x5 and 4x4 boards with 2, 6, 8 and 2 mines
    assert [o["safe"] for o in objects] == [7, 6, 27, 14]
    # board 1 (... / ... / MM.): one opening (the top row) and the lone corner cell off its rim
    assert objects[0] == {"board": 1, "3bv": 2, "openings": 1, "safe": 7}
    # board 2 (a checkerboard of mines) has no zero cell: every safe cell is one click
    assert objects[1] == {"board": 2, "3bv": 6, "openings": 0, "safe": 6}
    text = runner.invoke(app, ["stats", str(examples / "casual" / "sample.in")])
    assert text.stdout.splitlines()[0] == "board 1: 3bv 2 openings 1 safe 7"


def test_stats_random(runner):
    result = runner.invoke(
        app,
        ["stats", "--random", "9", "9", "10", "--games", "40", "--player", "subset", "--format", "json", "--seed", "1"],
    )
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 40 and 0 <= summary["won"] <= 40
    low, high = summary["interval"]
    assert low <= summary["rate"] <= high
    assert summary["3bv_mean"] > 0 and summary["3bv_sd"] >= 0
    text = runner.invoke(
        app, ["stats", "--random", "9", "9", "10", "--games", "5", "--player", "perfect", "--no-total"]
    )
    assert text.exit_code == 0 and "rate" in text.stdout


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["generate", "3", "3", "1"], "do not fit"),
        (["generate", "4", "4", "13"], "do not fit"),
        (["generate", "4", "4", "16", "--start", "safe"], "do not fit"),
        (["generate", "4", "4", "2", "--first", "5,1"], "off the"),
        (["generate", "4", "4", "2", "--count", "0"], "--count"),
        (["generate", "0", "4", "1"], "positive"),
        (["stats", "--random", "9", "9", "10", "--games", "0"], "--games"),
        (["stats", "--random", "9", "9", "100", "--games", "3"], "do not fit"),
        (["stats", "--random", "9", "9", "10", "--games", "3", "--first", "0,0"], "off the"),
        (["stats"], "FILE"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(runner, args, fragment):
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.stdout
    assert fragment in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize("args", [("2", "5", "1"), ("5", "2", "3", "--player", "subset")])
def test_generate_refuses_sizes_where_no_board_qualifies(runner, args):
    """Every placement is tried on a tiny size: 2x5 with 1 mine leaves a 50/50 between the two end cells."""
    result = runner.invoke(app, ["generate", *args])
    assert result.exit_code == 1 and result.stdout == ""
    assert "is won by the" in result.stderr and "placements tried" in result.stderr and result.stderr.count("\n") == 1


def test_any_board_qualifies_against_brute_force():
    from itertools import combinations

    import numpy as np
    from bruteforce_players import perfect_play, subset_play

    from cpsolve.generate import GameSettings, allowed_cells, any_board_qualifies

    players = {"subset": subset_play, "perfect": perfect_play}

    def wins(mines, player):
        grid = ["".join("*" if x else "." for x in line) for line in mines]
        cleared, _ = players[player](grid, (0, 0))
        return len(cleared) == mines.size - int(mines.sum())

    for rows, cols in [(2, 4), (3, 3), (2, 5)]:
        for mines in range(0, rows * cols - 1):
            for player in players:
                settings = GameSettings(rows, cols, mines, player, True, (0, 0), "safe")
                allowed = np.flatnonzero(allowed_cells(settings))
                if mines > len(allowed):
                    continue
                found = any_board_qualifies(settings)
                if found is None:
                    continue
                truth = False
                for placement in combinations(allowed.tolist(), mines):
                    board = np.zeros(rows * cols, dtype=bool)
                    board[list(placement)] = True
                    if wins(board.reshape(rows, cols), player):
                        truth = True
                        break
                assert found == truth, (rows, cols, mines, player)


def test_generate_time_limit_streams_the_boards_found_then_exits_3(runner):
    """A limit no second draw can meet: the boards won at the first draw are printed, then exit 3."""
    result = runner.invoke(
        app,
        [
            "generate",
            "3",
            "4",
            "2",
            "--first",
            "1,1",
            "--start",
            "safe",
            "--count",
            "40",
            "--seed",
            "2",
            "--time-limit",
            "0.000001",
        ],
    )
    assert result.exit_code == 3
    boards = [board for board in result.stdout.split("\n\n") if board.strip()]
    assert len(boards) == 1  # with seed 2, board 1 takes one draw and board 2 three
    assert result.stderr.count("\n") == 1 and f"{len(boards)} of 40 boards printed" in result.stderr
    assert "board 2 not found in 1e-06 s: 1 draw, none won by the perfect player" in result.stderr
    played = runner.invoke(app, ["play", "-", "--player", "perfect"], input=result.stdout)
    assert played.stdout.split() == ["0"] * len(boards)


def test_generate_time_limit_on_a_size_too_large_to_enumerate(runner, monkeypatch):
    import cpsolve.generate.no_guess

    monkeypatch.setattr(cpsolve.generate.no_guess, "ENUMERATION_LIMIT", 0)
    result = runner.invoke(app, ["generate", "2", "5", "1", "--time-limit", "0.2"])
    assert result.exit_code == 3 and result.stdout == ""
    assert "board 1 not found in 0.2 s" in result.stderr and "0 of 1 board printed" in result.stderr
    assert runner.invoke(app, ["generate", "2", "5", "1", "--time-limit", "0"]).exit_code == 2  # a usage error


def test_stats_random_has_a_default_number_of_games(runner):
    result = runner.invoke(app, ["stats", "--random", "4", "4", "2", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 1000


def test_help_texts_keep_their_square_brackets(runner):
    """Rich reads [text] as markup and drops it: every bracketed part of a help text must be shown."""
    import re

    import typer.main

    command = typer.main.get_command(app)
    for name, sub in command.commands.items():
        shown = runner.invoke(app, [name, "--help"], terminal_width=250).stdout
        for param in sub.params:
            for part in re.findall(r"\[[^\]]*\]", (getattr(param, "help", None) or "").replace("\\[", "[")):
                assert part in shown, (name, part)
    seed_help = " ".join(runner.invoke(app, ["stats", "--help"], terminal_width=250).stdout.split())
    assert "default_rng([seed, k])" in seed_help and "[default: 1000]" in seed_help


def test_placement_bound_without_the_whole_binomial():
    import math

    from cpsolve.generate.no_guess import _at_most

    for n in range(0, 25):
        for k in range(0, n + 1):
            for limit in (0, 1, 6, 5000):
                assert _at_most(n, k, limit) == (math.comb(n, k) <= limit)
    assert not _at_most(10**7, 2 * 10**6, 5000)  # math.comb would build a number of two million digits
