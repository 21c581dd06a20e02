"""The generator: replayed by independent checks, uniform over no-guess boards; 3BV and openings."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from bruteforce import king_neighbours
from bruteforce_players import perfect_play, subset_play

from cpsolve.generate import GameSettings, generate_boards, openings_and_3bv, play_game, wilson_interval


def rows_of(mines) -> list[str]:
    return ["".join("M" if x else "." for x in line) for line in mines]


def plain_3bv(mines: np.ndarray) -> tuple[int, int]:
    """Openings and 3BV by the definition: flood each zero region with its rim, count what is left."""
    height, width = mines.shape
    cells = [(r, c) for r in range(height) for c in range(width)]
    neighbours = king_neighbours(cells)
    number = {cell: sum(mines[n] for n in neighbours[cell]) for cell in cells}
    safe = [cell for cell in cells if not mines[cell]]
    zero = {cell for cell in safe if number[cell] == 0}
    covered = set()
    openings = 0
    for cell in safe:
        if cell in zero and cell not in covered:
            openings += 1
            stack = [cell]
            covered.add(cell)
            while stack:
                here = stack.pop()
                for n in neighbours[here]:
                    if n not in covered and not mines[n]:
                        covered.add(n)
                        if n in zero:
                            stack.append(n)
    return openings, openings + sum(1 for cell in safe if cell not in covered)


def test_3bv_and_openings_match_the_definition_and_ms_toollib():
    ms = pytest.importorskip("ms_toollib")
    rng = np.random.default_rng(4)
    for _ in range(300):
        height, width = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        mines = rng.random((height, width)) < rng.uniform(0, 0.4)
        openings, bbbv = openings_and_3bv(mines)
        assert (openings, bbbv) == plain_3bv(mines)
        if height >= 2 and width >= 2:  # ms-toollib's own 3BV and openings, as an outside check
            padded = np.pad(mines.astype(int), 1)
            numbers = (
                sum(padded[1 + a : 1 + a + height, 1 + b : 1 + b + width] for a in (-1, 0, 1) for b in (-1, 0, 1))
                - mines
            )
            board = np.where(mines, -1, numbers).tolist()
            assert (openings, bbbv) == (ms.cal_op(board), ms.cal_bbbv(board))


def test_generated_boards_are_won_by_an_independent_replay():
    for player, replay in (("subset", subset_play), ("casual", None)):
        settings = GameSettings(6, 7, 8, player, first=(2, 3), seed=11)
        dealt = list(generate_boards(settings, 15))
        for board in dealt:
            assert board.mines.sum() == 8
            assert not board.mines[1:4, 2:5].any(), "the opening holds no mine"
            rows = rows_of(board.mines)
            cleared, _ = (replay or _casual_replay)(rows, (2, 3))
            assert len(cleared) == 42 - 8
        assert [d.tries for d in dealt] == [d.tries for d in generate_boards(settings, 15)], "deterministic per seed"


def _casual_replay(rows, click):
    from bruteforce_players import casual_play

    return casual_play(rows, click)


def test_perfect_generated_boards_pass_ms_toollib_and_brute_force():
    ms = pytest.importorskip("ms_toollib")
    settings = GameSettings(9, 9, 10, "perfect", use_total=False, seed=5)
    for board in generate_boards(settings, 25):
        padded = np.pad(board.mines.astype(int), 1)
        numbers = sum(padded[1 + a : 10 + a, 1 + b : 10 + b] for a in (-1, 0, 1) for b in (-1, 0, 1)) - board.mines
        assert ms.is_solvable(np.where(board.mines, -1, numbers).tolist(), 4, 4)
    small = GameSettings(4, 4, 3, "perfect", use_total=True, start="safe", first=(0, 0), seed=2)
    for board in generate_boards(small, 10):
        cleared, _ = perfect_play(rows_of(board.mines), (0, 0), True)
        assert len(cleared) == 13


def test_generator_is_uniform_over_no_guess_boards():
    """4x4, 3 mines, first click in a corner (safe start): every no-guess board enumerated; chi-square."""
    from scipy.stats import chisquare

    click = (0, 0)
    cells = [(r, c) for r in range(4) for c in range(4) if (r, c) != click]
    winning = set()
    for chosen in combinations(cells, 3):
        mines = np.zeros((4, 4), dtype=bool)
        for cell in chosen:
            mines[cell] = True
        cleared, _ = subset_play(rows_of(mines), click)
        if len(cleared) == 13:
            winning.add(frozenset(chosen))
    assert 0 < len(winning) < 455
    settings = GameSettings(4, 4, 3, "subset", first=click, start="safe", seed=2024)
    draws = 12 * len(winning)
    counts = Counter()
    tries = 0
    for board in generate_boards(settings, draws):
        key = frozenset(map(tuple, np.argwhere(board.mines).tolist()))
        assert key in winning
        counts[key] += 1
        tries += board.tries
    observed = [counts[key] for key in sorted(winning, key=sorted)]
    assert chisquare(observed).pvalue > 0.001
    # the acceptance rate is the share of no-guess boards among all draws
    assert abs(draws / tries - len(winning) / 455) < 0.05


def test_play_game_is_a_function_of_settings_and_index():
    settings = GameSettings(9, 9, 10, "subset", seed=3)
    first = [play_game(settings, k).answer for k in range(20)]
    again = [play_game(settings, k).answer for k in reversed(range(20))][::-1]
    assert first == again
    assert play_game(settings, 0).case["index"] == 0


def test_wilson_interval():
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high and abs((0.5 - low) - (high - 0.5)) < 1e-12
    assert wilson_interval(0, 10)[0] == 0.0 and abs(wilson_interval(10, 10)[1] - 1.0) < 1e-12


@pytest.mark.parametrize(
    "settings, message",
    [
        (GameSettings(5, 5, 3, start="foo"), "unknown start 'foo'"),
        (GameSettings(5, 5, 20), "20 mines do not fit"),
        (GameSettings(5, 5, -1), "mines must be 0 or more, got -1"),
        (GameSettings(5, 5, 3, seed=-1), "seed must be 0 or more, got -1"),
    ],
)
def test_a_game_of_settings_no_game_has_is_refused_in_words(settings, message):
    """play_game checks its settings as a sweep does (numpy's own errors, or a silent 'safe' start, before)."""
    from cpsolve.errors import InputError

    with pytest.raises(InputError, match=message):
        play_game(settings, 0)


def test_a_first_click_given_as_a_list_is_a_cell():
    """JSON gives [4, 4]: as a list it indexed numpy arrays as two rows."""
    listed = next(generate_boards(GameSettings(9, 9, 10, first=[4, 4]), 1))  # type: ignore[arg-type]
    assert listed.first == (4, 4)
    assert np.array_equal(listed.mines, next(generate_boards(GameSettings(9, 9, 10, first=(4, 4)), 1)).mines)
