"""The exact optimum on small boards (cpsolve.play.optimal): against a naive game tree, hand-checked
values, the game core's own rules and games, and properties of any policy."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from bruteforce_optimal import optimal as brute_optimal
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.errors import InputError
from cpsolve.play.optimal import GameTree, compare_with_optimum, costly_positions, optimal_win_rate, policy_win_rate
from cpsolve.play.policies import best_policy, safest_policy

# (rows, cols, mines): every first click of each, under both rules, against the naive tree
SMALL = [(1, 2, 1), (1, 3, 1), (1, 4, 1), (1, 4, 2), (1, 5, 1), (1, 5, 2), (1, 5, 3), (2, 2, 1), (2, 2, 2)]
SMALL += [(2, 3, 1), (2, 3, 2), (2, 3, 3), (2, 4, 2), (2, 4, 3)]
# 3x3 is slower for the naive tree: the corner, an edge and the centre
THREE = [(3, 3, mines, first) for mines in (1, 2) for first in ((0, 0), (0, 1), (1, 1))]


def _room(rows: int, cols: int, start: str, first: tuple[int, int]) -> int:
    """The cells the rule leaves for mines."""
    if start == "safe":
        return rows * cols - 1
    r, c = first
    return rows * cols - (min(r + 1, rows - 1) - max(r - 1, 0) + 1) * (min(c + 1, cols - 1) - max(c - 1, 0) + 1)


def _cases(shapes):
    for rows, cols, mines in shapes:
        for start in ("safe", "opening"):
            for first in [(r, c) for r in range(rows) for c in range(cols)]:
                if mines <= _room(rows, cols, start, first):
                    yield rows, cols, mines, start, first


@pytest.mark.parametrize(("rows", "cols", "mines", "start", "first"), list(_cases(SMALL)))
def test_the_optimum_is_the_naive_game_trees(rows, cols, mines, start, first):
    assert optimal_win_rate(rows, cols, mines, start, first) == brute_optimal(rows, cols, mines, start, first)


@pytest.mark.parametrize(("rows", "cols", "mines", "first"), THREE)
@pytest.mark.parametrize("start", ["safe", "opening"])
def test_the_optimum_on_3x3_is_the_naive_game_trees(rows, cols, mines, first, start):
    if mines > _room(rows, cols, start, first):
        with pytest.raises(InputError, match="do not fit"):
            optimal_win_rate(rows, cols, mines, start, first)
        return
    assert optimal_win_rate(rows, cols, mines, start, first) == brute_optimal(rows, cols, mines, start, first)


def test_the_naive_tree_is_not_trivially_one():
    # the comparisons above would pass with two oracles that always say 1: these are guesses
    assert brute_optimal(2, 2, 1, "safe", (0, 0)) == Fraction(1, 3)
    assert brute_optimal(1, 3, 1, "safe", (0, 1)) == Fraction(1, 2)


# -- values checked by hand ------------------------------------------------------------------------


@pytest.mark.parametrize("length", range(2, 9))
def test_a_strip_with_one_mine_from_its_end_is_always_won(length):
    # the end shows 1 (the mine is next to it) or 0 and the cascade runs up to the cell before the mine
    assert optimal_win_rate(1, length, 1, "safe", (0, 0)) == 1


def test_hand_checked_guesses():
    # the middle of 1x3 shows 1: the mine is either end, nothing tells which
    assert optimal_win_rate(1, 3, 1, "safe", (0, 1)) == Fraction(1, 2)
    # 2x2: the three other cells touch everything, so they show nothing new: a third of them is a mine
    assert optimal_win_rate(2, 2, 1, "safe", (0, 0)) == Fraction(1, 3)
    # two mines among three: guess the safe one, 1 in 3; three mines: nothing to guess
    assert optimal_win_rate(2, 2, 2, "safe", (1, 1)) == Fraction(1, 3)
    assert optimal_win_rate(2, 2, 3, "safe", (1, 0)) == 1


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 7), (3, 3), (4, 6), (6, 6)])
@pytest.mark.parametrize("start", ["safe", "opening"])
def test_no_mines_is_a_win(rows, cols, start):
    assert optimal_win_rate(rows, cols, 0, start, (rows - 1, 0)) == 1


def test_boards_the_first_click_opens_whole():
    # the opening rule keeps columns 0-1 free: both mines fill column 2, and the corner's 0 opens the rest
    assert optimal_win_rate(2, 3, 2, "opening", (0, 0)) == 1
    # eight mines around the centre: one placement
    assert optimal_win_rate(3, 3, 8, "safe", (1, 1)) == 1
    # one mine in a 3x4 whose first click's 3x3 leaves only column 3 for it: the corner's 0 opens
    # columns 0-2, and column 2's numbers say where the mine is
    assert optimal_win_rate(3, 4, 1, "opening", (1, 1)) == 1


def test_bad_settings_are_refused_in_one_line():
    with pytest.raises(InputError, match="off the 3x3 board"):
        optimal_win_rate(3, 3, 1, "safe", (3, 0))
    with pytest.raises(InputError, match="do not fit"):
        optimal_win_rate(3, 3, 1, "opening", (1, 1))
    with pytest.raises(InputError, match="unknown start"):
        optimal_win_rate(3, 3, 1, "zero", (1, 1))
    with pytest.raises(InputError, match="42,504 placements under the safe rule; .* at most 12,000") as error:
        optimal_win_rate(5, 5, 5, "safe", (0, 0))
    assert "\n" not in str(error.value)
    # few placements but many cells: refused before a cascade is played from every cell
    with pytest.raises(InputError, match="1x100 has 100 cells; the exact optimum takes at most 64"):
        optimal_win_rate(1, 100, 1, "safe", (0, 0))
    assert optimal_win_rate(8, 8, 1, "safe", (0, 0)) == 1  # the largest board taken: a lone mine is always found


# -- the rules, against the game core ---------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols", "mines"), [(3, 4, 2), (4, 4, 3), (1, 6, 2)])
def test_every_click_opens_what_the_game_core_opens(rows, cols, mines):
    from cpsolve.play.core import GameState
    from cpsolve.play.tables import BoardTables

    tree = GameTree(rows, cols, mines, "safe", (0, 0))
    for placement, mask in enumerate(tree.masks):
        board = np.array([[mask >> (r * cols + c) & 1 for c in range(cols)] for r in range(rows)], dtype=bool)
        for cell in range(rows * cols):
            if board.flat[cell]:
                assert tree._shows[cell][placement] == -1
                continue
            game = GameState(BoardTables.build(board, np.ones_like(board)))
            grid = game.tables.grid
            opened = {grid.cell(index) for index in game.reveal(grid.index(*divmod(cell, cols)))}
            mine_opens = tree._opens[tree._shows[cell][placement]]
            assert opened == {divmod(x, cols) for x in range(rows * cols) if mine_opens >> x & 1}


def _first_covered(view):
    """A plain policy: the first covered cell in row-major order."""
    from cpsolve.cell_states import COVERED

    return view.grid.cell(view.state.index(COVERED))


def _games_won(rows, cols, mines, start, first, choose):
    """Play every board the rule allows in the game core, the policy `choose` (a view -> a decision's
    guess cell, or certain cells) deciding: the number of games won."""
    from cpsolve.generate.deal import GameSettings, allowed_cells
    from cpsolve.play.best import decide
    from cpsolve.play.core import GameState
    from cpsolve.play.tables import BoardTables

    settings = GameSettings(rows, cols, mines, first=first, start=start).check()
    allowed = [tuple(int(x) for x in cell) for cell in np.argwhere(allowed_cells(settings))]
    won = 0
    for chosen in combinations(allowed, mines):
        board = np.zeros((rows, cols), dtype=bool)
        for cell in chosen:
            board[cell] = True
        game = GameState(BoardTables.build(board, np.ones_like(board)))
        grid, number = game.tables.grid, game.tables.number
        game.reveal(grid.index(*first))
        view = game.view()
        alive = True
        while alive and game.safe_left:
            for index in range(grid.size):  # the view's numbers, from the game's cleared cells
                view.shown[index] = number[index] if view.state[index] == 1 else 0
            decision = decide(view, np.random.default_rng(0))  # the certain cells, as the best player's
            for index in decision.mines:
                game.state[index] = 2
            if decision.safe:
                for index in decision.safe:
                    game.reveal(index)
                continue
            alive = game.reveal(grid.index(*choose(view))) is not None
        won += game.won
    return won


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "start", "first"), [(3, 4, 2, "safe", (0, 0)), (4, 4, 3, "opening", (1, 1))]
)
def test_the_best_players_exact_rate_is_its_games_in_the_game_core(rows, cols, mines, start, first):
    tree = GameTree(rows, cols, mines, start, first)
    won = _games_won(rows, cols, mines, start, first, best_policy)
    assert tree.policy_rate(best_policy) == Fraction(won, tree.placements)


@pytest.mark.parametrize("policy", [_first_covered, safest_policy])
def test_a_policys_exact_rate_is_its_games_in_the_game_core(policy):
    tree = GameTree(3, 4, 3, "safe", (0, 0))
    won = _games_won(3, 4, 3, "safe", (0, 0), policy)
    assert tree.policy_rate(policy) == Fraction(won, tree.placements)
    assert tree.policy_rate(policy) < tree.optimum()


# -- costly positions -------------------------------------------------------------------------------


def test_the_costs_of_all_positions_add_up_to_the_loss():
    # the difference of two strategies is the sum, over the positions one reaches, of its reach times
    # what its move there gives away against best play afterwards
    tree = GameTree(4, 4, 4, "safe", (0, 0))
    loss = tree.optimum() - tree.policy_rate(_first_covered)
    everything = tree.costly(_first_covered, count=10**6)
    assert loss > 0 and sum(c.cost for c in everything) == loss
    assert [c.cost for c in everything] == sorted((c.cost for c in everything), reverse=True)
    for c in everything:
        assert c.cost == c.reach * (c.optimum - c.chosen_value) > 0
        assert c.chosen not in c.best and c.best
        assert c.position.total == 4 and c.chosen in c.position.unknown and set(c.best) <= c.position.unknown


def test_the_best_players_costly_positions_on_4x4_with_5_mines():
    found = costly_positions(4, 4, 5, start="safe", first=(0, 0), count=2)
    comparison = compare_with_optimum(4, 4, 5, start="safe", first=(0, 0), count=2)
    assert comparison.costly == tuple(found)
    assert comparison.optimum == Fraction(1433, 3003) and comparison.loss == comparison.optimum - comparison.policy
    assert comparison.loss > 0 and found[0].cost <= comparison.loss
    assert found[0].best and found[0].chosen not in found[0].best


def test_a_policy_that_clicks_an_open_cell_is_refused():
    with pytest.raises(ValueError, match="not a covered cell"):
        policy_win_rate(3, 3, 2, lambda view: (0, 0), start="safe", first=(0, 0))


# -- properties -------------------------------------------------------------------------------------


@st.composite
def games(draw, most_cells=8):
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(1, max(1, most_cells // rows)))
    start = draw(st.sampled_from(["safe", "opening"]))
    first = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    mines = draw(st.integers(0, _room(rows, cols, start, first)))
    return rows, cols, mines, start, first


@settings(max_examples=40, deadline=None)
@given(games())
def test_no_policy_beats_the_optimum(game):
    tree = GameTree(*game)
    optimum = tree.optimum()
    assert 0 < optimum <= 1
    for policy in (best_policy, safest_policy, _first_covered):
        assert 0 < tree.policy_rate(policy) <= optimum


@settings(max_examples=30, deadline=None)
@given(games(most_cells=12))
def test_no_mines_always_wins(game):
    rows, cols, _, start, first = game
    assert optimal_win_rate(rows, cols, 0, start, first) == 1


@settings(max_examples=30, deadline=None)
@given(games(most_cells=10))
def test_mirrored_and_turned_boards_have_the_same_optimum(game):
    rows, cols, mines, start, (r, c) = game
    value = optimal_win_rate(rows, cols, mines, start, (r, c))
    assert optimal_win_rate(rows, cols, mines, start, (rows - 1 - r, c)) == value
    assert optimal_win_rate(rows, cols, mines, start, (r, cols - 1 - c)) == value
    assert optimal_win_rate(cols, rows, mines, start, (c, r)) == value


# -- the command line ---------------------------------------------------------------------------------


def test_stats_prints_the_exact_optimum(runner):
    from cpsolve.cli import app

    args = ["stats", "--random", "3", "3", "2", "--player", "optimal", "--start", "safe", "--first", "1,1"]
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.stderr
    assert text.stdout.splitlines() == [
        "board 3x3, 2 mines, first click 1,1 (safe)",
        "player optimal: exact, over 28 placements equally likely (2 positions searched)",
        "win rate 23/28 = 82.1429%",
    ]
    data = json.loads(runner.invoke(app, [*args[:-2], "--first", "2,2", "--format", "json"]).stdout)
    assert data["win_rate"] == "17/28" and data["first"] == [2, 2] and data["placements"] == 28
    assert Fraction(data["win_rate"]) == brute_optimal(3, 3, 2, "safe", (1, 1))


@pytest.mark.parametrize(
    ("extra", "code", "message"),
    [
        (["--random", "6", "6", "5"], 1, "6x6 with 5 mines has 80,730 placements under the opening rule; the exact "),
        (["--random", "9", "9", "1"], 1, "9x9 has 81 cells; the exact optimum takes at most 64"),
        (["--random", "3", "3", "2", "--no-total"], 2, "the exact optimum always knows the total: drop --no-total"),
        (["--random", "3", "3", "2", "--jobs", "2"], 2, "--jobs, --scheduler and --store are for games played"),
        (["--random", "3", "3", "2", "--first", "4,1"], 1, "first click 4,1 is off the 3x3 board"),
        (["--random", "3", "3", "2"], 1, "2 mines do not fit: the start condition 'opening' leaves 0 cells"),
    ],
)
def test_stats_refuses_what_the_optimum_cannot_take_in_one_line(runner, extra, code, message):
    from cpsolve.cli import app

    result = runner.invoke(app, ["stats", "--player", "optimal", *extra])
    assert result.exit_code == code
    assert result.stderr.startswith(f"cpsolve: {message}") and result.stderr.count("\n") == 1
    assert result.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        ["play", "examples/casual/sample.in", "--player", "optimal"],
        ["generate", "5", "5", "3", "--player", "optimal"],
        ["game", "5", "5", "3", "--no-guess", "optimal"],
        ["stats", "--random", "3", "3", "1", "--player", "perfectly"],
    ],
)
def test_commands_that_play_boards_do_not_take_the_optimum(runner, args):
    from cpsolve.cli import app

    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "invalid value for" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1
