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
    data = runner.invoke(app, ["generate", "5", "6", "4", "--player", "perfect", "--no-total", "--count", "2",
                               "--first", "1,1", "--start", "safe", "--format", "json"])
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
    result = runner.invoke(app, ["stats", "--random", "9", "9", "10", "--games", "40", "--player", "subset",
                                 "--format", "json", "--seed", "1"])
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 40 and 0 <= summary["won"] <= 40
    low, high = summary["interval"]
    assert low <= summary["rate"] <= high
    assert summary["3bv_mean"] > 0 and summary["3bv_sd"] >= 0
    text = runner.invoke(app, ["stats", "--random", "9", "9", "10", "--games", "5", "--player", "perfect", "--no-total"])
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
        (["stats", "--random", "9", "9", "10"], "--games"),
        (["stats", "--random", "9", "9", "100", "--games", "3"], "do not fit"),
        (["stats", "--random", "9", "9", "10", "--games", "3", "--first", "0,0"], "off the"),
        (["stats"], "FILE"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(runner, args, fragment):
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.stdout
    assert fragment in result.stderr and result.stderr.count("\n") == 1
