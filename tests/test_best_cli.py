"""``play --player best``, ``hint`` and the refusals around the guessing player, from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cpsolve.cli import app
from cpsolve.deduce import engine
from cpsolve.generate import GameSettings, draw_board

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def board_file(tmp_path: Path, count: int = 4, seed: int = 3) -> Path:
    """Expert boards with a safe top-left corner, in the casual format."""
    settings = GameSettings(16, 30, 99, first=(0, 0), start="safe")
    lines = []
    for k in range(count):
        mines = draw_board(settings, np.random.default_rng([seed, k]))
        lines.append("16 30")
        lines.extend("".join("*" if m else "." for m in row) for row in mines)
    path = tmp_path / "boards.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_play_best_text_is_the_cells_left_covered_and_json_agrees(runner, tmp_path):
    path = board_file(tmp_path)
    text = runner.invoke(app, ["play", str(path), "--player", "best", "--click", "1,1"])
    assert text.exit_code == 0, text.output
    covered = [int(line) for line in text.stdout.split()]
    assert len(covered) == 4
    result = runner.invoke(
        app, ["play", str(path), "--player", "best", "--click", "1,1", "--format", "json", "--moves"]
    )
    games = [json.loads(line) for line in result.stdout.splitlines()]
    assert [g["answer"] for g in games] == covered
    for number, game in enumerate(games, start=1):
        assert game["board"] == number and game["won"] == (game["answer"] == 0)
        moves = game["moves"]
        assert moves[0] == {"cell": [1, 1], "kind": "first"}
        assert {m["kind"] for m in moves} <= {"first", "safe", "guess"}
        assert sum(m["kind"] == "guess" for m in moves) == game["guesses"]
        assert len({tuple(m["cell"]) for m in moves}) == len(moves)  # each reveal a new cell


def test_play_best_moves_replay_to_the_answer(runner, tmp_path):
    """Replaying the moves on the board (each opening its zero region) ends where the game did:
    a lost game's last move is a mine, a won game leaves no safe cell covered."""
    from cpsolve.board import Board
    from cpsolve.reveal import reveal

    path = board_file(tmp_path, count=3, seed=5)
    result = runner.invoke(
        app, ["play", str(path), "--player", "best", "--click", "1,1", "--format", "json", "--moves"]
    )
    settings = GameSettings(16, 30, 99, first=(0, 0), start="safe")
    for k, line in enumerate(result.stdout.splitlines()):
        game = json.loads(line)
        mines = draw_board(settings, np.random.default_rng([5, k]))
        cleared = np.zeros(mines.shape, dtype=bool)
        for move in game["moves"]:
            cell = (move["cell"][0] - 1, move["cell"][1] - 1)
            assert not cleared[cell]
            if mines[cell]:
                assert move is game["moves"][-1] and move["kind"] == "guess" and not game["won"]
                break
            cleared |= reveal(Board(mines, cell))
        assert int((~mines & ~cleared).sum()) == game["answer"]


def test_play_best_is_seeded(runner, tmp_path):
    path = board_file(tmp_path, count=2)
    args = ["play", str(path), "--player", "best", "--click", "1,1", "--format", "json", "--moves", "--seed", "9"]
    assert runner.invoke(app, args).stdout == runner.invoke(app, args).stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["--player", "best"], "needs --click"),
        (["--player", "best", "--click", "1,1", "--no-total"], "always knows the total"),
        (["--player", "perfect", "--seed", "3"], "--seed and --moves are for --player best"),
        (["--moves"], "--seed and --moves are for --player best"),
    ],
)
def test_play_usage_errors(runner, tmp_path, args, message):
    result = runner.invoke(app, ["play", str(board_file(tmp_path, count=1)), *args])
    assert result.exit_code == 2 and message in result.stderr


def test_play_best_on_a_mine_is_bad_input(runner, tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("2 2\n*.\n..\n")
    result = runner.invoke(app, ["play", str(path), "--player", "best", "--click", "1,1"])
    assert result.exit_code == 1 and "is a mine" in result.stderr


def test_generate_refuses_the_guessing_player_and_does_not_offer_it(runner):
    result = runner.invoke(app, ["generate", "9", "9", "10", "--player", "best"])
    assert result.exit_code == 2 and "'best' is not one of 'casual', 'subset', 'perfect'" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    listed = runner.invoke(app, ["generate", "--help"], env={"COLUMNS": "200"})
    assert "casual|subset|perfect" in listed.output and "best" not in listed.output


def test_hint_text_marks_the_guess_and_fits_a_terminal(runner):
    result = runner.invoke(app, ["hint", str(EXAMPLES / "best" / "expert_midgame.txt")])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines[1:]) <= 80  # all but the title, which names the file
    assert any(line.startswith("no certain move; guess A at") for line in lines)
    board = "\n".join(lines[3:19])
    assert board.count("A") == 1 and "B" in board


def test_hint_json_guess_is_the_exact_safest_choice_reported(runner):
    from fractions import Fraction

    from cpsolve.deduce import probabilities_of, weigh
    from cpsolve.formats.puzzle import read_puzzle

    path = str(EXAMPLES / "best" / "expert_midgame.txt")
    answer = json.loads(runner.invoke(app, ["hint", path, "--format", "json"]).stdout)
    assert answer["status"] == "ok" and answer["safe"] == [] and answer["mines"] == []
    guess = answer["guess"]
    position = read_puzzle(path).position
    exact = probabilities_of(weigh(position))
    row, col = guess["cell"]
    assert Fraction(guess["safety_exact"]) == 1 - exact[(row - 1, col - 1)]
    assert guess["reason"] in {"lookahead", "deep", "endgame", "isolated", "forced"}
    assert answer["candidates"][0]["cell"] == guess["cell"]
    for candidate in answer["candidates"]:
        r, c = candidate["cell"]
        assert candidate["safety"] == pytest.approx(float(1 - exact[(r - 1, c - 1)]))


def test_hint_certain_moves_come_without_a_guess(runner, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("4 5 4\n.....\n122..\n001..\n001..\n")
    answer = json.loads(runner.invoke(app, ["hint", str(path), "--format", "json"]).stdout)
    assert answer["safe"] == [[2, 4]] and answer["mines"] == [[1, 3]] and answer["guess"] is None


def test_hint_on_a_contradiction_gives_a_minimal_conflict(runner):
    path = str(EXAMPLES / "best" / "contradiction.txt")
    result = runner.invoke(app, ["hint", path, "--format", "json"])
    assert result.exit_code == 0
    answer = json.loads(result.stdout)
    assert answer["status"] == "no_solution" and answer["guess"] is None
    assert answer["conflict"] == [[1, 1], [1, 3], [2, 3], [3, 3]] and answer["conflict_total"] is False
    text = runner.invoke(app, ["hint", path]).stdout
    assert "cannot all hold: (1,1) (1,3) (2,3) (3,3)" in text


def test_hint_conflict_with_the_total(runner, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("2 3 0\n1.1\n...\n")
    answer = json.loads(runner.invoke(app, ["hint", str(path), "--format", "json"]).stdout)
    assert answer["status"] == "no_solution" and answer["conflict_total"] is True and len(answer["conflict"]) == 1


@pytest.mark.parametrize("total", ["5", "9223372036854775807", "9223372036854775808", "9" * 40])
def test_hint_a_total_that_cannot_hold_is_the_conflict_alone(runner, tmp_path, total):
    """More mines than covered cells (past 2^63 - 1 too, which CP-SAT cannot take): the total alone conflicts."""
    path = tmp_path / "p.txt"
    path.write_text(f"2 2 {total}\n1.\n..\n")
    result = runner.invoke(app, ["hint", str(path), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["status"] == "no_solution" and answer["total_mines"] == int(total)
    assert answer["conflict"] == [] and answer["conflict_total"] is True and answer["conflict_minimal"] is True
    text = runner.invoke(app, ["hint", str(path)])
    assert text.exit_code == 0 and text.stdout.splitlines()[-1].startswith("the total cannot hold")
    flagged = tmp_path / "f.txt"
    flagged.write_text("2 2 0\n1.\n.F\n")  # fewer mines than the flags
    answer = json.loads(runner.invoke(app, ["hint", str(flagged), "--format", "json"]).stdout)
    assert answer["conflict"] == [] and answer["conflict_total"] is True


def test_hint_exit_codes(runner, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2\n9.\n")
    assert runner.invoke(app, ["hint", str(bad)]).exit_code == 1
    good = str(EXAMPLES / "best" / "contradiction.txt")
    assert runner.invoke(app, ["hint", good, "--mines", "3", "--no-total"]).exit_code == 2
    assert runner.invoke(app, ["hint", str(tmp_path / "missing.txt")]).exit_code == 1


def test_stats_best_gives_the_rate_guesses_and_seconds_the_same_on_any_executor(runner, tmp_path):
    args = [
        "stats",
        "--random",
        "9",
        "9",
        "10",
        "--games",
        "30",
        "--player",
        "best",
        "--first",
        "1,1",
        "--start",
        "safe",
        "--format",
        "json",
        "--seed",
        "4",
    ]
    here = json.loads(runner.invoke(app, args).stdout)
    store = str(tmp_path / "games.db")
    pooled = json.loads(runner.invoke(app, [*args, "--jobs", "2", "--quiet", "--store", store]).stdout)
    resumed = json.loads(runner.invoke(app, [*args, "--store", store, "--resume", "--quiet"]).stdout)
    for summary in (here, pooled, resumed):
        assert summary["player"] == "best" and summary["games"] == 30 and summary["seconds_per_game"] > 0
        low, high = summary["interval"]
        assert low <= summary["rate"] <= high
    keys = ("won", "rate", "interval", "guesses_mean", "3bv_mean")
    assert [here[k] for k in keys] == [pooled[k] for k in keys] == [resumed[k] for k in keys]
    assert resumed["resumed"] == 30


def test_stats_best_matches_the_games_played_one_by_one():
    from cpsolve.generate import play_game
    from cpsolve.play.best_games import play_best

    settings = GameSettings(9, 9, 10, "best", True, (0, 0), "safe", 6)
    for index in range(5):
        record = play_game(settings, index)
        mines = draw_board(settings, np.random.default_rng([6, index]))
        game = play_best(mines, (0, 0), np.random.default_rng([6, index, 1]))
        assert (record.answer["won"], record.answer["guesses"]) == (game.won, game.guesses)


def test_stats_best_refuses_no_total(runner):
    result = runner.invoke(app, ["stats", "--random", "9", "9", "10", "--games", "3", "--player", "best", "--no-total"])
    assert result.exit_code == 2 and "always knows the total" in result.stderr


@pytest.mark.skipif(
    not engine.compiled(),
    reason="the Python engine searches isolated regions of at most 16 covered cells (stated on the win-rates page)",
)
def test_hint_says_when_an_isolated_region_decides(runner):
    path = str(EXAMPLES / "best" / "isolated_region.txt")
    text = runner.invoke(app, ["hint", path])
    assert text.exit_code == 0 and "why: isolated region: exact game-tree search" in text.stdout
    answer = json.loads(runner.invoke(app, ["hint", path, "--format", "json"]).stdout)
    assert answer["guess"]["reason"] == "isolated" and answer["guess"]["win"] == pytest.approx(2 / 3)
    assert answer["guess"]["cell"][0] >= 14 and answer["guess"]["cell"][1] <= 4  # in the pocket at the bottom left


def test_hint_says_when_a_four_cell_50_50_decides(runner):
    """examples/best/four_cell_fifty_fifty.txt: the 2x2 block at rows 6-7, columns 4-5 holds its two
    mines on one diagonal or the other, the cells beyond its corners are mines, and its top side is
    covered; the look-ahead picks one of its top cells (the bottom ones are dead)."""
    path = str(EXAMPLES / "best" / "four_cell_fifty_fifty.txt")
    text = runner.invoke(app, ["hint", path])
    assert text.exit_code == 0 and "why: a forced 50/50 of four cells" in text.stdout
    answer = json.loads(runner.invoke(app, ["hint", path, "--format", "json"]).stdout)
    assert answer["guess"]["reason"] == "box" and answer["guess"]["safety_exact"] == "1/2"
    assert tuple(answer["guess"]["cell"]) in {(6, 4), (6, 5)}
    assert {tuple(c["cell"]) for c in answer["candidates"]} == {(6, 4), (6, 5), (7, 4), (7, 5)}


def test_a_time_limit_that_runs_out_on_the_conflict_keeps_the_proven_verdict():
    """A position with no placement is proven so by the count; when the time runs out before the clues that
    clash are found, the hint still answers no_solution (timed out, no conflict) and raises nothing."""
    import time

    from cpsolve.deduce import Position
    from cpsolve.deduce.conflict import minimal_conflict
    from cpsolve.errors import TimeLimitError

    position = Position(1, 3, {(0, 0): 1, (0, 2): 0}, frozenset(), frozenset({(0, 1)}))
    with pytest.raises(TimeLimitError):
        minimal_conflict(position, time.perf_counter() - 1)
    assert minimal_conflict(position) is not None


def test_the_hint_says_no_solution_when_only_the_conflict_search_runs_out_of_time(monkeypatch):
    """The count proves there is no placement; the conflict search (a CP-SAT solve) running out of time leaves
    that verdict standing, marked timed out, and the text says which part the time did not cover."""
    from cpsolve.deduce import Position
    from cpsolve.errors import TimeLimitError
    from cpsolve.formats.best import hint_text
    from cpsolve.play.best import advice as advice_module

    def out_of_time(position, deadline=None):
        raise TimeLimitError("the time limit ran out before the position was decided")

    monkeypatch.setattr(advice_module, "minimal_conflict", out_of_time)
    position = Position(1, 3, {(0, 0): 1, (0, 2): 0}, frozenset(), frozenset({(0, 1)}))
    advice = advice_module.advise(position)
    assert (advice.status, advice.conflict, advice.timed_out, advice.solutions) == ("no_solution", None, True, 0)
    lines = hint_text("p.txt", position, advice)
    assert lines[0].endswith("no solution")
    assert lines[-1] == "the time limit ran out before the clues that cannot all hold were found"
