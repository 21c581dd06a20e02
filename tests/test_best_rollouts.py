"""The hint's deep mode: boards drawn uniformly from a view, played out, the closest candidates compared."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
from bruteforce_best import placements
from bruteforce_puzzle import random_puzzle
from typer.testing import CliRunner

from cpsolve.cli import app
from cpsolve.deduce import Position
from cpsolve.deduce.view import View
from cpsolve.formats.puzzle import read_puzzle
from cpsolve.play.best import DEFAULT, BestSettings, Reason, advise, decide
from cpsolve.play.best.playing import play_out
from cpsolve.play.best.rollouts import sample_placement

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def tiny_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        rows, cols, clues, known, unknown, holes, board_mines = random_puzzle(rng, 8)
        position = Position(rows, cols, clues, frozenset(known), frozenset(unknown), board_mines)
        if len(placements(position)) >= 3:
            found.append(position)
    return found


def test_a_drawn_board_fits_the_view_and_every_board_is_as_likely():
    """Every drawn placement is one of the enumerated ones, and over 2,400 draws each placement's count is
    within five standard deviations of its share (uniform: each is as likely as any other)."""
    checked = 0
    for position in tiny_positions(12, seed=3):
        view = View.from_position(position)
        enumerated = {frozenset(p) | position.known_mines for p in placements(position)}
        draws = 2400
        counts: Counter[frozenset] = Counter()
        for k in range(draws):
            mines = sample_placement(view, np.random.default_rng([5, k]))
            drawn = frozenset(view.grid.cell(i) for i in np.flatnonzero(mines).tolist())
            assert drawn in enumerated, (position, drawn)
            counts[drawn] += 1
        share = 1 / len(enumerated)
        spread = (draws * share * (1 - share)) ** 0.5
        assert all(abs(counts[p] - draws * share) <= 5 * spread for p in enumerated), (counts, len(enumerated))
        checked += 1
    assert checked == 12


def test_a_playout_on_a_mine_loses_and_on_a_decided_board_wins():
    # 1x3, one mine, the 1 on the left: (0,1) is the mine, (0,2) safe
    position = Position(1, 3, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (0, 2)}), total=1)
    view = View.from_position(position)
    mines = np.zeros(len(view.state), dtype=bool)
    mines[view.grid.index(0, 1)] = True
    rng = np.random.default_rng(0)
    assert not play_out(view, mines, view.grid.index(0, 1), rng, DEFAULT, decide)
    assert play_out(view, mines, view.grid.index(0, 2), rng, DEFAULT, decide)


def test_the_deep_hint_plays_out_the_closest_candidates_and_keeps_their_chances_exact():
    position = read_puzzle(EXAMPLES / "best" / "expert_midgame.txt").position
    plain = advise(position, np.random.default_rng(0))
    deep = advise(position, np.random.default_rng(0), settings=BestSettings(rollouts=40))
    again = advise(position, np.random.default_rng(0), settings=BestSettings(rollouts=40))
    assert deep.reason is Reason.ROLLOUTS and deep.boards == 40 and deep == again  # seeded: the same answer
    played = [c for c in deep.candidates if c.played is not None]
    assert 2 <= len(played) <= 4 and deep.guess == played[0]
    assert deep.guess.played == max(c.played for c in played)
    top = max(c.survival for c in plain.candidates if not c.dead)
    assert all(c.survival >= 0.9 * top for c in played)  # only the closest candidates are tried
    by_cell = {c.cell: c.safety for c in plain.candidates}
    for candidate in played:
        assert isinstance(candidate.safety, Fraction) and candidate.safety == by_cell[candidate.cell]


def test_the_deep_hint_from_the_command_line():
    runner = CliRunner()
    path = str(EXAMPLES / "best" / "expert_midgame.txt")
    result = runner.invoke(app, ["hint", path, "--deep", "--format", "json", "--time-limit", "5"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["guess"]["reason"] == "rollouts" and answer["rollout_boards"] > 0
    assert "played" in answer["guess"]
    text = runner.invoke(app, ["hint", path, "--deep", "--time-limit", "5"])
    assert text.exit_code == 0 and "played out on" in text.stdout and " won " in text.stdout
