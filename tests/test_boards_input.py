"""Every board cpsolve writes is read by every command that reads boards (stats, play, casual)."""

from __future__ import annotations

import json

import pytest

from cpsolve.cli import app


def invoke(runner, *args, input=None):
    return runner.invoke(app, [*map(str, args)], input=input)


def contest_form(text: str) -> str:
    """generate's text boards rewritten in the contest's form ('r c' headers, 'c' as '.')."""
    out = []
    for board in text.rstrip("\n").split("\n\n"):
        rows = board.split("\n")
        out.append(f"{len(rows)} {len(rows[0])}\n" + "\n".join(rows).replace("c", ".") + "\n")
    return "".join(out) + "0 0\n"


@pytest.mark.parametrize("player", ["casual", "subset", "perfect"])
def test_generate_then_stats_and_play(runner, player):
    text = invoke(runner, "generate", 6, 7, 6, "--player", player, "--count", 4, "--seed", 3)
    assert text.exit_code == 0, text.stderr
    data = invoke(runner, "generate", 6, 7, 6, "--player", player, "--count", 4, "--seed", 3, "--format", "json")
    boards = [json.loads(line) for line in data.stdout.splitlines()]
    # stats reads the text boards as the contest's form of the same boards, and agrees with generate's JSON
    stats = invoke(runner, "stats", "-", "--format", "json", input=text.stdout)
    assert stats.exit_code == 0, stats.stderr
    again = invoke(runner, "stats", "-", "--format", "json", input=contest_form(text.stdout))
    assert stats.stdout == again.stdout
    figures = [json.loads(line) for line in stats.stdout.splitlines()]
    expected = [(k + 1, b["3bv"], b["openings"]) for k, b in enumerate(boards)]
    assert [(f["board"], f["3bv"], f["openings"]) for f in figures] == expected
    assert invoke(runner, "stats", "-", "--format", "json", input=data.stdout).stdout == stats.stdout
    # play from the board's c: the player that made the board clears it, from the click generate gave
    for source in (text.stdout, data.stdout):
        played = invoke(runner, "play", "-", "--player", player, "--format", "json", input=source)
        assert played.exit_code == 0, played.stderr
        answers = [json.loads(line) for line in played.stdout.splitlines()]
        assert [a["answer"] for a in answers] == [0] * 4
        assert [a["click"] for a in answers] == [b["first"] for b in boards] and {
            a["clicks_tried"] for a in answers
        } == {1}


def test_click_option_overrides_the_boards_c(runner):
    board = "*..\n...\n..c\n"
    from_c = json.loads(invoke(runner, "play", "-", "--format", "json", input=board).stdout)
    assert from_c["click"] == [3, 3] and from_c["answer"] == 0
    other = json.loads(invoke(runner, "play", "-", "--click", "1,3", "--format", "json", input=board).stdout)
    assert other["click"] == [1, 3]
    # the contest's best-over-every-click answer is what a board without c gets
    best = json.loads(invoke(runner, "casual", "-", "--format", "json", input=board.replace("c", ".")).stdout)
    assert best["clicks_tried"] >= 1 and best["answer"] == 0


def test_layout_outputs_are_boards(runner, tmp_path):
    batch = tmp_path / "cases.in"
    batch.write_text("3\n3 4 2\n2 2 1\n4 4 3\n")
    text = invoke(runner, "layout", "--input", batch)
    data = invoke(runner, "layout", "--input", batch, "--format", "json")
    single = invoke(runner, "layout", 3, 4, 2)
    for source in (text.stdout, data.stdout):
        stats = invoke(runner, "stats", "-", input=source)
        assert stats.exit_code == 0, stats.stderr
        numbers = [line.split(":")[0] for line in stats.stdout.splitlines()]
        assert numbers == ["board 1", "board 3"]  # case 2 is Impossible: no board
        played = invoke(runner, "play", "-", input=source)  # a one-click board: the click clears it
        assert played.stdout.split() == ["0", "0"]
    assert invoke(runner, "stats", "-", input=single.stdout).stdout.startswith("board 1: 3bv 1 openings 1 safe 10")


def test_bare_grids_are_separated_by_blank_lines(runner):
    result = invoke(runner, "stats", "-", input="*..\n...\n\n\n.*\n..\n*.\n")
    contest = invoke(runner, "stats", "-", input="2 3\n*..\n...\n3 2\n.*\n..\n*.\n")
    assert result.stdout == contest.stdout and len(result.stdout.splitlines()) == 2
    # (0,0) a mine: the zero cells (0,2) and (1,2) are one opening with its rim; (1,0) is off it
    assert result.stdout.splitlines()[0] == "board 1: 3bv 2 openings 1 safe 5"


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("c..\n..c\n", "board 1: more than one click cell 'c'"),
        ("٣ 3\n...\n...\n...\n", "header should be two integers 'r c', got '٣ 3'"),
        ("1_0 1\n.\n", "header should be two integers 'r c'"),
        ("9" * 5000 + " 3\n...\n", "99999999999999999999... (5000 characters)x3 is larger than"),
        ('{"board": ["..", ".*"], "first": [2, 2]}\n', "the first click 2,2 is not a safe cell"),
        ('{"board": [".c", ".*"], "first": [1, 1]}\n', "the first click 1,1 is not the board's 'c'"),
        ('{"board": ["..", "."]}\n', "row has 1 cell, expected 2"),
        ('{"rows": 2}\n', "a JSON line needs a 'board'"),
        ('{"board": [".."]}\nnot json\n', "line 2: not a JSON object"),
        ("Case #1:\nImpossible\n..\n", "case 1: '..' after the case's answer"),
        ("Case #x:\n..\n", "case header should be 'Case #k:'"),
        ("..\r.*\r", "carriage return (CR) inside a line"),
        ("...\n.\u00a0.\n", "U+00A0 (NO-BREAK SPACE)"),
    ],
)
def test_bad_boards_one_line(runner, tmp_path, content, fragment):
    path = tmp_path / "boards.txt"
    path.write_text(content, newline="")
    for command in (["stats"], ["play"], ["casual"]):
        result = invoke(runner, *command, path)
        assert result.exit_code == 1, (command, result.stdout)
        assert fragment in result.stderr and str(path) in result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
