"""The best player: optimal on tiny positions, certain safe moves, exact guesses, honest losses,
the same games on the lead's Game, advice and conflicts against enumeration."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest
from bruteforce_best import optimal_win, placements, player_win, shows, survival
from bruteforce_puzzle import neighbours, random_puzzle

from cpsolve.cell_states import FLAGGED
from cpsolve.deduce import Position, engine
from cpsolve.generate import GameSettings, draw_board
from cpsolve.play import best, best_games
from cpsolve.play.best.fifty_fifty import forced_box, with_known
from cpsolve.play.best.lookahead import pick
from cpsolve.play.casual import Board


def full(rows: int, cols: int) -> frozenset:
    return frozenset((r, c) for r in range(rows) for c in range(cols))


# tiny positions with their optimal win chances worked out by the full game tree
TINY = {
    # two cells, one mine, nothing to tell them apart: a coin flip
    "50/50": Position(1, 2, {}, frozenset(), full(1, 2), total=1),
    # a 2x3 board, one mine, the top-left corner shows 1: its three neighbours share the mine
    "corner one": Position(2, 3, {(0, 0): 1}, frozenset(), full(2, 3) - {(0, 0)}, total=1),
    # a 3x3 board, two mines, nothing shown
    "3x3 blind": Position(3, 3, {}, frozenset(), full(3, 3), total=2),
    # a strip with one clue in the middle and two mines
    "strip": Position(1, 5, {(0, 2): 1}, frozenset(), full(1, 5) - {(0, 2)}, total=2),
    # 2x4, three mines, a 2 in the corner
    "2x4": Position(2, 4, {(0, 0): 2}, frozenset(), full(2, 4) - {(0, 0)}, total=3),
}


@pytest.mark.parametrize("name", sorted(TINY))
def test_the_best_player_wins_tiny_positions_as_often_as_the_full_game_tree(name):
    position = TINY[name]
    optimum = optimal_win(position)
    assert player_win(position) == optimum


def test_the_optimal_values_of_the_tiny_positions_are_the_ones_worked_out_by_hand():
    assert optimal_win(TINY["50/50"]) == Fraction(1, 2)
    # corner one: any of the three neighbours is safe 2/3 of the time and then tells the rest
    assert optimal_win(TINY["corner one"]) >= Fraction(2, 3)


@pytest.mark.parametrize("name", sorted(TINY))
def test_without_the_endgame_search_the_look_ahead_stays_near_the_optimum(name):
    position = TINY[name]
    assert player_win(position, settings=best.BestSettings(endgame_solutions=0)) >= optimal_win(position) - Fraction(
        1, 8
    )


def random_tiny_positions(count: int, seed: int) -> list[Position]:
    """Consistent random positions with a total and at most 9 covered cells."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        rows, cols, clues, known, unknown, holes, board_mines = random_puzzle(rng, 9)
        position = Position(rows, cols, clues, frozenset(known), frozenset(unknown), board_mines)
        if unknown and placements(position):
            found.append(position)
    return found


def test_on_random_tiny_positions_the_player_is_optimal():
    for position in random_tiny_positions(25, seed=7):
        assert player_win(position) == optimal_win(position)


def replay_and_check(mines: np.ndarray, game: best_games.BestGame) -> None:
    """Replay the moves on the board: every safe move is certain from what was shown (with the
    total), every guess's safety is the exact one, every move reveals a covered cell."""
    rows, cols = mines.shape
    total = int(mines.sum())
    from cpsolve.grid import mine_numbers

    numbers = mine_numbers(mines)
    shown: dict = {}

    def reveal(cell):
        stack = [cell]
        while stack:
            here = stack.pop()
            if here in shown:
                continue
            shown[here] = int(numbers[here])
            if numbers[here] == 0:
                stack.extend(n for n in neighbours(here) if 0 <= n[0] < rows and 0 <= n[1] < cols)

    assert game.moves[0].kind == "first"
    for move in game.moves:
        assert move.cell not in shown, "a move revealed a cell already shown"
        if move.kind != "first":
            covered = full(rows, cols) - set(shown)
            found = placements(Position(rows, cols, dict(shown), frozenset(), covered, total))
            safety = Fraction(sum(move.cell not in s for s in found), len(found))
            if move.kind == "safe":
                assert safety == 1, f"safe move {move.cell} is a mine in some placement"
            else:
                assert move.kind == "guess"
                assert safety < 1
                assert move.safety == pytest.approx(float(safety), abs=1e-12)
        if mines[move.cell]:
            assert move is game.moves[-1] and not game.won
            return
        reveal(move.cell)
    assert game.won == (len(shown) == rows * cols - total)


@pytest.mark.parametrize("rows,cols,count,rule", [(4, 4, 3, "safe"), (4, 5, 5, "safe"), (5, 5, 4, "opening")])
def test_every_safe_move_is_certain_and_every_guess_exact_by_enumeration(rows, cols, count, rule):
    settings = GameSettings(rows, cols, count, first=(0, 0) if rule == "safe" else (2, 2), start=rule)
    guesses = 0
    for k in range(25):
        mines = draw_board(settings, np.random.default_rng([11, k]))
        game = best_games.play_best(mines, settings.click, np.random.default_rng([11, k, 1]), record_moves=True)
        replay_and_check(mines, game)
        guesses += game.guesses
    assert guesses > 5  # the boards made the player guess


def test_lost_games_match_the_sum_of_the_guesses_mine_chances():
    """Statistical honesty: each guess loses with the chance the player computed, so over many
    games the losses are the sum of those chances, within four standard deviations (a player that
    saw the mines would lose far fewer, one whose probabilities were off would drift)."""
    settings = GameSettings(9, 9, 10, first=(0, 0), start="safe")
    lost, expected, variance = 0, 0.0, 0.0
    for k in range(1200):
        mines = draw_board(settings, np.random.default_rng([13, k]))
        game = best_games.play_best(mines, (0, 0), np.random.default_rng([13, k, 1]), record_moves=True)
        lost += not game.won
        for move in game.moves:
            if move.kind == "guess":
                expected += 1 - move.safety
                variance += move.safety * (1 - move.safety)
    assert lost > 50
    assert abs(lost - expected) <= 4 * variance**0.5, (lost, expected, variance**0.5)


def test_the_player_on_the_game_api_plays_the_same_games():
    from cpsolve.play.game import Game

    settings = GameSettings(16, 30, 99, first=(0, 0), start="safe")
    for k in range(12):
        mines = draw_board(settings, np.random.default_rng([17, k]))
        ours = best_games.play_best(mines, (0, 0), np.random.default_rng([17, k, 1]))
        board = Board(mines, None, np.ones(mines.shape, dtype=bool))
        theirs = best_games.play_on(Game(board, "perfect", use_total=True), (0, 0), np.random.default_rng([17, k, 1]))
        assert (ours.won, ours.covered, ours.guesses) == (theirs.won, theirs.covered, theirs.guesses)
        assert ours.risk == pytest.approx(theirs.risk, abs=1e-9)


def test_before_its_first_guess_the_player_has_cleared_what_the_perfect_player_with_the_total_clears():
    from cpsolve.board import Board
    from cpsolve.grid import PaddedGrid
    from cpsolve.play.game import play_from
    from cpsolve.reveal import reveal

    settings = GameSettings(16, 16, 40, first=(7, 7))
    for k in range(20):
        mines = draw_board(settings, np.random.default_rng([19, k]))
        board = Board(mines, None, np.ones(mines.shape, dtype=bool))
        perfect = play_from(board, (7, 7), "perfect", use_total=True)
        game = best_games.play_best(mines, (7, 7), np.random.default_rng(0), record_moves=True)
        cleared = np.zeros(mines.shape, dtype=bool)
        for move in game.moves:
            if move.kind == "guess":
                break
            cleared |= reveal(Board(mines, move.cell))
        grid = PaddedGrid(16, 16)
        opened = {(int(r), int(c)) for r, c in zip(*np.nonzero(cleared), strict=True)}
        assert opened == {grid.cell(i) for i in perfect.state.cleared}


def test_a_seed_fixes_the_game_and_another_seed_may_change_it():
    settings = GameSettings(16, 30, 99, first=(0, 0), start="safe")
    mines = draw_board(settings, np.random.default_rng([23, 0]))
    one = best_games.play_best(mines, (0, 0), np.random.default_rng(1), record_moves=True)
    again = best_games.play_best(mines, (0, 0), np.random.default_rng(1), record_moves=True)
    assert one.moves == again.moves


def test_advice_matches_enumeration():
    """Certain cells are the enumeration's backbone; the guess's safety is its exact probability;
    in an endgame the guess wins as often as the full game tree allows."""
    rng = random.Random(29)
    checked = guessed = 0
    while checked < 150:
        rows, cols, clues, known, unknown, holes, board_mines = random_puzzle(rng, 10)
        position = Position(rows, cols, clues, frozenset(known), frozenset(unknown), board_mines)
        advice = best.advise(position)
        found = placements(position)
        if not found:
            assert advice.status == "no_solution"
            continue
        checked += 1
        probability = {cell: Fraction(sum(cell in s for s in found), len(found)) for cell in unknown}
        assert advice.status == "ok" and advice.solutions == len(found)
        assert set(advice.safe) == {c for c, p in probability.items() if p == 0}
        assert set(advice.mines) == {c for c, p in probability.items() if p == 1}
        if advice.safe or len(advice.mines) == len(unknown):
            assert advice.guess is None
            continue
        guessed += 1
        assert advice.guess.safety == 1 - probability[advice.guess.cell]
        for candidate in advice.candidates:
            assert candidate.safety == 1 - probability[candidate.cell]
        if advice.reason == "endgame":
            assert advice.guess.win == pytest.approx(float(optimal_win(position)), abs=1e-12)
    assert guessed > 15


def test_a_forced_50_50_is_guessed_at_once():
    # (0,0) and (1,0) share one mine behind the 1 at (0,1); every other cell next to either is
    # next to both or flagged, so no click can ever tell them apart. The rest of the board (the
    # last three columns, three mines) is safer, but that 50/50 must be guessed some time.
    from cpsolve.grid import mine_numbers

    truth = np.zeros((3, 6), dtype=bool)
    flags = {(2, 0), (2, 1), (0, 2), (1, 2), (2, 2)}
    for cell in [(0, 0), *flags, (0, 4), (1, 5), (2, 3)]:
        truth[cell] = True
    numbers = mine_numbers(truth)
    covered = frozenset({(0, 0), (1, 0)} | {(r, c) for r in range(3) for c in (3, 4, 5)})
    clues = {cell: int(numbers[cell]) for cell in [(0, 1), (1, 1)]}
    position = Position(3, 6, clues, frozenset(flags), covered, total=int(truth.sum()))
    advice = best.advise(position)
    assert not advice.safe and advice.reason == "forced"
    assert advice.guess.cell in {(0, 0), (1, 0)} and advice.guess.safety == Fraction(1, 2)


def test_conflicts_are_minimal():
    """On contradictory positions: the set's clues (with the total when named) have no placement,
    and dropping any one of them leaves one."""
    from bruteforce_puzzle import solutions

    from cpsolve.deduce.conflict import minimal_conflict

    rng = random.Random(31)
    checked = 0
    while checked < 40:
        rows, cols, clues, known, unknown, holes, board_mines = random_puzzle(rng, 10)
        total = board_mines if rng.random() < 0.5 else None
        conflict = minimal_conflict(Position(rows, cols, clues, frozenset(known), frozenset(unknown), total))
        if conflict is None:
            assert solutions(clues, known, unknown, total)
            continue
        checked += 1
        assert conflict.minimal and (conflict.clues or conflict.total)
        members = [*conflict.clues, *(["total"] if conflict.total else [])]

        def holds(kept, clues=clues, known=known, unknown=unknown, total=total):
            kept_clues = {cell: clues[cell] for cell in kept if cell != "total"}
            return bool(solutions(kept_clues, known, unknown, total if "total" in kept else None))

        assert not holds(members)
        for dropped in members:
            assert holds([m for m in members if m != dropped]), (members, dropped)
    assert checked == 40


def test_advice_on_a_contradiction_names_the_conflict():
    position = Position(2, 3, {(0, 0): 1, (0, 2): 1}, frozenset(), full(2, 3) - {(0, 0), (0, 2)}, total=0)
    advice = best.advise(position)
    assert advice.status == "no_solution" and advice.guess is None
    assert advice.conflict.total and len(advice.conflict.clues) == 1


def honest_games(seed: int, strategy: best.BestSettings = best.DEFAULT) -> int:
    """Eight small classic games (boards and ties from `seed`), each replayed and checked move by move
    (:func:`replay_and_check`); the guesses they made."""
    settings = GameSettings(4, 5, 4, first=(0, 0), start="safe")
    guesses = 0
    for k in range(8):
        mines = draw_board(settings, np.random.default_rng([seed, k]))
        ties = np.random.default_rng([seed, k, 1])
        game = best_games.play_best(mines, (0, 0), ties, record_moves=True, settings=strategy)
        replay_and_check(mines, game)
        guesses += game.guesses
    return guesses


def test_without_the_compiled_engine_the_python_one_plays_honest_games(monkeypatch):
    """The fallback where the extension was not built: exact counting in Python, the same checks."""
    monkeypatch.setattr(engine, "_compiled", None)
    assert honest_games(37) > 0


@pytest.mark.skipif(
    not engine.compiled(),
    reason="the Python engine searches isolated regions of at most 16 covered cells (stated on the win-rates page)",
)
def test_an_isolated_region_of_a_game_is_searched_alone_and_exactly():
    """An expert game's position (examples/best/isolated_region.txt): the pocket at the bottom left
    plays alone while the right side has far too many placements for the endgame search; the guess
    is in the pocket and wins it as often as its full game tree (brute force)."""
    from pathlib import Path

    from cpsolve.deduce.view import View
    from cpsolve.formats.puzzle import read_puzzle

    path = Path(__file__).resolve().parent.parent / "examples" / "best" / "isolated_region.txt"
    position = read_puzzle(str(path)).position
    advice = best.advise(position)
    assert advice.reason == "isolated" and advice.solutions > best.DEFAULT.endgame_solutions
    view = View.from_position(position)
    pocket = next(
        {view.grid.cell(i) for i in region}
        for region in engine.regions_py(view.state, view.offsets)
        if view.grid.index(*advice.guess.cell) in region
    )
    assert len(pocket) < 10
    near = {c: n for c, n in position.clues.items() if any(x in pocket for x in neighbours(c))}
    alone = Position(position.rows, position.cols, near, position.known_mines, frozenset(pocket), None)
    counts = {len(s) for s in placements(alone)}
    assert len(counts) == 1  # the pocket's numbers fix its count of mines
    alone = Position(
        position.rows,
        position.cols,
        near,
        position.known_mines,
        frozenset(pocket),
        len(position.known_mines) + counts.pop(),
    )
    assert advice.guess.win == pytest.approx(float(optimal_win(alone)), abs=1e-12)
    assert all(c.win <= advice.guess.win + 1e-12 for c in advice.candidates)


def test_exact_ties_go_to_progress_then_expected_clears_before_the_generator():
    rng = np.random.default_rng(5)
    before = rng.bit_generator.state
    scores, progress, clears = [0.5, 0.7, 0.7, 0.7], [0.9, 0.2, 0.4, 0.4], [9.0, 1.0, 2.0, 3.0]
    assert pick(rng, scores, progress, clears) == 3
    assert pick(rng, scores[:3], progress[:3], clears[:3]) == 2
    assert rng.bit_generator.state == before  # decided without the generator
    tied = {pick(np.random.default_rng(s), [0.7, 0.7], [0.4, 0.4], [2.0, 2.0]) for s in range(20)}
    assert tied == {0, 1}  # still tied: the generator draws


@pytest.mark.parametrize("changed", [{}, {"floating_ratio": 0.95}, {"blend": 0.0}, {"fifty_fifty_scale": 0.0}])
def test_with_other_settings_every_move_stays_certain_or_an_exactly_weighed_guess(changed):
    """Other settings still play honest games: certain moves certain, every guess with its exact
    chance (the exact searches off, so the look-ahead makes the guesses)."""
    settings = best.BestSettings(endgame_solutions=0, isolated_solutions=0, **changed)
    assert honest_games(43, settings) > 3


def test_settings_out_of_range_are_refused_naming_the_setting():
    from cpsolve.errors import ParameterError

    with pytest.raises(ParameterError, match="blend must be from 0 to 1"):
        best.BestSettings(blend=1.5)
    with pytest.raises(ParameterError, match="endgame_solutions must be 0 or more"):
        best.BestSettings(endgame_solutions=-1)


@pytest.mark.parametrize("seed", range(4))
def test_a_forced_50_50_lists_the_guess_first(seed):
    """The candidates are best first: the cell guessed, then its twin (the twin came first for some seeds)."""
    position = Position(2, 3, {(0, 0): 1, (1, 0): 1}, frozenset(), frozenset({(0, 1), (1, 1), (0, 2), (1, 2)}), 2)
    advice = best.advise(position, np.random.default_rng(seed))
    assert advice.reason == "forced" and advice.guess is not None
    assert [c.cell for c in advice.candidates][0] == advice.guess.cell
    assert {c.cell for c in advice.candidates} == {(0, 1), (1, 1)}


def test_a_four_cell_50_50_is_guessed_at_once_and_the_look_ahead_picks_which_cell():
    # examples/best/four_cell_fifty_fifty.txt: the 2x2 block at rows 5-6, columns 3-4 (0-based)
    # holds two mines on one diagonal or the other (the numbers on three sides settle one mine in
    # each pair), the cells beyond its four corners are mines, and its top side is covered: millions
    # of placements, no exact search. Its bottom cells are dead (they can show one number only), so
    # the look-ahead takes a top one.
    from pathlib import Path

    from cpsolve.formats.puzzle import read_puzzle

    path = Path(__file__).resolve().parent.parent / "examples" / "best" / "four_cell_fifty_fifty.txt"
    position = read_puzzle(path).position
    advice = best.advise(position)
    assert not advice.safe and advice.reason == "box"
    assert advice.guess is not None and advice.guess.safety == Fraction(1, 2)
    assert advice.guess.cell in {(5, 3), (5, 4)}
    assert {c.cell for c in advice.candidates} == {(5, 3), (5, 4), (6, 3), (6, 4)}
    assert advice.solutions is not None and advice.solutions > 10**6


def test_which_cell_of_a_four_cell_50_50_is_guessed_matters_and_the_exact_search_decides_it():
    """A small position (found by a review) where the block's diagonals are a 50/50, but guessing
    (0,1) or (1,0) wins 1/2 and (0,0) or (1,1) 2/5: the numbers of one diagonal tell more of the
    board. The exact searches come before the four-cell rule, so the player is optimal here."""
    clues = {(1, 2): 4, (1, 3): 3, (2, 1): 3, (3, 1): 2, (3, 3): 2}
    covered = frozenset({(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (2, 0), (2, 3), (3, 0), (3, 2)})
    position = Position(4, 4, clues, frozenset({(2, 2)}), covered, total=6)
    assert optimal_win(position) == Fraction(1, 2)
    for seed in range(4):
        assert player_win(position, seed) == Fraction(1, 2)


def test_the_share_of_placements_with_cells_known_mines_and_safe_is_the_enumerated_one():
    """``with_known`` flags the mines and makes the safe cells absent: the share it counts is the share
    of placements (with the total) that have those mines and those safe cells."""
    from cpsolve.deduce.view import View

    rng = random.Random(5)
    checked = 0
    for position in random_tiny_positions(60, seed=9):
        found = placements(position)
        if not found:
            continue
        view = View.from_position(position)
        mine, safe = np.empty(len(view.state)), np.empty(len(view.state))
        _, log_count = engine.weights(view.state, view.shown, view.offsets, view.total, mine, safe)
        cells = sorted(position.unknown)
        for _ in range(5):
            chosen = rng.sample(cells, min(len(cells), rng.randint(1, 3)))
            split = rng.randint(0, len(chosen))
            mines, clear = chosen[:split], chosen[split:]
            expected = Fraction(sum(set(mines) <= p and not set(clear) & p for p in found), len(found))
            index = view.grid.index
            status, log_trial = with_known(view, tuple(index(*c) for c in mines), tuple(index(*c) for c in clear))
            share = math.exp(log_trial - log_count) if status == engine.OK else 0.0
            assert share == pytest.approx(float(expected), abs=1e-12)
            assert (share == 0.0) == (expected == 0)
            checked += 1
    assert checked > 100


def random_block_positions(count: int, seed: int) -> list[Position]:
    """Small positions around a 2x2 block of covered cells: its mines often on a diagonal, the cells
    beyond its corners often mines (known or not), the rest of the board partly shown."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        rows, cols = rng.randint(2, 5), rng.randint(2, 6)
        r, c = rng.randint(0, rows - 2), rng.randint(0, cols - 2)
        block = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        if rng.random() < 0.7:
            mines = set(rng.choice([[block[0], block[3]], [block[1], block[2]]]))
        else:
            mines = set(rng.sample(block, rng.randint(0, 3)))
        corners = [(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)]
        board = {(i, j) for i in range(rows) for j in range(cols)}
        mines |= {k for k in corners if k in board and rng.random() < 0.8}
        mines |= {k for k in board - set(block) - set(corners) if rng.random() < 0.2}
        known = {k for k in mines - set(block) if rng.random() < (0.8 if k in corners else 0.3)}
        shown = {k for k in board - mines - set(block) if rng.random() < 0.7}
        unknown = board - known - shown
        if len(unknown) > 12:
            continue
        clues = {k: sum(n in mines for n in neighbours(k)) for k in shown}
        found.append(Position(rows, cols, clues, frozenset(known), frozenset(unknown), total=len(mines)))
    return found


def test_the_four_cell_50_50_test_finds_exactly_the_blocks_enumeration_finds():
    """On positions built around 2x2 blocks (sure mines flagged first, as the player does), a block
    is found exactly when, by enumeration, every placement puts its mines on one diagonal and each
    cell beyond its corners is a known mine or off the board."""
    from cpsolve.deduce.view import View

    hits = misses = 0
    for position in random_block_positions(1200, seed=21):
        found = placements(position)
        sure_mines = frozenset.intersection(*found) if found else frozenset()
        if not found or any(all(cell not in p for p in found) for cell in position.unknown):
            continue  # no placement, or a certain safe cell: the player would not be guessing
        position = Position(
            position.rows,
            position.cols,
            position.clues,
            position.known_mines | sure_mines,
            position.unknown - sure_mines,
            position.total,
        )
        found = placements(position)
        rows, cols = position.rows, position.cols
        expected = set()
        for r in range(rows - 1):
            for c in range(cols - 1):
                a, b, d_, e = (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)
                if not {a, b, d_, e} <= position.unknown:
                    continue
                corners = [(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)]
                if not all(k in position.known_mines or not (0 <= k[0] < rows and 0 <= k[1] < cols) for k in corners):
                    continue
                if all(p & {a, b, d_, e} in ({a, e}, {b, d_}) for p in found):
                    expected.add((a, b, d_, e))
        view = View.from_position(position)
        mine, safe = np.empty(len(view.state)), np.empty(len(view.state))
        _, log_count = engine.weights(view.state, view.shown, view.offsets, view.total, mine, safe)
        state = np.frombuffer(bytes(view.state), dtype=np.uint8)
        safety = np.where(state == 0, safe, -1.0)
        block = forced_box(view, state, safety)
        if expected:
            assert block is not None and tuple(view.grid.cell(i) for i in block) in expected, position
            a, b, d_, e = tuple(view.grid.cell(i) for i in block)
            # no reveal outside the block tells the diagonals apart: swapping them keeps every number
            for p in (p for p in found if a in p):
                q = (p - {a, e}) | {b, d_}
                assert q in found
                for cell in position.unknown - {a, b, d_, e}:
                    assert shows(cell, p, position.known_mines) == shows(cell, q, position.known_mines)
            hits += 1
        else:
            assert block is None, position
            misses += 1
    assert hits >= 20 and misses >= 20, (hits, misses)


def test_the_two_cells_of_a_forced_50_50_tell_the_same():
    """Which cell of a forced 50/50 to guess is a coin flip, not a choice left on the table: in small games,
    both cells of every forced 50/50 met have the same chance of surviving the click and the next (brute
    force), so the look-ahead could not choose between them either."""
    from cpsolve.deduce.view import View
    from cpsolve.play.best.lookahead import lookahead
    from cpsolve.play.best.playing import BestGame, play_on_state
    from cpsolve.play.core import GameState
    from cpsolve.play.tables import BoardTables

    settings = best.BestSettings(blend=0.0, endgame_solutions=0, isolated_solutions=0)
    seen: list[tuple[Position, dict]] = []

    def recording(view: View, rng, deadline, settings):
        decision = best.decide(view, rng, deadline, settings)
        if decision.reason == best.Reason.FORCED:  # the view changes as the game goes on: read it now
            state = bytearray(view.state)  # its sure mines flagged, as the strategy reads it
            for cell in decision.mines:
                state[cell] = FLAGGED
            flagged = View(view.grid, state, view.shown, view.total)
            pair = np.array([c.cell for c in decision.candidates], dtype=np.int64)
            flat = np.frombuffer(bytes(state), dtype=np.uint8)
            scored = lookahead(flagged, flat, np.full(len(state), 0.5), rng, {}, pair, settings)
            seen.append((view.position(), {view.grid.cell(c.cell): c.survival for c in scored.candidates}))
        return decision

    game_settings = GameSettings(6, 6, 9, "best", True, (0, 0), "safe", 0).check()
    for k in range(400):
        mines = draw_board(game_settings, np.random.default_rng([0, k]))
        game = GameState(BoardTables.build(mines, np.ones(mines.shape, dtype=bool)))
        game.reveal(game.tables.grid.index(0, 0))
        play_on_state(game, np.random.default_rng([0, k, 1]), BestGame(False, 0, 0, 0), settings, recording)
    for position, scores in seen:
        exact = {cell: survival(position, cell) for cell in scores}
        assert len(set(exact.values())) == 1, (position, exact)
        for cell, score in scores.items():
            assert score == pytest.approx(float(exact[cell]), abs=1e-9)
    assert len(seen) > 20


def _pattern_chance(position, found: list[frozenset], mines: list, clear: list, beyond: list) -> Fraction:
    """By enumeration: the chance that `mines` and the covered cells of `beyond` are mines and `clear` is safe,
    0 when a cell of `beyond` is shown or more than three are covered (cells off the board or holes are
    skipped, as mines already there)."""
    on_board = [k for k in beyond if 0 <= k[0] < position.rows and 0 <= k[1] < position.cols]
    if any(k in position.clues for k in on_board):
        return Fraction(0)
    missing = [k for k in on_board if k in position.unknown]
    left = position.total - len(position.known_mines)
    if len(missing) > 3 or len(missing) + len(mines) > left:
        return Fraction(0)
    hits = sum(1 for p in found if all(k in p for k in (*mines, *missing)) and not any(k in p for k in clear))
    return Fraction(hits, len(found))


def _influence_by_enumeration(position, found: list[frozenset], cell) -> Fraction:
    r, c = cell

    def pair(a, step):
        b = (a[0] + step[0], a[1] + step[1])
        if a not in position.unknown or b not in position.unknown:
            return Fraction(0)
        across = (step[1], step[0])
        beyond = [(a[0] - step[0] + k * across[0], a[1] - step[1] + k * across[1]) for k in (-1, 0, 1)]
        beyond += [(b[0] + step[0] + k * across[0], b[1] + step[1] + k * across[1]) for k in (-1, 0, 1)]
        return _pattern_chance(position, found, [a], [b], beyond)

    def block(a):
        i, j = a
        four = [(i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)]
        if not all(k in position.unknown for k in four):
            return Fraction(0)
        beyond = [(i - 1, j - 1), (i - 1, j + 2), (i + 2, j - 1), (i + 2, j + 2)]
        return _pattern_chance(position, found, [(i, j), (i + 1, j + 1)], [(i, j + 1), (i + 1, j)], beyond)

    total = max(pair((r, c - 1), (0, 1)), pair((r, c), (0, 1)))
    total += max(pair((r - 1, c), (1, 0)), pair((r, c), (1, 0)))
    total += max(block((r, c)), block((r, c - 1)), block((r - 1, c)), block((r - 1, c - 1)))
    mine = Fraction(sum(1 for p in found if cell in p), len(found))
    return min(total, mine, 1 - mine)


def test_each_cells_50_50_influence_is_the_enumerated_chance_of_its_patterns():
    """The 50/50 influence of a looked-ahead cell (pairs and 2x2 blocks holding it, up to three covered cells
    beyond, no shown one) against enumeration of every placement, on positions built around 2x2 blocks and
    on random small boards with the total known."""
    from cpsolve.deduce.view import View
    from cpsolve.play.best.fifty_fifty import cell_influence

    rng = random.Random(5)
    positions = random_block_positions(300, seed=33)
    while len(positions) < 600:
        rows, cols, clues, known, unknown, _, total = random_puzzle(rng, max_unknown=12)
        positions.append(Position(rows, cols, clues, frozenset(known), frozenset(unknown), total))
    checked = nonzero = 0
    for position in positions:
        found = placements(position)
        if not found or not position.unknown:
            continue
        view = View.from_position(position)
        mine, safe = np.empty(len(view.state)), np.empty(len(view.state))
        status, log_count = engine.weights(view.state, view.shown, view.offsets, view.total, mine, safe)
        assert status == engine.OK
        state = np.frombuffer(bytes(view.state), dtype=np.uint8)
        cells = sorted(position.unknown)
        got = cell_influence(view, state, safe, log_count, [view.grid.index(*k) for k in cells])
        for k in cells:
            expected = _influence_by_enumeration(position, found, k)
            assert got[view.grid.index(*k)] == pytest.approx(float(expected), abs=1e-9), (position, k)
            checked += 1
            nonzero += expected > 0
    assert checked > 1000 and nonzero > 100, (checked, nonzero)


def test_the_blocks_about_to_become_50_50s_are_those_with_no_shown_and_one_covered_cell_beyond():
    """The cells of 2x2 blocks of covered cells that may become four-cell 50/50s, against their definition
    read off the position: none of the four cells diagonally beyond the block's corners shown, at most one
    covered (off the board or a known mine otherwise)."""
    from cpsolve.deduce.view import View
    from cpsolve.play.best.fifty_fifty import block_cells

    positions = random_block_positions(400, seed=52)
    some = 0
    for position in positions:
        view = View.from_position(position)
        state = np.frombuffer(bytes(view.state), dtype=np.uint8)
        expected = set()
        for r in range(position.rows - 1):
            for c in range(position.cols - 1):
                four = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
                if not all(k in position.unknown for k in four):
                    continue
                beyond = [(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)]
                if any(k in position.clues for k in beyond):
                    continue
                if sum(k in position.unknown for k in beyond) <= 1:
                    expected |= {view.grid.index(*k) for k in four}
        assert set(block_cells(view, state)) == expected, position
        some += bool(expected)
    assert some > 100, some
