"""The terminal game driven headless through Textual's own harness (App.run_test and its pilot).

Screens at a few points are compared with text captures under tests/snapshots/game/, so a change
in what the player sees shows in review; ``CPSOLVE_UPDATE_SNAPSHOTS=1 pytest tests/test_game_app.py``
rewrites them after a deliberate change.
"""

from __future__ import annotations

import asyncio
import io
import os
import threading
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rich.console import Console  # noqa: E402

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED  # noqa: E402
from cpsolve.formats.game import game_json  # noqa: E402
from cpsolve.game.app import GameApp  # noqa: E402
from cpsolve.game.end_screen import EndScreen, describe_safety  # noqa: E402
from cpsolve.game.lines import start_key  # noqa: E402
from cpsolve.game.minefield import CHANCE_SCALE, Field, Minefield, chance_glyph, chance_legend, percent  # noqa: E402
from cpsolve.play import assist  # noqa: E402
from cpsolve.play.session import Dealer, Session  # noqa: E402

# the terminal game driven key by key: left out of the quick run, `pytest -m "not slow"`
pytestmark = pytest.mark.slow

SNAPSHOTS = Path(__file__).parent / "snapshots" / "game"


def play(dealer: Dealer, scenario, size=(80, 24), **options) -> None:
    """Run `scenario(app, pilot, clock)` on a fresh app; the clock stands still unless moved."""

    async def main() -> None:
        clock = [0.0]
        app = GameApp(dealer, time_limit=options.pop("time_limit", 30.0), clock=lambda: clock[0], **options)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await scenario(app, pilot, clock)

    asyncio.run(main())


async def settle(app: GameApp, pilot) -> None:
    """Wait for the solver's jobs, and for the jobs their answers start, and for the screen."""
    for _ in range(3):
        # each worker to its end (a cancelled one too: Textual's wait_for_complete raises on those)
        await asyncio.gather(*(worker.wait() for worker in list(app.workers)), return_exceptions=True)
        await pilot.pause()


async def press(app: GameApp, pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await settle(app, pilot)


async def go_to(app: GameApp, pilot, cell) -> None:
    """Move the cursor to `cell` with the arrow keys."""
    (r, c), (tr, tc) = app.cursor, cell
    keys = ["down" if tr > r else "up"] * abs(tr - r) + ["right" if tc > c else "left"] * abs(tc - c)
    if keys:
        await pilot.press(*keys)
    assert app.cursor == cell


def screen_text(app: GameApp) -> str:
    """The screen as plain text, rendered as Textual's own screenshot renders it."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        force_terminal=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def check_snapshot(app: GameApp, name: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    text = screen_text(app)
    if os.environ.get("CPSOLVE_UPDATE_SNAPSHOTS"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), f"the screen changed: compare with {path}"


def line(app: GameApp, name: str) -> str:
    return str(app.query_one(f"#{name}").render()).rstrip()


def in_sight(app: GameApp, *names: str) -> bool:
    """Whether the lines read whole on the screen as it is rendered (the result's dialog included)."""
    rows = [row.strip() for row in screen_text(app).splitlines()]
    return all(line(app, name) and line(app, name) in rows for name in names)


def board_rows(app: GameApp) -> list[str]:
    """The board's lines below its column numbers, without the row numbers on their left."""
    board = app.query_one(Minefield)
    return [row[board.label_width :] for row in board.render().plain.split("\n")[1:]]


def cell_texts(app: GameApp) -> dict:
    """What the board shows in each cell, stripped (the cursor's brackets removed)."""
    width = app.query_one(Minefield).cell_width
    return {
        (r, c): row[c * width : (c + 1) * width].strip(" []▸")
        for r, row in enumerate(board_rows(app))
        for c in range(len(row) // width)
    }


def offset_of(app: GameApp, cell) -> tuple[int, int]:
    """Where a click on `cell` lands on the board widget (its mark's column)."""
    region = app.query_one(Minefield).region_of(cell)
    return region.x + 1, region.y


async def win_by_keys(app: GameApp, pilot) -> None:
    """Reveal a cell the library proves safe, by the arrows and space, until the game is won."""
    session = app.session
    if not session.moves:
        await press(app, pilot, "space")  # the cursor starts on the first click
    while not session.over:
        chances = assist.chances(session.view(), session.promised_left())
        safe = min(cell for cell, chance in chances.cells.items() if chance == 0 and session.state(cell) == COVERED)
        await go_to(app, pilot, safe)
        await press(app, pilot, "space")


def test_a_no_guess_board_is_won_by_keys_alone_with_no_guess_made():
    dealer = Dealer(9, 9, 10, no_guess="perfect", seed=3)

    async def scenario(app, pilot, clock):
        deal = app.session.deal
        assert (deal.mines == dealer.deal(0).mines).all() and app.cursor == deal.first == (4, 4)
        # the start cell's S is explained in the key while it is drawn: safe by the start rule
        assert cell_texts(app)[deal.first] == "S" and app.query_one("#legend").display
        assert line(app, "legend") == start_key("opening")
        assert line(app, "legend").startswith("S start cell: safe by the start rule (no mine in its 3x3)")
        check_snapshot(app, "beginner_start")
        await press(app, pilot, "space")
        assert not app.query_one("#legend").display and line(app, "legend") == ""
        assert line(app, "verdict") == "was that a guess? no: certain from what was shown"
        clock[0] = 30.0
        await win_by_keys(app, pilot)
        assert app.session.won and line(app, "status").startswith("won")
        assert isinstance(app.screen, EndScreen)
        result = str(app.screen.query_one("#result").render())
        summary = app.session.summary()
        assert summary.guesses == 0 and summary.unjudged == 0 and summary.clicks == len(app.session.moves)
        assert f"3BV             {app.session.bbbv}\n" in result and "30.0 s" in result
        assert "guesses made    0" in result and "needed a guess  no (the perfect player wins it)" in result
        assert in_sight(app, "status", "verdict")  # the result sits over the board, not over the lines under it
        check_snapshot(app, "beginner_won")

    play(dealer, scenario)


def test_a_mine_loses_undo_takes_it_back_and_the_result_says_so():
    dealer = Dealer(9, 9, 10, seed=3)

    async def scenario(app, pilot, clock):
        session = app.session
        await press(app, pilot, "space")
        before = session.picture()
        # a mine the numbers shown make certain (the 2 at row 1, col 2 has two covered cells around it)
        chances = assist.chances(session.view(), session.promised_left())
        mine = min(cell for cell, chance in chances.cells.items() if chance == 1)
        await go_to(app, pilot, mine)
        await press(app, pilot, "space")
        assert session.lost and line(app, "status").startswith("lost") and isinstance(app.screen, EndScreen)
        # walking into a certain mine is no guess: the verdict says what it was, and no count takes it for one
        assert session.moves[-1].safety == 0
        assert line(app, "verdict") == "was that a guess? no: it was a mine for certain from what was shown"
        result = str(app.screen.query_one("#result").render())
        assert result.startswith("LOST") and "guesses made    0" in result
        assert session.summary().guesses == 0 and game_json(session, None, None, False)["guesses"] == 0
        assert in_sight(app, "status", "verdict")
        assert session.picture()[mine[0]][mine[1]] == "!"
        check_snapshot(app, "beginner_lost")
        await press(app, pilot, "u")
        assert not isinstance(app.screen, EndScreen) and session.picture() == before
        assert line(app, "status").startswith("playing") and line(app, "verdict").startswith("undone")
        await win_by_keys(app, pilot)
        result = str(app.screen.query_one("#result").render())
        assert result.startswith("WON  (after 1 undo)") and session.summary().undos == 1

    play(dealer, scenario)


def test_a_guess_is_a_move_neither_certain_to_be_safe_nor_certain_to_be_a_mine():
    """The result's count of guesses and the web's JSON agree, move by move: a certain safe cell and
    a certain mine are no guess, a cell with a chance of either is one."""
    session = Session(Dealer(9, 9, 10, seed=3).deal())
    session.reveal(session.deal.first)
    chances = assist.chances(session.view(), session.promised_left())
    certain_mine = min(cell for cell, chance in chances.cells.items() if chance == 1)
    unsure = min(cell for cell, chance in chances.cells.items() if 0 < chance < 1 and not session.deal.mines[cell])
    for cell, safety, guesses in ((certain_mine, 0, 0), (unsure, 1 - chances.cells[unsure], 1)):
        move = session.reveal(cell)
        assert assist.judge_move(move) == safety
        view = game_json(session, None, None, False)
        assert view["moves"][-1]["guess"] is (guesses == 1)
        assert session.summary().guesses == view["guesses"] == guesses
        if session.lost:
            assert describe_safety(move) == "was that a guess? no: it was a mine for certain from what was shown"
            session.undo()
    assert describe_safety(move).startswith(f"was that a guess? yes: it was safe with chance {percent(safety)}")


@pytest.mark.parametrize(
    "dealer, size, where",
    [
        (Dealer(16, 30, 99, seed=8), (80, 24), "over the board"),
        (Dealer(4, 4, 1, seed=1), (80, 24), "below the lines"),
        (Dealer(9, 9, 10, seed=3), (80, 16), "at the top"),
    ],
    ids=["expert", "4x4", "beginner-80x16"],
)
def test_the_result_leaves_the_lines_under_the_board_in_sight_where_there_is_room(dealer, size, where):
    async def scenario(app, pilot, clock):
        session = app.session
        await press(app, pilot, "space")
        if not session.over:
            await go_to(app, pilot, min(cell for cell in cells_of(session, COVERED) if session.deal.mines[cell]))
            await press(app, pilot, "space")
        assert session.over and isinstance(app.screen, EndScreen)
        dialog, kept = app.screen.query_one("#result").region, app._kept_lines()
        board = app.query_one(Field).region
        placed = (
            "over the board"
            if dialog.bottom <= kept.y and dialog.overlaps(board)
            else "below the lines"
            if dialog.y >= kept.bottom
            else "at the top"
        )
        assert placed == where and dialog.y >= 0 and dialog.bottom <= size[1]
        # where the dialog fits beside them, the verdict and the status stay readable
        assert in_sight(app, "status", "verdict") == (where != "at the top")
        # and the verdict is whole: the chance's fraction is left out where the line has no room for it
        move = session.moves[-1]
        verdict = line(app, "verdict")
        assert verdict in (describe_safety(move), describe_safety(move, exact=False))
        assert len(verdict) <= app.query_one("#verdict").size.width

    play(dealer, scenario, size=size)


def test_flags_by_right_click_and_a_chord_by_key_and_by_click():
    dealer = Dealer(9, 9, 10, no_guess="perfect", seed=5)

    async def scenario(app, pilot, clock):
        session = app.session
        mines = session.deal.mines
        await press(app, pilot, "space")
        numbers = [
            cell
            for cell in sorted(cells_of(session, CLEARED))
            if session.number(cell) > 0 and any(session.state(n) == COVERED and not mines[n] for n in around(cell))
        ]
        for key_chord, number in zip((True, False), numbers[::3], strict=False):
            for neighbour in around(number):
                if mines[neighbour] and session.state(neighbour) == COVERED:
                    await pilot.click(Minefield, offset=offset_of(app, neighbour), button=3)
                    await settle(app, pilot)
                    assert session.state(neighbour) == FLAGGED
            if session.state(number) != CLEARED or session.over:
                continue
            covered = [n for n in around(number) if session.state(n) == COVERED]
            if key_chord:
                await go_to(app, pilot, number)
                await press(app, pilot, "d")
            else:
                await pilot.click(Minefield, offset=offset_of(app, number))
                await settle(app, pilot)
            assert covered and all(session.state(n) == CLEARED for n in covered)
            move = session.moves[-1]
            assert move.kind == "chord" and move.safety == assist.safety(move.before.position(), covered)
            whole = describe_safety(move)  # the fraction left out where the line has no room for it
            room = app.query_one("#verdict").size.width
            assert line(app, "verdict") == (whole if len(whole) <= room else describe_safety(move, exact=False))
        flagged = min(cells_of(session, FLAGGED))
        await pilot.click(Minefield, offset=offset_of(app, flagged), button=3)
        await settle(app, pilot)
        assert session.state(flagged) == COVERED
        wrong = min(
            cell
            for cell in cells_of(session, COVERED)
            if not mines[cell] and any(session.state(n) == CLEARED and session.number(n) for n in around(cell))
        )
        number = min(n for n in around(wrong) if session.state(n) == CLEARED and session.number(n))
        for neighbour in around(number):
            if session.state(neighbour) == FLAGGED:
                await pilot.click(Minefield, offset=offset_of(app, neighbour), button=3)
        await go_to(app, pilot, wrong)
        await press(app, pilot, "f")  # a wrong flag, and the number's flags made to match: the chord loses
        for neighbour in sorted(around(number)):
            flags = sum(session.state(n) == FLAGGED for n in around(number))
            if flags < session.number(number) and session.state(neighbour) == COVERED and neighbour != wrong:
                await go_to(app, pilot, neighbour)
                await press(app, pilot, "f")
        await go_to(app, pilot, number)
        await press(app, pilot, "d")
        assert session.lost and "x" in "".join(session.picture())

    play(dealer, scenario)


def around(cell, rows=9, cols=9):
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0) and 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


def cells_of(session, state):
    return [(r, c) for r in range(session.rows) for c in range(session.cols) if session.state((r, c)) == state]


def test_the_chances_shown_are_the_librarys_for_the_same_view():
    dealer = Dealer(16, 16, 40, seed=8)

    async def scenario(app, pilot, clock):
        session = app.session
        await press(app, pilot, "space")
        await press(app, pilot, "f")  # a flag on a cleared cell does nothing; the view stays the library's
        await press(app, pilot, "p")
        expected = assist.chances(session.view(), session.promised_left())
        shown = cell_texts(app)
        assert app.query_one(Minefield).cell_width == 3
        for cell, chance in expected.cells.items():
            want = "S" if chance == 0 else "M" if chance == 1 else str(min(99, max(1, round(float(chance) * 100))))
            assert shown[cell] == want, cell
        covered = min(
            (cell for cell, chance in expected.cells.items() if 0 < chance < 1),
            key=lambda cell: (abs(expected.cells[cell] - Fraction(1, 2)), cell),
        )
        await go_to(app, pilot, covered)
        assert line(app, "status").endswith(
            f"row {covered[0] + 1}, col {covered[1] + 1}: mine chance {percent(expected.cells[covered])}"
        )
        assert line(app, "info") == f"exact mine chances: {expected.mines} mines in {len(expected.cells)} cells"
        assert line(app, "legend") == chance_legend(3)
        check_snapshot(app, "intermediate_chances")
        await go_to(app, pilot, min(cell for cell, chance in expected.cells.items() if chance == 0))
        assert line(app, "status").endswith("certainly safe")
        await press(app, pilot, "space")  # the chances follow the move
        assert (
            app.shown_chances() is not None
            and app.shown_chances().cells == assist.chances(session.view(), session.promised_left()).cells
        )
        await press(app, pilot, "p")
        assert app.shown_chances() is None and set(cell_texts(app).values()) <= set("12345678F·") | {""}
        assert line(app, "info") == "mine chances hidden" and not app.query_one("#legend").display

    play(dealer, scenario)


def test_a_slow_solver_step_leaves_the_screen_responsive_and_keeps_its_time_limit(monkeypatch):
    release = threading.Event()
    real = assist.chances

    def slow(view, promised=(), deadline=None):
        release.wait(10)
        return real(view, promised, deadline)

    async def scenario(app, pilot, clock):
        monkeypatch.setattr(assist, "chances", slow)
        await press(app, pilot, "space")
        await pilot.press("p")
        await pilot.pause(0.3)
        assert "working out the mine chances..." in line(app, "info") and line(app, "info")[0] in "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
        start = app.cursor
        await pilot.press("left", "up")  # the keys still work while the solver thinks
        assert app.cursor == (start[0] - 1, start[1] - 1) and app.shown_chances() is None
        release.set()
        await settle(app, pilot)
        assert app.shown_chances() is not None and "exact mine chances" in line(app, "info")

    play(Dealer(9, 9, 10, seed=1), scenario)

    async def too_slow(app, pilot, clock):
        await press(app, pilot, "space", "p")  # the first click is certain without the solver: the rule says so
        assert line(app, "info") == "mine chances: the time limit (1e-09 s) ran out"
        assert line(app, "verdict") == "was that a guess? no: certain from what was shown"
        await go_to(app, pilot, min(cells_of(app.session, COVERED)))
        await press(app, pilot, "space")
        assert line(app, "verdict") == "was that a guess? the time limit (1e-09 s) ran out"
        assert app.session.summary().unjudged == 1
        if not app.session.over:
            await press(app, pilot, "question_mark")
            assert line(app, "info") == "hint: the time limit (1e-09 s) ran out" and app.shown_hint() is None

    play(Dealer(9, 9, 10, seed=1), too_slow, time_limit=1e-9)


def test_expert_compacts_to_fit_80_columns_and_scrolls_when_smaller():
    async def scenario(app, pilot, clock):
        board, field = app.query_one(Minefield), app.query_one(Field)
        assert board.cell_width == 2 and board.size.width == 3 + 60 and field.scroll_x == 0
        check_snapshot(app, "expert_start")
        await pilot.resize_terminal(120, 30)
        await settle(app, pilot)
        assert board.cell_width == 3 and board.size.width == 3 + 90
        await pilot.resize_terminal(50, 20)
        await settle(app, pilot)
        assert board.cell_width == 2
        await go_to(app, pilot, (15, 29))
        await settle(app, pilot)
        assert field.scroll_x > 0 and field.scroll_y > 0  # the cursor stays in sight
        assert line(app, "status").startswith("playing")

    play(Dealer(16, 30, 99, no_guess="subset", seed=4), scenario)


def test_restart_and_a_new_board():
    dealer = Dealer(9, 9, 10, seed=6)

    async def scenario(app, pilot, clock):
        first = app.session.deal
        await press(app, pilot, "space")
        assert app.session.clicks == 1
        await press(app, pilot, "r")
        assert app.session.deal is first and app.session.clicks == 0 and set("".join(app.session.picture())) == {"-"}
        assert line(app, "legend") == start_key("opening")  # the start cell is marked again, and its key is back
        await press(app, pilot, "n")
        assert app.session.deal.settings.seed == 7 and app.cursor == app.session.deal.first
        assert "seed 7" in line(app, "title")

    play(dealer, scenario)


def test_hint_and_auto_step_are_the_best_players_move_for_the_same_view():
    from cpsolve.play.best import advise

    async def scenario(app, pilot, clock):
        session = app.session
        deal = session.deal
        await press(app, pilot, "question_mark")  # before the first click: the start rule's cells
        assert {cell for cell, text in cell_texts(app).items() if text == "S"} == session.promised
        assert app.cursor == deal.first and line(app, "info").startswith("hint: 9 safe (S)")
        await press(app, pilot, "space")
        while True:
            await press(app, pilot, "question_mark")
            advice = advise(session.view())
            shown = cell_texts(app)
            assert {cell for cell, text in shown.items() if text == "S"} == set(advice.safe)
            assert {cell for cell, text in shown.items() if text == "M"} == {
                cell for cell in advice.mines if session.state(cell) == COVERED
            }
            if advice.guess is not None:
                break
            await press(app, pilot, "a")
            assert all(session.state(cell) == CLEARED for cell in advice.safe) and session.moves[-1].assisted
        guess = advice.guess.cell
        assert shown[guess] == "?" and app.cursor == guess and advice.mines
        assert line(app, "info") == (
            f"hint: guess row {guess[0] + 1}, col {guess[1] + 1} (?), safe with chance "
            f"{percent(advice.guess.safety)}: {advice.reason.words}"
        )
        check_snapshot(app, "beginner_hint")
        await press(app, pilot, "a")  # certain mines first: flagged
        assert all(session.state(cell) == FLAGGED for cell in advice.mines)
        flagged = len(advice.mines)
        assert line(app, "info") == f"auto: flagged {flagged} certain mine{'s' if flagged > 1 else ''}"
        moves = len(session.moves)
        await press(app, pilot, "a")  # then the guess: shown with its risk, not taken
        assert len(session.moves) == moves and cell_texts(app)[guess] == "?" and app.cursor == guess
        safety = advice.guess.safety
        assert line(app, "info") == (
            f"auto stops at a guess: row {guess[0] + 1}, col {guess[1] + 1} (?) is safe "
            f"with chance {percent(safety)}, a mine with chance {percent(1 - safety)}; "
            "a again takes it"
        )
        await press(app, pilot, "a")  # taken when asked again
        move = session.moves[-1]
        assert move.cell == guess and move.assisted and move.safety == advice.guess.safety

    play(Dealer(9, 9, 10, seed=9), scenario)


def spinning(app: GameApp) -> bool:
    """Whether the info line shows the solver at work."""
    text = line(app, "info")
    return bool(text) and text[0] in "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def test_chances_then_auto_leaves_no_spinner_and_the_cursor_chance_comes_back():
    # the report: space, p, a, a left "working out the mine chances... 41.8 s" counting through a win
    # and a new board, the cursor's chance never came back, and p p did not clear it
    async def scenario(app, pilot, clock):
        session = app.session
        await press(app, pilot, "space", "p", "a", "a")
        assert len(session.moves) > 2 and all(move.assisted for move in session.moves[1:])
        assert not spinning(app) and app.jobs.busy is None
        assert line(app, "info").startswith("auto: opened ")
        chances = assist.chances(session.view(), session.promised_left())
        assert app.shown_chances().cells == chances.cells
        cell = min(cell for cell, chance in chances.cells.items() if 0 < chance < 1)
        await go_to(app, pilot, cell)
        exact = chances.cells[cell]
        words = f"row {cell[0] + 1}, col {cell[1] + 1}: mine chance"  # the fraction only where the line has room
        assert line(app, "status").endswith((f"{words} {percent(exact)}", f"{words} {percent(exact, exact=False)}"))
        assert len(line(app, "status")) <= 79
        await press(app, pilot, "p")
        assert line(app, "info") == "mine chances hidden" and "mine chance" not in line(app, "status")
        await press(app, pilot, "p")
        assert line(app, "info").startswith("exact mine chances: ") and line(app, "legend")
        await win_by_keys(app, pilot)
        assert session.won and not spinning(app) and app.shown_chances() is None
        await press(app, pilot, "n")
        assert app.session is not session and not spinning(app) and app.shown_chances() is not None
        assert app.jobs.busy is None

    play(Dealer(16, 16, 40, seed=8), scenario)


def test_a_job_cancelled_before_it_started_does_not_keep_the_spinner(monkeypatch):
    # Textual never reports a worker cancelled before its first step: the app forgets it itself
    release = threading.Event()
    real = assist.chances

    def slow(view, promised=(), deadline=None):
        release.wait(10)
        return real(view, promised, deadline)

    async def scenario(app, pilot, clock):
        await press(app, pilot, "space")
        monkeypatch.setattr(assist, "chances", slow)
        await pilot.press("p")
        for _ in range(5):  # each replaces the last, most before their first step
            app.jobs.run(
                "working out the mine chances",
                lambda deadline: slow(app.session.view(), deadline),
                lambda result: None,
                "chances",
            )
        assert app.jobs.running == 1 and spinning(app)
        release.set()
        await settle(app, pilot)
        assert not spinning(app) and not app.jobs.running

    play(Dealer(9, 9, 10, seed=1), scenario)


@pytest.mark.parametrize(
    "dealer, size, width",
    [
        (Dealer(16, 16, 40, seed=8), (80, 24), 3),
        (Dealer(16, 30, 99, seed=8), (80, 24), 2),
        (Dealer(30, 50, 300, seed=8), (120, 40), 2),
    ],
    ids=["intermediate-80x24", "expert-80x24", "30x50-120x40"],
)
def test_every_layout_draws_the_chances_one_mark_a_cell_with_a_key(dealer, size, width):
    async def scenario(app, pilot, clock):
        session = app.session
        board = app.query_one(Minefield)
        await press(app, pilot, "space", "p")
        assert board.cell_width == width and board.size.width <= size[0] - 2
        chances = assist.chances(session.view(), session.promised_left())
        shown = cell_texts(app)
        for cell, chance in chances.cells.items():
            assert shown[cell] == chance_glyph(chance, width), cell
            assert len(shown[cell]) == (1 if width == 2 or chance in (0, 1) else len(str(round(float(chance) * 100))))
        for row in board_rows(app):
            # a cell's mark never touches its neighbour's: a space (or the cursor's ] or ▸) between each two
            gaps = range(2, len(row), 3) if width == 3 else range(0, len(row), 2)
            assert all(row[x] in " ]▸" for x in gaps), row
        assert set("".join(chance_glyph(c, 2) for c in chances.cells.values())) <= set(CHANCE_SCALE + "SM")
        assert line(app, "legend") == chance_legend(width)
        cell = max((cell for cell, chance in chances.cells.items() if 0 < chance < 1), key=chances.cells.get)
        await go_to(app, pilot, cell)
        exact = chances.cells[cell]
        assert f"row {cell[0] + 1}, col {cell[1] + 1}: mine chance {percent(exact, exact=False)}" in line(app, "status")
        assert len(line(app, "status")) <= size[0]
        if width == 2:
            assert cell_texts(app)[cell] == CHANCE_SCALE[min(7, int(exact * 8))]

    play(dealer, scenario, size=size)


def test_a_chance_is_written_as_the_web_pages_write_it():
    """One decimal, then the exact fraction when it has at most 12 characters; three significant
    digits below 0.1%; rounded half up, as the pages' JavaScript rounds (``toFixed``)."""
    assert percent(Fraction(3, 20)) == "15.0% (3/20)" and percent(Fraction(3, 20), exact=False) == "15.0%"
    assert percent(Fraction(1, 2)) == "50.0% (1/2)" and percent(Fraction(2, 3)) == "66.7% (2/3)"
    assert percent(Fraction(1, 16)) == "6.3% (1/16)"  # 6.25: half up
    assert percent(Fraction(12345, 123457)) == "10.0% (12345/123457)"  # a fraction of 12 characters
    assert percent(Fraction(12345, 1234567)) == "1.0%"  # of 13: left out
    assert percent(Fraction(1, 2000)) == "0.0500% (1/2000)" and percent(Fraction(1, 10**6)) == "0.000100% (1/1000000)"
    assert percent(Fraction(0)) == "0%" and percent(Fraction(1)) == "100%"


def test_the_board_has_row_and_column_numbers_and_a_click_lands_on_its_cell():
    async def scenario(app, pilot, clock):
        board = app.query_one(Minefield)
        header, *rows = board.render().plain.split("\n")
        assert board.label_width == 3 and board.cell_width == 2
        for c in [0, 4, 9, 24, 29]:  # the first column and every fifth: their numbers end over their marks
            label = str(c + 1)
            end = board.label_width + 2 * c + 1
            assert header[end - len(label) + 1 : end + 1] == label, (c, header)
        assert header.split() == ["1", "5", "10", "15", "20", "25", "30"]
        for r, text in enumerate(rows):
            assert text[: board.label_width] == f"{r + 1:>2} "
        await pilot.click(Minefield, offset=offset_of(app, (11, 23)))
        await settle(app, pilot)
        assert app.cursor == (11, 23) and line(app, "status").endswith("row 12, col 24")
        header = board.render().plain.split("\n")[0]
        # the cursor's column too, and 25 left out rather than touching it
        assert header.split() == ["1", "5", "10", "15", "20", "24", "30"], header
        await pilot.resize_terminal(120, 30)
        await settle(app, pilot)
        header = board.render().plain.split("\n")[0]
        assert board.cell_width == 3 and header.split() == [str(c) for c in range(1, 31)]

    play(Dealer(16, 30, 99, seed=4), scenario)


def test_no_line_outlives_the_state_it_describes():
    async def scenario(app, pilot, clock):
        session = app.session
        assert line(app, "info").startswith("the board was dealt")
        await press(app, pilot, "space")
        assert line(app, "info") == "" and line(app, "verdict").startswith("was that a guess? no")
        covered = min(cells_of(session, COVERED))
        await go_to(app, pilot, covered)
        await press(app, pilot, "f")  # the verdict was about the reveal: the flag leaves it behind
        assert session.state(covered) == FLAGGED and line(app, "verdict") == ""
        await press(app, pilot, "f")
        await press(app, pilot, "question_mark")
        assert line(app, "info").startswith("hint: ") and {"S", "M"} & set(cell_texts(app).values())
        safe = app.shown_hint().safe
        await press(app, pilot, "space")  # the hint's marks go with the move, and its line with them
        assert app.session.moves[-1].cell in safe
        assert not line(app, "info").startswith("hint") and not {"S", "M"} & set(cell_texts(app).values())
        await press(app, pilot, "question_mark")
        await press(app, pilot, "question_mark")
        assert line(app, "info") == "hint hidden" and app.shown_hint() is None
        await press(app, pilot, "u")
        assert line(app, "info") == "" and line(app, "verdict").startswith("undone: the reveal")

    play(Dealer(9, 9, 10, seed=5), scenario)


def test_a_key_that_does_nothing_says_why():
    async def scenario(app, pilot, clock):
        session = app.session
        mines = session.deal.mines
        await press(app, pilot, "d")  # on a covered cell
        assert line(app, "info") == "row 5, col 5 is covered: d chords on an open number (space reveals a covered cell)"
        await press(app, pilot, "space", "f")  # on an opened cell
        assert line(app, "info") == "row 5, col 5 is open: only a covered cell takes a flag"
        await press(app, pilot, "space")
        assert line(app, "info").startswith("row 5, col 5 is already open")
        covered = min(cell for cell in cells_of(session, COVERED) if not mines[cell])
        await go_to(app, pilot, covered)
        await press(app, pilot, "f", "space")  # on a flag
        assert line(app, "info") == (
            f"row {covered[0] + 1}, col {covered[1] + 1} is flagged: f takes the flag off before space can reveal it"
        )
        assert session.state(covered) == FLAGGED
        await press(app, pilot, "d")
        assert "is flagged: d chords on an open number" in line(app, "info")
        await press(app, pilot, "f")
        number = min(
            cell
            for cell in cells_of(session, CLEARED)
            if session.number(cell) and any(session.state(n) == COVERED for n in around(cell))
        )
        await go_to(app, pilot, number)
        await press(app, pilot, "d")  # no flags around it yet
        assert line(app, "info") == (
            f"row {number[0] + 1}, col {number[1] + 1} shows {session.number(number)} and has "
            "0 flags around it: a chord needs as many flags as the number"
        )
        zero = min(cell for cell in cells_of(session, CLEARED) if not session.number(cell))
        await go_to(app, pilot, zero)
        await press(app, pilot, "d")
        assert line(app, "info") == f"nothing is left to open around row {zero[0] + 1}, col {zero[1] + 1}"
        mine = min(cell for cell in cells_of(session, COVERED) if mines[cell])
        await go_to(app, pilot, mine)
        await press(app, pilot, "space", "escape", "f")
        assert session.lost and line(app, "info").startswith("the game is over: u takes the last move back")

    play(Dealer(9, 9, 10, seed=3), scenario)


def test_auto_takes_guesses_only_when_set_to_and_says_what_each_risked():
    from cpsolve.play.best import advise

    async def scenario(app, pilot, clock):
        session = app.session
        await press(app, pilot, "space")
        while True:
            advice = advise(session.view())
            if advice.guess is not None and not [cell for cell in advice.mines if session.state(cell) == COVERED]:
                break
            moves = len(session.moves)
            await press(app, pilot, "a")
            assert len(session.moves) >= moves and not session.over
        guess, safety = advice.guess.cell, advice.guess.safety
        await press(app, pilot, "a")  # the setting: taken at once, its risk said
        move = session.moves[-1]
        assert move.cell == guess and move.assisted and move.safety == safety
        outcome = "it was a mine" if move.exploded else "it held"
        where = f"row {guess[0] + 1}, col {guess[1] + 1}"
        assert line(app, "info") == (
            f"auto: guessed {where}, safe with chance {percent(safety)}, "
            f"a mine with chance {percent(1 - safety)}: {outcome}"
        )

    play(Dealer(9, 9, 10, seed=9), scenario, auto_guess=True)


def test_the_command_offers_auto_guess_and_still_needs_a_terminal(runner):
    from cpsolve.cli import app

    shown = runner.invoke(app, ["game", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "--auto-guess" in shown.stdout
    result = runner.invoke(app, ["game", "--auto-guess", "--seed", "1"])  # the runner is no terminal
    assert result.exit_code == 2 and "needs a terminal" in result.stderr
