"""The person's game without Textual: the rules against plain brute force, the view, the dealer, the help."""

from __future__ import annotations

import random
from collections import deque
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from bruteforce_puzzle import solutions

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.errors import InputError, TimeLimitError, UsageError
from cpsolve.generate import GameSettings, generate_boards
from cpsolve.play import assist
from cpsolve.play.game import Game
from cpsolve.play.session import Deal, Dealer, Session


def board_deal(rows: list[str], first=(0, 0), start="safe") -> Deal:
    """A deal of a board drawn as text (``*`` mines)."""
    mines = np.array([[ch == "*" for ch in row] for row in rows])
    settings = GameSettings(len(rows), len(rows[0]), int(mines.sum()), first=first, start=start)
    return Deal(mines, first, settings)


def random_deal(rng: random.Random, rows: int, cols: int, mines: int) -> Deal:
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    first = rng.choice(cells)
    placed = set(rng.sample([cell for cell in cells if cell != first], mines))
    return board_deal(["".join("*" if (r, c) in placed else "." for c in range(cols)) for r in range(rows)], first)


def around(cell, rows, cols):
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0) and 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


def number(mines, cell):
    return sum(bool(mines[other]) for other in around(cell, *mines.shape))


def bfs_open(mines, start, blocked) -> set:
    """The plain reveal: `start` and, through zero cells, everything reachable (not `blocked`)."""
    opened, queue = {start}, deque([start])
    while queue:
        cell = queue.popleft()
        if number(mines, cell) == 0:
            for other in around(cell, *mines.shape):
                if other not in opened and other not in blocked:
                    opened.add(other)
                    queue.append(other)
    return opened


def cells_in(session: Session, state: int) -> set:
    return {(r, c) for r in range(session.rows) for c in range(session.cols) if session.state((r, c)) == state}


def test_reveal_opens_what_a_plain_bfs_opens_and_leaves_flags_alone():
    rng = random.Random(1)
    for _ in range(150):
        rows, cols = rng.randint(1, 7), rng.randint(1, 7)
        deal = random_deal(rng, rows, cols, rng.randint(0, rows * cols - 1))
        session = Session(deal)
        covered = [(r, c) for r in range(rows) for c in range(cols)]
        flags = set(rng.sample(covered, min(len(covered), rng.randint(0, 3))))
        for cell in flags:
            session.toggle_flag(cell)
        targets = [cell for cell in covered if cell not in flags]
        if not targets:
            continue
        cell = rng.choice(targets)
        move = session.reveal(cell)
        if deal.mines[cell]:
            assert session.lost and move.exploded == (cell,) and not cells_in(session, CLEARED)
        else:
            expected = bfs_open(deal.mines, cell, flags)
            assert cells_in(session, CLEARED) == expected and session.cleared == len(expected)
            assert session.won == (len(expected) == rows * cols - deal.mines.sum())
        assert cells_in(session, FLAGGED) == flags


def test_a_second_reveal_continues_from_the_first():
    rng = random.Random(2)
    for _ in range(60):
        deal = random_deal(rng, 6, 6, 5)
        session = Session(deal)
        safe = [(r, c) for r in range(6) for c in range(6) if not deal.mines[r, c]]
        a, b = rng.sample(safe, 2)
        session.reveal(a)
        before = cells_in(session, CLEARED)
        session.reveal(b)
        expected = before if b in before else before | bfs_open(deal.mines, b, before)
        assert cells_in(session, CLEARED) == expected


def test_chord_reveals_the_rest_of_a_satisfied_number_and_nothing_otherwise():
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        deal = random_deal(rng, 5, 5, rng.randint(3, 8))
        session = Session(deal)
        session.reveal(deal.first)
        cleared = sorted(cells_in(session, CLEARED))
        if session.over or not cleared:
            continue
        centre = rng.choice(cleared)
        neighbours = [cell for cell in around(centre, 5, 5) if session.state(cell) == COVERED]
        flags = set(rng.sample(neighbours, rng.randint(0, len(neighbours)))) if neighbours else set()
        for cell in flags:
            session.toggle_flag(cell)
        before_cleared, clicks = cells_in(session, CLEARED), session.clicks
        targets = [cell for cell in neighbours if cell not in flags]
        move = session.chord(centre)
        if len(flags) != number(deal.mines, centre) or not targets:
            assert move is None and cells_in(session, CLEARED) == before_cleared and session.clicks == clicks
            continue
        checked += 1
        hit = {cell for cell in targets if deal.mines[cell]}
        expected = set(before_cleared)
        for cell in targets:
            if not deal.mines[cell] and cell not in expected:
                expected |= bfs_open(deal.mines, cell, expected | flags)
        assert set(move.exploded) == hit and session.lost == bool(hit)
        assert cells_in(session, CLEARED) == expected and session.clicks == clicks + 1
    assert checked > 30


def test_undo_restores_the_state_before_the_move_exactly():
    rng = random.Random(4)
    for _ in range(80):
        deal = random_deal(rng, 6, 7, rng.randint(4, 12))
        session = Session(deal)
        history = []
        for _ in range(12):
            cell = (rng.randrange(6), rng.randrange(7))
            action = rng.choice(("reveal", "reveal", "flag", "chord"))
            if action == "flag":
                session.toggle_flag(cell)
                history.clear()  # undo keeps flags set since a move, so only compare back to here
                continue
            snapshot = (session.picture(), session.cleared, session.lost)
            move = session.reveal(cell) if action == "reveal" else session.chord(cell)
            if move is not None:
                history.append(snapshot)
        while history:
            undone = session.undos
            assert session.undo() is not None and session.undos == undone + 1
            assert (session.picture(), session.cleared, session.lost) == history.pop()


def test_undo_keeps_flags_set_since_and_takes_back_a_loss():
    deal = board_deal(["*..", "...", "..*"], first=(0, 2))
    session = Session(deal)
    session.reveal((0, 2))  # a zero: its opening
    session.toggle_flag((2, 2))
    session.toggle_flag((2, 0))
    assert session.reveal((0, 0)).exploded == ((0, 0),) and session.lost and session.over
    assert session.picture() == ["!10", "-21", "x-F"]  # the mine hit, a wrong flag
    session.undo()
    assert not session.lost and session.picture() == ["-10", "-21", "F-F"]
    session.undo()
    assert session.picture() == ["---", "---", "F-F"] and session.undo() is None


def test_counters_summary_and_restart():
    now = [100.0]
    deal = board_deal(["*..", "...", "..."], first=(2, 2))
    session = Session(deal, clock=lambda: now[0])
    assert session.seconds == 0 and session.mines_left == 1
    session.toggle_flag((0, 0))
    now[0] = 104.0
    session.reveal((2, 2))
    assert session.won and session.over and session.flags == 1 and session.mines_left == 0
    now[0] = 110.0
    summary = session.summary()
    assert (summary.outcome, summary.seconds, summary.clicks, summary.bbbv) == ("won", 4.0, 2, 1)
    assert summary.bbbv_per_second == 0.25 and summary.unjudged == 1 and summary.guesses == 0
    assert session.reveal((0, 1)) is None and not session.toggle_flag((0, 0))  # over: nothing changes
    session.restart()
    assert session.picture() == ["---"] * 3 and session.clicks == 0 and session.seconds == 0


def test_view_is_the_game_view_when_flags_are_right():
    """After the first click the view is Game.view's, flags taken as mines on request and unknown by default."""
    for seed in range(5):
        deal = Dealer(9, 9, 10, seed=seed).deal()  # uniform: the casual player often stops short
        game = Game(_casual_board(deal), "casual")
        game.start(deal.first)
        end = game.end()
        session = Session(deal)
        grid = game.tables.grid
        for index in end.state.flagged:  # flags first: a won game takes no more flags
            session.toggle_flag(grid.cell(index))
        for index in end.state.cleared:
            session.reveal(grid.cell(index))
        assert session.view(flags_as_mines=True) == game.view()
        view = session.view()
        assert not view.known_mines and view.unknown == game.view().unknown | game.view().known_mines
        shown = {cell: number(deal.mines, cell) for cell in cells_in(session, CLEARED)}
        assert view.total == 10 and view.clues == shown


def _casual_board(deal):
    from cpsolve.play.casual import Board

    return Board(deal.mines, None, np.ones(deal.mines.shape, dtype=bool))


def test_view_leaves_out_the_cells_the_start_rule_promises_until_they_are_cleared():
    deal = Dealer(9, 9, 10, start="opening", seed=7).deal()
    session = Session(deal)
    r, c = deal.first
    promised = {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    assert session.promised == promised
    view = session.view()
    assert view.unknown == {(i, j) for i in range(9) for j in range(9)} - promised and not view.clues
    session.reveal(deal.first)
    assert not session.view().unknown & promised and promised <= cells_in(session, CLEARED)


def brute_chances(view):
    found = solutions(dict(view.clues), set(view.known_mines), set(view.unknown), view.total)
    return {cell: Fraction(sum(cell in s for s in found), len(found)) for cell in view.unknown}, found


def test_chances_and_safety_agree_with_brute_force():
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        deal = random_deal(rng, 4, 4, rng.randint(2, 6))
        session = Session(deal)
        safe = [(r, c) for r in range(4) for c in range(4) if not deal.mines[r, c]]
        for cell in rng.sample(safe, 2):
            session.reveal(cell)
        if session.over:
            continue
        view = session.view()
        expected, found = brute_chances(view)
        chances = assist.chances(view)
        assert chances.cells == expected and chances.count == len(found)
        cells = set(rng.sample(sorted(view.unknown), min(3, len(view.unknown))))
        assert assist.safety(view, cells) == Fraction(sum(not (s & cells) for s in found), len(found))
        checked += 1
    assert checked > 20


def brute_game_chances(session: Session) -> tuple[dict, int]:
    """Each cell not cleared: its chance of a mine over every board that fits what the game showed (the
    numbers cleared, the total, the start rule's promised cells safe), flags ignored: they are marks."""
    rows, cols = session.rows, session.cols
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    shown = {cell: session.number(cell) for cell in cells if session.state(cell) == CLEARED}
    unknown = sorted(cell for cell in cells if cell not in shown and cell not in session.promised)
    found = [
        set(mines)
        for mines in combinations(unknown, int(session.deal.mines.sum()))
        if all(sum(other in mines for other in around(cell, rows, cols)) == n for cell, n in shown.items())
    ]
    chances = {cell: Fraction(sum(cell in s for s in found), len(found)) for cell in unknown}
    chances.update(dict.fromkeys(session.promised - set(shown), Fraction(0)))
    return chances, len(found)


@pytest.mark.parametrize("start", ["safe", "opening"])
def test_the_hint_and_the_chances_agree_with_brute_force_whatever_the_flags(start):
    """Games with flags right and wrong, on the start cell too: the chances are the brute force's, the
    hint's certain cells are exactly the cells of chance 0 and 1, and a guess's safety is its chance's
    complement (a flag is the person's mark, never a fact)."""
    rng = random.Random(17 if start == "safe" else 18)
    checked = flagged_promised = 0
    for _ in range(120):
        rows, cols = rng.randint(3, 4), rng.randint(4, 5)
        # the opening's 3x3 is mine-free: at most 4 mines in the cells beyond it
        room = rows * cols - (1 if start == "safe" else 9)
        dealer = Dealer(rows, cols, rng.randint(1, min(4, room)), start=start, seed=rng.randrange(10**6))
        session = Session(dealer.deal())
        covered = sorted(cells_in(session, COVERED))
        for cell in rng.sample(covered, rng.randint(1, 4)):
            session.toggle_flag(cell)
        if rng.random() < 0.5 and session.state(session.deal.first) == COVERED:
            session.toggle_flag(session.deal.first)
        for cell in rng.sample(sorted(cells_in(session, COVERED)), rng.randint(0, 2)):
            if not session.deal.mines[cell]:
                session.reveal(cell)
        if session.over:
            continue
        expected, count = brute_game_chances(session)
        chances = assist.chances(session.view(), session.promised_left())
        assert chances.cells == expected and chances.count == count
        hint = assist.hint(session.view(), session.promised_left())
        assert set(hint.safe) == {cell for cell, p in expected.items() if p == 0}
        assert set(hint.mines) == {cell for cell, p in expected.items() if p == 1}
        if hint.guess is not None:
            assert not hint.safe and hint.safety == 1 - expected[hint.guess]
        flagged_promised += bool(session.promised & cells_in(session, FLAGGED))
        checked += 1
    assert checked > 60 and flagged_promised > 10


def test_a_flag_on_the_start_cell_leaves_it_safe_in_the_hint_and_the_chances():
    """The case a fuzz found (5x4, 2 mines, classic, seed 883; the only move flags the start cell):
    the chances gave the cell 0 while the hint found nothing certain and advised a guess."""
    session = Session(Dealer(5, 4, 2, start="safe", seed=883).deal())
    session.toggle_flag(session.deal.first)
    chances = assist.chances(session.view(), session.promised_left())
    hint = assist.hint(session.view(), session.promised_left())
    assert chances.cells[session.deal.first] == 0
    assert hint.safe == (session.deal.first,) and hint.guess is None


def test_judge_says_whether_a_move_was_a_guess():
    deal = board_deal(["*.", "..", ".."], first=(2, 0))  # the opening leaves (0,0) and (0,1) covered
    session = Session(deal)
    first = session.reveal((2, 0))
    assert assist.judge_move(first) == 1  # the start rule promised it
    guess = session.reveal((0, 1))  # one mine in two cells, both next to the same 1s
    assert assist.judge_move(guess) == Fraction(1, 2) and session.summary().guesses == 1
    assert session.won


def test_a_no_guess_board_needs_no_guess_and_a_coin_flip_does():
    assert not assist.needed_guess(Dealer(9, 9, 10, no_guess="subset", seed=1).deal())
    assert assist.needed_guess(board_deal(["*.", "..", ".."], first=(2, 0)))


def test_dealer_deals_the_generators_boards_seed_after_seed():
    dealer = Dealer(9, 9, 10, no_guess="perfect", start="safe", seed=11)
    for number in range(3):
        deal = dealer.deal(number)
        expected = next(generate_boards(GameSettings(9, 9, 10, "perfect", True, None, "safe", 11 + number), 1))
        assert (deal.mines == expected.mines).all() and deal.first == expected.first == (4, 4)
        assert deal.settings.seed == 11 + number and deal.no_guess == "perfect"
    uniform = Dealer(16, 30, 99, seed=2)
    boards = [uniform.deal(number) for number in range(20)]
    assert all(b.mines.sum() == 99 and not b.mines[6:9, 13:16].any() and b.no_guess is None for b in boards)
    assert (uniform.deal(5).mines == boards[5].mines).all()


def test_dealer_checks_its_board_and_a_no_guess_deal_keeps_its_time_limit():
    with pytest.raises(InputError):
        Dealer(9, 9, 75)
    with pytest.raises(InputError):
        Dealer(101, 9, 10)
    with pytest.raises(UsageError):
        Dealer(9, 9, 10, no_guess="best")
    with pytest.raises(TimeLimitError):
        Dealer(9, 9, 60, no_guess="perfect", start="safe").deal(time_limit=1e-9)
