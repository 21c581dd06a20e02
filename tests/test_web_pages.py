"""The pages as a person meets them, in Debian's Chromium against ``cpsolve serve`` (issue 49): a refused deal,
the API page's text, one way to write a chance, the heat map's certain cells and scale, the layout on a laptop and
on a phone, a refused paste, the Layout page's Impossible, the words for a count of one, the verdict on a certain
mine, the candidates' columns, the Seed box and the start cell's mark.

Each test reads what the page shows (text, attributes, boxes) and fails on the pages before these fixes. The
server, the browser and the helpers are :mod:`test_web_browser`'s.
"""

from __future__ import annotations

import json
import re
import urllib.request
from urllib.parse import quote

import pytest
from test_web_browser import EXAMPLES, browser, cell, cells, idle, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow

LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
EXPERT_MIDGAME = (EXAMPLES / "best" / "expert_midgame.txt").read_text()


@pytest.fixture
def open_page(browser):  # noqa: F811
    """A function that opens a page of the given size; every page is closed and checked for script errors."""
    contexts, errors = [], []

    def opened(viewport=LAPTOP):
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield opened
    for context in contexts:
        context.close()
    assert not errors, errors


def ask(server, path, body):  # noqa: F811
    request = urllib.request.Request(
        server + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def board_picture(page):
    """Each cell's state and text, row by row: what the board shows."""
    return page.eval_on_selector_all(
        "#board .cell", "cells => cells.map(c => [c.dataset.row, c.dataset.col, c.dataset.state, c.textContent])"
    )


def analyse(page, server, text):  # noqa: F811
    page.goto(f"{server}/analyse?position={quote(text)}")
    page.wait_for_function("document.getElementById('verdict').textContent !== '…'")
    idle(page)


def box(page, selector):
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


# -- 1. a refused deal leaves the game in play ------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_refused_new_game_leaves_the_game_in_play(server, open_page, viewport):  # noqa: F811
    """Custom 5x5 with 30 mines on a running 9x9 game: the error shows, and the 9x9 game, its header, its seed,
    its address, its clicks and `r` all go on as before (the page drew a blank 5x5 under the 9x9's header,
    took no click, and put a new seed in the box). On a phone, where the board is above the controls, the
    error is brought into view."""
    page = open_page(viewport)
    page.goto(f"{server}/?rows=9&cols=9&mines=10&start=opening&seed=5")
    idle(page)
    cell(page, 5, 5).click()
    idle(page)
    before, deal, address = board_picture(page), page.text_content("#deal"), page.url
    assert len(before) == 81 and "seed 5" in deal
    page.select_option("#level", "custom")
    page.fill("#rows", "5")
    page.fill("#cols", "5")
    page.fill("#mines", "30")
    page.click("#new")
    page.wait_for_function("document.getElementById('problem').textContent !== ''")
    idle(page)
    assert "30 mines do not fit" in page.text_content("#problem")
    assert board_picture(page) == before
    problem = box(page, "#problem")
    assert problem["y"] >= 0 and problem["y"] + problem["height"] <= viewport["height"], "the error is out of view"
    assert "game in play goes on" in page.text_content("#problem")
    assert page.text_content("#deal") == deal and page.url == address
    assert page.input_value("#seed") == "5"
    assert page.text_content("#outcome") == "playing"
    # the game still takes clicks
    covered = sorted(cells(page, '[data-state="covered"]'))
    cell(page, *covered[0]).click(button="right")
    idle(page)
    assert cell(page, *covered[0]).get_attribute("data-state") == "flag"
    # and r deals the same 9x9 board again
    page.focus("#board")
    page.keyboard.press("r")
    page.wait_for_function("document.querySelectorAll('#board .cell[data-state=\"flag\"]').length === 0")
    idle(page)
    assert len(board_picture(page)) == 81 and page.text_content("#deal") == deal
    assert not cells(page, ':not([data-state="covered"])')


def test_a_refused_address_draws_no_board_and_says_so(server, open_page):  # noqa: F811
    page = open_page()
    page.goto(f"{server}/?rows=5&cols=5&mines=30&seed=1")
    page.wait_for_function("document.getElementById('problem').textContent !== ''")
    idle(page)
    assert "30 mines do not fit" in page.text_content("#problem")
    assert page.locator("#board .cell").count() == 0
    assert page.text_content("#outcome") == "no game" and page.text_content("#mines-left") == "–"
    assert "5×5" not in page.text_content("#deal")
    # the controls hold what was asked, to mend: 24 mines fit
    assert [page.input_value(f"#{name}") for name in ("rows", "cols", "mines")] == ["5", "5", "30"]
    page.fill("#mines", "10")
    page.click("#new")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 25")
    idle(page)
    assert page.text_content("#problem") == "" and page.text_content("#outcome") == "playing"
    assert page.text_content("#deal").startswith("5×5, 10 mines")


# -- 2. the API page renders its descriptions -------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_api_page_renders_its_markdown(server, open_page, viewport):  # noqa: F811
    """No Markdown source shows (backticks), and an option such as --format never breaks after its dashes."""
    page = open_page(viewport)
    page.goto(f"{server}/api")
    page.wait_for_selector(".endpoint:last-child")
    shown = page.text_content("main")
    assert "`" not in shown
    codes = page.eval_on_selector_all(
        "main code", "codes => codes.map(c => [c.textContent, getComputedStyle(c).whiteSpace])"
    )
    texts = [text for text, _ in codes]
    assert "--format json" in texts and "cpsolve puzzle --format json" in texts and '{"error": "<one line>"}' in texts
    assert "--time-limit" in texts
    assert all(space == "nowrap" for _, space in codes)
    # every "--" on the page is inside code (kept on one line), none in the running text
    loose = page.evaluate(
        """() => {
          const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
          const found = [];
          while (walker.nextNode()) {
            const node = walker.currentNode;
            const coded = node.parentElement.closest('code, pre');
            if (node.textContent.includes('--') && !coded) found.push(node.textContent);
          }
          return found;
        }"""
    )
    assert loose == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_the_api_page_says_when_the_description_cannot_be_read(server, open_page):  # noqa: F811
    page = open_page()
    page.route("**/openapi.json", lambda route: route.abort())
    page.goto(f"{server}/api")
    page.wait_for_selector("body[data-drawn]", state="attached")
    assert page.text_content("#problem").startswith("The server's OpenAPI description (/openapi.json) cannot be read")
    assert page.locator(".endpoint").count() == 0


# -- 3. one way to write a chance -------------------------------------------------------------------------------


def test_a_chance_reads_the_same_way_everywhere(server, open_page):  # noqa: F811
    """Percent, and the exact fraction where the server gives it: never a raw double ("15.0% (0.14985...)")."""
    page = open_page()
    analyse(page, server, EXPERT_MIDGAME)
    page.hover('#board .cell[data-row="15"][data-col="30"]')
    # /api/puzzle gives doubles only: the percentage alone, as every line without the fraction writes it
    assert page.text_content("#pointer") == "row 15, col 30: chance of a mine 15.0%"
    assert "safe with chance 85.0% (851/1001)" in page.text_content("#advice")
    assert page.text_content("#candidates tr:nth-child(2) td:nth-child(2)") == "85.0% (851/1001)"
    survive = page.text_content("#candidates tr:nth-child(2) td:nth-child(3)")
    assert re.fullmatch(r"\d+\.\d%", survive), survive

    play = open_page()
    play.goto(f"{server}/?rows=9&cols=9&mines=10&start=opening&seed=5")
    idle(play)
    cell(play, 5, 5).click()
    idle(play)
    play.click("#chances")
    idle(play)
    play.hover('#board .cell[data-row="1"][data-col="1"]')
    assert play.text_content("#pointer") == "row 1, col 1: chance of a mine 50.0% (1/2)"


# -- 4. the heat map: certainty has its own marks, the scale reads without hue ---------------------------------


def luminance(rgb):
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_the_heat_map_marks_certainty_and_writes_every_chance(server, open_page):  # noqa: F811
    """A certain safe cell shows S, a certain mine M, any other chance its percentage in 1-99 (a 0.4% cell
    once showed "0", like a safe one); the shades darken as the chance grows, so they read without hue."""
    page = open_page()
    path = EXAMPLES / "best" / "intermediate_opening.txt"
    analyse(page, server, path.read_text())
    drawn = page.eval_on_selector_all(
        "#board .cell[data-chance]",
        "cells => cells.map(c => [Number(c.dataset.chance), c.textContent, c.className,"
        " getComputedStyle(c).backgroundColor])",
    )
    assert drawn
    kinds = set()
    for chance, text, classes, _ in drawn:
        if chance == 0:
            assert text == "S" and "certain-safe" in classes
        elif chance == 1:
            assert text == "M" and "certain-mine" in classes
        else:
            assert text == str(min(99, max(1, round(chance * 100)))), (chance, text)
        kinds.add("safe" if chance == 0 else "mine" if chance == 1 else "chance")
    assert kinds == {"safe", "mine", "chance"}
    # the scale: darker for every higher chance (lightness alone orders it)
    shades = sorted({(chance, luminance(colour)) for chance, _, _, colour in drawn if 0 < chance < 1})
    assert len(shades) > 2 and all(a[1] > b[1] for a, b in zip(shades, shades[1:], strict=False)), shades
    # a low chance and a certain safe cell look nothing alike (they were the same green)
    key = page.eval_on_selector_all("#chance-key .cell", "cells => cells.map(c => c.textContent)")
    assert key[0] == "S" and key[-1] == "M" and key[1:-1] == ["1", "5", "10", "20", "35", "50", "70", "90", "99"]
    key = page.text_content("#chance-key")
    assert "safe for certain" in key and "chance of a mine in %" in key and "a mine for certain" in key


def test_the_play_page_marks_certain_cells_with_letters(server, open_page):  # noqa: F811
    page = open_page()
    page.goto(f"{server}/?rows=9&cols=9&mines=10&start=opening&seed=5")
    idle(page)
    cell(page, 5, 5).click()
    idle(page)
    page.click("#hint")
    idle(page)
    safe, mines = cells(page, '[data-hint="safe"]'), cells(page, '[data-hint="mine"]')
    assert safe and mines
    assert {cell(page, *place).text_content() for place in safe} == {"S"}
    assert {cell(page, *place).text_content() for place in mines} == {"M"}
    page.click("#chances")
    idle(page)
    for place in safe:
        assert cell(page, *place).text_content() == "S"
    assert not page.locator("#chance-key").is_hidden()


# -- 5. the layout: beside the controls on a laptop, within the screen on a phone -----------------------------


def test_an_expert_board_fits_beside_the_controls_on_a_laptop(server, open_page):  # noqa: F811
    page = open_page(LAPTOP)
    analyse(page, server, EXPERT_MIDGAME)
    board, controls = box(page, "#board"), box(page, "section.controls")
    assert board["x"] >= controls["x"] + controls["width"], "the board is not beside the controls"
    assert board["x"] + board["width"] <= LAPTOP["width"] and board["y"] + board["height"] <= LAPTOP["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    play = open_page(LAPTOP)
    play.goto(f"{server}/?rows=16&cols=30&mines=99&seed=1")
    idle(play)
    board, controls = box(play, "#board"), box(play, "section.controls")
    assert board["x"] >= controls["x"] + controls["width"] and board["x"] + board["width"] <= LAPTOP["width"]
    assert board["y"] + board["height"] <= LAPTOP["height"]


@pytest.mark.parametrize("where", ["/?rows=16&cols=30&mines=99&seed=1", "analyse", "/layout", "/api"])
def test_the_pages_fit_a_phone(server, open_page, where):  # noqa: F811
    """No page is wider than the phone; the header spans it; a board wider than the screen scrolls in its box."""
    page = open_page(PHONE)
    if where == "analyse":
        analyse(page, server, EXPERT_MIDGAME)
    else:
        page.goto(server + where)
        page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert box(page, "header")["width"] == PHONE["width"]
    if where != "/layout" and where != "/api":
        idle(page)
        scroller = page.eval_on_selector(".board-box", "b => [b.scrollWidth, b.clientWidth]")
        assert scroller[0] > scroller[1], "an expert board is wider than a phone: its box scrolls"


# -- 6. a refused paste takes the old board away ----------------------------------------------------------------


def test_a_refused_paste_takes_the_old_board_and_its_sizes_away(server, open_page):  # noqa: F811
    page = open_page()
    analyse(page, server, "3 3 1\n1..\n...\n...\n")
    assert page.locator("#board .cell").count() == 9 and page.input_value("#rows") == "3"
    page.fill("#text", "4 3 1\n1..\n..\n...\n...\n")  # a ragged row
    page.click("#read")
    page.wait_for_function("document.getElementById('problem').textContent !== ''")
    idle(page)
    assert "row has 2 cells" in page.text_content("#problem")
    assert page.locator("#board .cell").count() == 0
    assert [page.input_value(f"#{name}") for name in ("rows", "cols", "total")] == ["", "", ""]
    assert page.input_value("#text") == "4 3 1\n1..\n..\n...\n...\n"  # the text stays, to mend
    assert page.url.endswith("/analyse") and page.locator("#share").is_hidden()
    page.fill("#text", "4 3 1\n1..\n...\n...\n...\n")
    page.click("#read")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 12")
    idle(page)
    assert page.input_value("#rows") == "4" and page.text_content("#problem") == ""


# -- 7. the Layout page's Impossible, and a count of one --------------------------------------------------------


def test_the_layout_pages_impossible_explains_itself(server, open_page):  # noqa: F811
    page = open_page()
    page.goto(f"{server}/layout")
    for field, value in zip(("#rows", "#cols", "#mines"), (2, 2, 1), strict=True):
        page.fill(field, str(value))
    page.click("#solve")
    page.wait_for_function("document.getElementById('verdict').textContent === 'Impossible'")
    idle(page)
    assert page.locator("#board").bounding_box() is None, "an empty board draws no dark bar"
    reason = page.text_content("#reason")
    assert "N = rows × cols − mines, the safe cells" in reason and "Here N = 2 × 2 − 1 = 3 safe cells" in reason
    assert page.text_content("#how").startswith("2×2, 1 mine · greedy")
    panel, line = box(page, "section.view"), box(page, "#reason")
    assert line["x"] + line["width"] <= panel["x"] + panel["width"] and panel["x"] > box(page, "section.controls")["x"]


def test_a_count_of_one_is_singular(server, open_page):  # noqa: F811
    page = open_page()
    analyse(page, server, "1 3 1\n1..\n")
    assert page.text_content("#count") == "1 placement of the mines"
    assert page.text_content("#certain") == "for certain: 1 safe cell (S), 1 mine (M)"
    play = open_page()
    play.goto(f"{server}/?rows=9&cols=9&mines=1&seed=2")
    idle(play)
    assert play.text_content("#deal").startswith("9×9, 1 mine ·")


# -- 8. a certain mine clicked is no guess ----------------------------------------------------------------------


def test_clicking_a_certain_mine_says_it_was_a_certain_mine(server, open_page):  # noqa: F811
    settings = {"rows": 9, "cols": 9, "mines": 10, "start": "opening", "seed": 5}
    first = ask(server, "/api/game", settings)["first"]
    view = ask(server, "/api/game", {**settings, "moves": [{"action": "reveal", "cell": first}], "hint": True})
    mine = view["hint"]["mines"][0]
    page = open_page()
    page.goto(f"{server}/?rows=9&cols=9&mines=10&start=opening&seed=5")
    idle(page)
    cell(page, *first).click()
    idle(page)
    cell(page, *mine).click()
    page.wait_for_function("document.getElementById('outcome').textContent === 'lost'")
    idle(page)
    assert page.text_content("#verdict") == "was that a guess? no: it was a mine for certain from what was shown"
    page.wait_for_function("document.getElementById('guesses').textContent !== '…'")
    assert page.text_content("#guesses") == "0"  # nor is it counted as one


# -- 9. the candidates' columns ---------------------------------------------------------------------------------


def headers(page):
    return page.eval_on_selector_all("#candidates th", "cells => cells.map(c => c.textContent)")


def test_the_candidates_show_the_win_chance_only_when_known(server, open_page):  # noqa: F811
    page = open_page()
    analyse(page, server, EXPERT_MIDGAME)
    assert headers(page) == ["candidate", "safe", "survive", "progress", "opens"]
    assert "–" not in page.text_content("#candidates")
    path = EXAMPLES / "best" / "isolated_region.txt"
    hint = ask(server, "/api/hint", {"position": path.read_text()})
    assert all("win" in candidate for candidate in hint["candidates"])
    analyse(page, server, path.read_text())
    assert headers(page) == ["candidate", "safe", "win"]
    wins = page.eval_on_selector_all("#candidates td:nth-child(3)", "cells => cells.map(c => c.textContent)")
    assert wins == [f"{candidate['win'] * 100:.1f}%" for candidate in hint["candidates"]]


# -- 10. the Seed box and the start cell's mark -----------------------------------------------------------------


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_seed_box_shows_ten_digits(server, open_page, viewport):  # noqa: F811
    page = open_page(viewport)
    page.goto(f"{server}/?rows=9&cols=9&mines=10&seed=2147483647")
    idle(page)
    assert page.input_value("#seed") == "2147483647"
    fits = page.eval_on_selector(
        "#seed",
        """input => {
          const probe = document.createElement('span');
          probe.style.font = getComputedStyle(input).font;
          probe.textContent = input.value;
          document.body.appendChild(probe);
          const wide = probe.getBoundingClientRect().width;
          probe.remove();
          const style = getComputedStyle(input);
          const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return [wide, room];
        }""",
    )
    assert fits[0] + 16 <= fits[1], f"ten digits ({fits[0]:.0f} px) and the spinner do not fit in {fits[1]:.0f} px"


def test_the_start_cell_is_marked_s_and_explained(server, open_page):  # noqa: F811
    page = open_page()
    page.goto(f"{server}/?rows=9&cols=9&mines=10&start=opening&seed=5")
    idle(page)
    first = cells(page, ".first")
    assert len(first) == 1 and cell(page, *next(iter(first))).text_content() == "S"
    key = page.text_content("#key")
    assert "S" in key and "the cell the board was dealt for, click it first" in key
    cell(page, *next(iter(first))).click()
    idle(page)
    assert not cells(page, ".first")
