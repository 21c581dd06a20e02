"""The pages in a real browser: Debian's Chromium, headless, driven by Playwright, against ``cpsolve serve``.

The server is the command itself (``python -m cpsolve serve --port 0``), stopped with Ctrl-C at the
end. Every check reads the cells' ``data-*`` attributes and compares them with the library's or
the command line's answers. A screenshot of each page is kept under pytest's temporary folder (the
documentation's pictures are ``benchmarks/screenshots.py``'s).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

# a server and Chromium: left out of the quick run, `pytest -m "not slow"`
pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install -e '.[test]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install -e '.[test]'")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no browser: {CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def server():
    """``cpsolve serve`` on a free loopback port; its address. Stopped by Ctrl-C (SIGINT) afterwards."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cpsolve", "serve", "--port", "0", "--time-limit", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    line = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+", line)
    assert found, (line, process.stderr.read() if process.poll() is not None else "")
    address = found.group(0)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(address + "/api/health", timeout=5) as answer:
                assert json.load(answer)["status"] == "ok"
            break
        except OSError:
            assert time.monotonic() < deadline and process.poll() is None, "the server did not start"
            time.sleep(0.2)
    yield address
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and err.strip() == "cpsolve: interrupted", (process.returncode, err)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 860})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Where the screenshots go: pytest's temporary folder."""
    folder = tmp_path_factory.mktemp("screenshots")

    def take(page, name):
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 1000
        return path

    return take


def idle(page):
    """Wait until the page has drawn the server's last answer (an empty board is hidden, so attached is enough)."""
    page.wait_for_selector('.board[data-busy="0"]', state="attached", timeout=30_000)


def cell(page, row, col, board="#board"):
    return page.locator(f'{board} .cell[data-row="{row}"][data-col="{col}"]')


def cells(page, selector):
    """1-based (row, col) of the board's cells that match a selector."""
    found = page.eval_on_selector_all(
        f"#board .cell{selector}", "cells => cells.map(c => [Number(c.dataset.row), Number(c.dataset.col)])"
    )
    return {tuple(place) for place in found}


def chances(page):
    found = page.eval_on_selector_all(
        "#board .cell[data-chance]", "cells => cells.map(c => [c.dataset.row, c.dataset.col, c.dataset.chance])"
    )
    return {(int(r), int(c)): float(chance) for r, c, chance in found}


def cli_json(*args):
    done = subprocess.run(
        [sys.executable, "-m", "cpsolve", *map(str, args), "--format", "json"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def expected_chances(path):
    """The covered cells' chances of ``puzzle --probabilities --format json`` (its known mines' 1 left out)."""
    from cpsolve.formats.puzzle import read_puzzle

    answer = cli_json("puzzle", path, "--probabilities")
    assert answer["status"] == "solved"
    known = read_puzzle(str(path)).position.known_mines
    return {
        (r + 1, c + 1): value
        for r, row in enumerate(answer["probabilities"])
        for c, value in enumerate(row)
        if value is not None and (r, c) not in known
    }


def test_the_server_binds_loopback_and_says_where(server):
    assert server.startswith("http://127.0.0.1:")


def test_a_seeded_no_guess_beginner_game_is_won_by_clicking_where_the_hint_says(server, page, shots):
    from cpsolve.generate import openings_and_3bv
    from cpsolve.play.session import Dealer

    page.goto(f"{server}/?rows=9&cols=9&mines=10&start=opening&no_guess=perfect&seed=3")
    idle(page)
    assert len(page.locator("#board .cell[data-row][data-col]").all()) == 81
    page.click("#hint")
    idle(page)
    for step in range(81):
        if page.text_content("#outcome") != "playing":
            break
        if step == 4:  # the picture of a game in progress: its chances and the hint on the board
            page.click("#chances")
            idle(page)
            shots(page, "play")
            page.click("#chances")
            idle(page)
        safe = sorted(cells(page, '[data-hint="safe"][data-state="covered"]'))
        assert safe and not cells(page, '[data-hint="guess"]'), "a no-guess board always has a certain move"
        cell(page, *safe[0]).click()
        idle(page)
        if page.text_content("#outcome") == "playing":
            shown = page.text_content("#verdict")
            assert shown == "was that a guess? no: certain from what was shown", shown
    assert page.text_content("#outcome") == "won"
    deal = Dealer(9, 9, 10, no_guess="perfect", seed=3).deal()
    assert page.text_content("#bbbv") == str(openings_and_3bv(deal.mines)[1])
    assert page.text_content("#guesses") == "0"
    assert float(page.text_content("#bbbv-rate")) > 0
    mines = {(int(r) + 1, int(c) + 1) for r, c in zip(*deal.mines.nonzero(), strict=True)}
    assert cells(page, '[data-state="mine"]') == mines  # shown once the game is over
    shots(page, "play_won")


def test_flags_and_a_chord_by_mouse_and_keyboard(server, page, shots):
    from cpsolve.play import assist
    from cpsolve.play.session import Dealer, Session

    def chordable(seed):
        session = Session(Dealer(9, 9, 10, seed=seed).deal())
        session.reveal(session.deal.first)
        picture = session.picture()
        for mine in assist.hint(session.view()).mines:
            for r in range(max(mine[0] - 1, 0), min(mine[0] + 2, 9)):
                for c in range(max(mine[1] - 1, 0), min(mine[1] + 2, 9)):
                    others = [
                        (rr, cc)
                        for rr in range(max(r - 1, 0), min(r + 2, 9))
                        for cc in range(max(c - 1, 0), min(c + 2, 9))
                        if picture[rr][cc] == "-" and (rr, cc) != mine
                    ]
                    if picture[r][c] == "1" and others:
                        return session, mine, (r, c)
        return None

    seed, (session, mine, number) = next((seed, found) for seed in range(100) if (found := chordable(seed)))
    page.goto(f"{server}/?rows=9&cols=9&mines=10&start=opening&seed={seed}")
    idle(page)
    first = session.deal.first
    assert "first" in cell(page, first[0] + 1, first[1] + 1).get_attribute("class")
    cell(page, first[0] + 1, first[1] + 1).click()
    idle(page)
    cell(page, mine[0] + 1, mine[1] + 1).click(button="right")
    idle(page)
    assert cell(page, mine[0] + 1, mine[1] + 1).get_attribute("data-state") == "flag"
    assert page.text_content("#mines-left") == "9"
    session.toggle_flag(mine)
    cell(page, number[0] + 1, number[1] + 1).click()  # a left click on a number whose flags match it: a chord
    idle(page)
    session.chord(number)
    shown = [
        "".join(
            {"covered": "-", "flag": "F"}.get(cell(page, r, c).get_attribute("data-state"), "n") for c in range(1, 10)
        )
        for r in range(1, 10)
    ]
    assert shown == ["".join("n" if ch.isdigit() else ch for ch in row) for row in session.picture()]
    assert page.text_content("#verdict") == "was that a guess? no: certain from what was shown"
    page.focus("#board")
    page.keyboard.press("u")  # undo the chord
    idle(page)
    session.undo()
    covered = {(r + 1, c + 1) for r, row in enumerate(session.picture()) for c, ch in enumerate(row) if ch == "-"}
    assert cells(page, '[data-state="covered"]') == covered
    page.keyboard.press("f")  # the keyboard's flag, at the cursor (the chorded number: cleared, so nothing)
    idle(page)
    assert page.text_content("#mines-left") == "9"
    page.click("#chances")
    idle(page)
    assert set(chances(page)) == covered | {(mine[0] + 1, mine[1] + 1)}
    shots(page, "play_chances")


def test_the_analysis_page_built_by_clicks_shows_the_chances_of_cpsolve_puzzle(server, page, shots, tmp_path):
    page.goto(f"{server}/analyse")
    idle(page)
    page.fill("#rows", "4")
    page.fill("#cols", "5")
    page.fill("#total", "4")
    page.click("#blank")
    idle(page)
    painted = {(1, 1): "1", (1, 2): "1", (2, 1): "1", (3, 4): "2", (4, 5): "1"}
    for (row, col), clue in painted.items():
        page.click(f'#palette button[data-tool="{clue}"]')
        cell(page, row, col).click()
        idle(page)
    text = "4 5 4\n" + "".join(
        "".join(painted.get((row, col), ".") for col in range(1, 6)) + "\n" for row in range(1, 5)
    )
    assert page.input_value("#text") == text  # the position copied out as text
    position = tmp_path / "clicked.txt"
    position.write_text(text)
    assert chances(page) == expected_chances(position) and len(chances(page)) == 20 - len(painted)
    shots(page, "analyse_clicks")


@pytest.mark.parametrize("name", ["expert_midgame", "classic_8x8"])
def test_the_analysis_page_by_paste_and_by_address_shows_the_chances_of_cpsolve_puzzle(server, page, shots, name):
    path = next(EXAMPLES.glob(f"*/{name}.txt"))
    expected = expected_chances(path)
    page.goto(f"{server}/analyse")
    idle(page)
    page.fill("#text", path.read_text())
    page.click("#read")
    page.wait_for_selector("#board .cell[data-chance]")
    idle(page)
    assert chances(page) == expected
    hint = cli_json("hint", path)
    if hint["guess"]:
        assert cells(page, '[data-hint="guess"]') == {tuple(hint["guess"]["cell"])}
        assert hint["guess"]["why"] in page.text_content("#advice")
    if name == "expert_midgame":
        shots(page, "analyse")
    # the same position by its address
    from urllib.parse import quote

    page.goto(f"{server}/analyse?position={quote(path.read_text())}")
    page.wait_for_selector("#board .cell[data-chance]")
    idle(page)
    assert chances(page) == expected


def test_a_contradiction_is_highlighted(server, page, shots):
    path = EXAMPLES / "best" / "contradiction.txt"
    hint = cli_json("hint", path)
    assert hint["status"] == "no_solution"
    page.goto(f"{server}/analyse")
    idle(page)
    page.fill("#text", path.read_text())
    page.click("#read")
    page.wait_for_selector("#board .cell.conflict")
    idle(page)
    assert cells(page, ".conflict") == {tuple(place) for place in hint["conflict"]}
    assert page.text_content("#verdict") == "no placement fits"
    assert "cannot all hold" in page.text_content("#advice")
    assert not cells(page, "[data-chance]")
    shots(page, "contradiction")


def test_the_layout_page_draws_a_board_or_impossible(server, page, shots):
    page.goto(f"{server}/layout")
    for numbers, verdict in (((2, 2, 1), "Impossible"), ((5, 8, 17), "a one-click board")):
        for field, value in zip(("#rows", "#cols", "#mines"), numbers, strict=True):
            page.fill(field, str(value))
        page.click("#solve")
        page.wait_for_function(f"document.getElementById('verdict').textContent === {json.dumps(verdict)}")
        idle(page)
    expected = cli_json("layout", 5, 8, 17)
    drawn = page.eval_on_selector_all(
        "#board .cell",
        "cells => cells.map(c => c.textContent === 'c' ? 'c' : c.dataset.state === 'mine' ? '*' : '.').join('')",
    )
    assert [drawn[row * 8 : row * 8 + 8] for row in range(5)] == expected["board"]
    shots(page, "layout")


def test_the_count_of_placements_is_exact_however_large(server, page):
    """An empty expert board has C(480, 99) placements, about 5.6 x 10^106: read as a double it came
    out rounded after 17 digits."""
    from math import comb
    from urllib.parse import quote

    page.goto(f"{server}/analyse?position={quote('16 30 99' + chr(10) + ('.' * 30 + chr(10)) * 16)}")
    page.wait_for_function("document.getElementById('count').textContent !== ''")
    idle(page)
    assert page.text_content("#count") == f"{comb(480, 99):,} placements of the mines"


def test_an_error_takes_the_last_answers_away(server, page):
    """A refused position or problem is answered by its error alone: the last one's verdict, count,
    best move and board do not stay beside it."""
    page.goto(f"{server}/analyse")
    page.fill("#text", "3 3 1\n1..\n...\n...\n")
    page.click("#read")
    page.wait_for_function("document.getElementById('verdict').textContent === 'consistent'")
    idle(page)
    page.fill("#text", "3 3 1\n1..\n..\n...\n")  # a ragged row
    page.click("#read")
    page.wait_for_function("document.getElementById('problem').textContent !== ''")
    idle(page)
    assert "row has 2 cells" in page.text_content("#problem")
    for line in ("#verdict", "#count", "#certain", "#advice"):
        assert page.text_content(line) == "", line
    assert not cells(page, "[data-chance]") and not cells(page, "[data-hint]")

    asked = []
    page.on("request", lambda request: asked.append(request.post_data_json) if "/api/layout" in request.url else None)
    page.goto(f"{server}/layout")
    for numbers in ((5, 8, 17), (2, 2, 5)):
        for field, value in zip(("#rows", "#cols", "#mines"), numbers, strict=True):
            page.fill(field, str(value))
        page.click("#solve")
        idle(page)
    assert page.text_content("#problem") == "mines must be in 0..3 for a 2x2 board, got M=5"
    assert page.locator("#board .cell").count() == 0
    assert [page.text_content(line) for line in ("#verdict", "#how", "#reason")] == ["", "", ""]
    # no time limit of the page's own: the server's is the default, and the most it takes (a page that
    # asked 10 s failed on every server started with less)
    assert [body["mines"] for body in asked] == [17, 5] and all("time_limit" not in body for body in asked)


def test_the_api_page_lists_the_endpoints_from_openapi(server, page, shots):
    page.goto(f"{server}/api")
    page.wait_for_selector(".endpoint")
    titles = page.eval_on_selector_all(".endpoint h3", "items => items.map(item => item.textContent)")
    for path in ("/api/puzzle", "/api/hint", "/api/layout", "/api/casual", "/api/generate", "/api/health"):
        assert any(path in title for title in titles), titles
    shots(page, "api")
