"""The JSON API through the ASGI client: each endpoint answers what the command line prints, errors are one line.

Every answer is compared with the command's own ``--format json`` output for the same input and
options (less the ``file`` key, and the layout's timings), and every refused request with the
command's own error line (the file's name becoming the field's).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install -e '.[test]'")
pytest.importorskip("httpx", reason="the web tests need httpx: pip install -e '.[test]'")

with warnings.catch_warnings():  # Starlette asks for httpx2 in its test client; httpx still does the work
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient  # noqa: E402

from cpsolve import __version__  # noqa: E402
from cpsolve.cli import app as cli  # noqa: E402
from cpsolve.web import create_app  # noqa: E402
from cpsolve.web.app import MAX_BODY  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TIME_LIMIT = 20.0


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2, queue=8, time_limit=TIME_LIMIT)) as client:
        yield client


def cli_lines(runner, *args):
    """The command's JSON lines (exit 0 or 3), as objects."""
    result = runner.invoke(cli, [*map(str, args), "--format", "json"])
    assert result.exit_code in (0, 3), result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def cli_error(runner, *args):
    """The command's one error line, without the ``cpsolve: `` it starts with."""
    result = runner.invoke(cli, [*map(str, args)])
    assert result.exit_code in (1, 2) and result.stdout == "", (result.exit_code, result.stdout)
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("cpsolve: ")
    return line.removeprefix("cpsolve: ")


def unfiled(answer):
    return {key: value for key, value in answer.items() if key != "file"}


def post(client, path, body):
    response = client.post(path, json=body)
    return response.status_code, response.json()


#: Positions in the puzzle format: the clue puzzles, and game positions (one of them a contradiction).
GAME_POSITIONS = [EXAMPLES / "best" / name for name in ("expert_midgame.txt", "contradiction.txt")]
POSITIONS = sorted((EXAMPLES / "puzzles").glob("*.txt")) + GAME_POSITIONS


@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.name)
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"count": True, "deduce": True, "probabilities": True},
        {"probabilities": True, "no_total": True},
        {"count": True, "mines": 10},
    ],
    ids=["plain", "all", "no-total", "mines"],
)
def test_puzzle_answers_what_the_command_prints(client, runner, path, options):
    flags = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        flags += [flag] if value is True else [flag, value]
    (expected,) = cli_lines(runner, "puzzle", path, *flags)
    status, answer = post(client, "/api/puzzle", {"position": path.read_text(), **options})
    assert status == 200 and answer == unfiled(expected)


@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.name)
@pytest.mark.parametrize("seed", [0, 7])
def test_hint_answers_what_the_command_prints(client, runner, path, seed):
    (expected,) = cli_lines(runner, "hint", path, "--seed", seed)
    status, answer = post(client, "/api/hint", {"position": path.read_text(), "seed": seed})
    assert status == 200 and answer == unfiled(expected)


def test_the_deep_hint_plays_the_closest_candidates_out_in_the_long_lane(client):
    from cpsolve.web.app import LONG, lane_of

    position = (EXAMPLES / "best" / "expert_midgame.txt").read_text()
    status, answer = post(client, "/api/hint", {"position": position, "deep": True, "time_limit": 5})
    assert status == 200 and answer["guess"]["reason"] == "rollouts" and answer["rollout_boards"] > 0
    fields = {"position": position, "deep": True, "mines": None, "no_total": False, "seed": 0, "time_limit": 5}
    assert lane_of("hint", fields) == LONG


def test_a_contradiction_is_answered_with_its_minimal_clues(client, runner):
    path = EXAMPLES / "best" / "contradiction.txt"
    (expected,) = cli_lines(runner, "hint", path)
    status, answer = post(client, "/api/hint", {"position": path.read_text()})
    assert status == 200 and answer["status"] == "no_solution" and answer["conflict"]
    assert answer == unfiled(expected)


def test_windows_line_endings_are_read_as_the_command_reads_them(client, runner, tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"3 3 2\r\n1.1\r\n...\r\n...\r\n")
    (expected,) = cli_lines(runner, "puzzle", path, "--probabilities", "--count")
    status, answer = post(
        client, "/api/puzzle", {"position": path.read_bytes().decode(), "probabilities": True, "count": True}
    )
    assert status == 200 and answer == unfiled(expected) and answer["count"] > 0


def test_a_total_no_placement_holds_is_no_solution_as_on_the_command_line(client, runner, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("2 2 9\n1.\n..\n")
    (expected,) = cli_lines(runner, "puzzle", path, "--count")
    status, answer = post(client, "/api/puzzle", {"position": path.read_text(), "count": True})
    assert status == 200 and answer["status"] == "no_solution" and answer == unfiled(expected)


def untimed(answer):
    """A layout answer less what differs from run to run: the seconds taken."""
    stats = {key: value for key, value in answer["stats"].items() if "seconds" not in key}
    return {**{key: value for key, value in answer.items() if key != "seconds"}, "stats": stats}


@pytest.mark.parametrize(
    "args,body",
    [
        (["4", "7", "3"], {"rows": 4, "cols": 7, "mines": 3}),
        (["2", "2", "1"], {"rows": 2, "cols": 2, "mines": 1}),
        (["3", "3", "2", "--backend", "cp"], {"rows": 3, "cols": 3, "mines": 2, "backend": "cp"}),
        (["5", "5", "3", "--click", "3,3"], {"rows": 5, "cols": 5, "mines": 3, "click": [3, 3]}),
        (["20", "--template", str(EXAMPLES / "templates" / "two_rooms.txt")], {"mines": 20, "template": "two_rooms"}),
        (  # the fuzz's seeded CP layout: the CLI printed 4 boards in 6 runs, the API another
            ["30", "--template", str(EXAMPLES / "templates" / "two_rooms.txt")]
            + ["--backend", "cp", "--phases", "none", "--seed", "5"],
            {"mines": 30, "template": "two_rooms", "backend": "cp", "phases": "none", "seed": 5},
        ),
    ],
    ids=["greedy", "impossible", "cp", "click", "template", "seeded cp"],
)
def test_layout_answers_what_the_command_prints(client, runner, args, body):
    if body.get("template"):
        body = {**body, "template": (EXAMPLES / "templates" / f"{body['template']}.txt").read_text()}
    (expected,) = cli_lines(runner, "layout", *args)
    status, answer = post(client, "/api/layout", body)
    assert status == 200 and untimed(answer) == untimed(expected)


def test_casual_answers_the_commands_lines_as_a_list(client, runner):
    path = EXAMPLES / "casual" / "sample.in"
    expected = cli_lines(runner, "casual", path)
    status, answer = post(client, "/api/casual", {"boards": path.read_text()})
    assert status == 200 and answer == expected and len(answer) > 1


@pytest.mark.parametrize(
    "args,body",
    [
        (["9", "9", "10", "--count", "3", "--seed", "1"], {"rows": 9, "cols": 9, "mines": 10, "count": 3, "seed": 1}),
        (
            ["8", "8", "12", "--player", "casual", "--start", "safe", "--first", "1,1", "--seed", "4"],
            {"rows": 8, "cols": 8, "mines": 12, "player": "casual", "start": "safe", "first": [1, 1], "seed": 4},
        ),
    ],
)
def test_generate_answers_the_commands_lines_as_a_list(client, runner, args, body):
    expected = cli_lines(runner, "generate", *args)
    status, answer = post(client, "/api/generate", body)
    assert status == 200 and answer == expected


def test_health_answers_at_once(client):
    response = client.get("/api/health")
    assert response.status_code == 200 and response.json() == {"status": "ok", "version": __version__}


def test_the_pages_and_their_files_are_served_from_the_package(client):
    for path in ("/", "/analyse", "/layout", "/api"):
        response = client.get(path)
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
        head = client.head(path)  # what a link checker or a monitor asks: the headers alone
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == str(len(response.content))
        for script in ("/static/common.js", "/static/style.css"):
            if script.endswith(".js") and path == "/api":
                continue
            assert script in response.text
        assert "http://" not in response.text and "https://" not in response.text  # nothing from elsewhere
    assert client.get("/static/play.js").status_code == 200
    assert client.get("/openapi.json").json()["info"]["version"] == __version__


def test_the_openapi_page_documents_every_endpoint_and_its_fields(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/puzzle", "/api/hint", "/api/layout", "/api/casual", "/api/generate", "/api/health"):
        assert path in paths
    puzzle = paths["/api/puzzle"]["post"]
    assert puzzle["requestBody"]["content"]["application/json"]["schema"]
    assert {"400", "413", "422", "503", "504"} <= set(puzzle["responses"])


# -- refused requests ----------------------------------------------------------------------------


def test_a_ragged_position_is_the_commands_line_naming_the_field(client, runner, tmp_path):
    path = tmp_path / "ragged.txt"
    path.write_text("1..\n..\n")
    expected = cli_error(runner, "puzzle", path)
    status, answer = post(client, "/api/puzzle", {"position": path.read_text()})
    assert status == 422 and answer == {"error": expected.replace(str(path), "position")}
    assert answer["error"] == "position, line 2: row has 2 cells, the first row has 3"


@pytest.mark.parametrize(
    "cli_args,body",
    [
        (["hint", "{path}", "--seed", "-1"], {"seed": -1}),
        (["puzzle", "{path}", "--mines", "-1"], {"mines": -1}),
        (["puzzle", "{path}", "--time-limit", "0"], {"time_limit": 0}),
        (["puzzle", "{path}", "--time-limit", "nan"], {"time_limit": float("nan")}),
    ],
    ids=["seed", "mines", "time-limit", "nan"],
)
def test_a_number_the_command_refuses_is_refused_with_its_words(client, runner, tmp_path, cli_args, body):
    path = tmp_path / "p.txt"
    path.write_text("1.\n..\n")
    expected = cli_error(runner, *(arg.format(path=path) for arg in cli_args))
    endpoint = "/api/" + cli_args[0]
    response = client.post(
        endpoint,
        content=json.dumps({"position": path.read_text(), **body}),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422
    flag = "--" + next(iter(body)).replace("_", "-")
    assert response.json() == {"error": expected.replace(flag, next(iter(body)))}


@pytest.mark.parametrize(
    "path,body,status,error",
    [
        ("/api/puzzle", {"position": "1.", "probabilty": True}, 422, "unknown field 'probabilty'"),
        ("/api/puzzle", {"probabilities": True}, 422, "field 'position' is required"),
        ("/api/puzzle", {"position": "1.", "mines": "3"}, 422, "mines: input should be a valid integer, got '3'"),
        ("/api/puzzle", {"position": "1.", "count": 1}, 422, "count: input should be a valid boolean, got 1"),
        ("/api/puzzle", [1, 2], 400, "the request body must be a JSON object"),
        ("/api/puzzle", {"position": "1.", "mines": 2, "no_total": True}, 422, None),
        ("/api/puzzle", {"position": "1.", "time_limit": TIME_LIMIT + 1}, 422, None),
        ("/api/generate", {"rows": 9, "cols": 9, "mines": 10, "count": 0}, 422, "count must be 1 or more, got 0"),
        ("/api/generate", {"rows": 9, "cols": 9, "mines": 10, "count": 101}, 422, None),
        ("/api/generate", {"rows": 3, "cols": 3, "mines": 9}, 422, None),
        ("/api/layout", {"rows": 3, "cols": 3, "mines": 1, "click": [4, 4]}, 422, None),
        ("/api/layout", {"rows": 3, "cols": 3, "mines": 9}, 422, None),
        ("/api/layout", {"rows": 3, "mines": 1}, 422, None),
        ("/api/game", {"rows": 9, "cols": 9, "mines": 10, "moves": [{"action": "reveal", "cell": [10, 1]}]}, 422, None),
        ("/api/game", {"rows": 9, "cols": 9, "mines": 10, "moves": [{"action": "dig", "cell": [1, 1]}]}, 422, None),
        ("/api/game", {"rows": 101, "cols": 9, "mines": 10}, 422, None),
        ("/api/casual", {"boards": "2 2\nM.\n.\n"}, 422, None),
        ("/api/puzzle", {"position": "1.\n.\u00001\n"}, 422, "position, line 2: binary data (NUL byte), expected text"),
        ("/api/puzzle", {"position": "1.\r.1\r"}, 422, None),
        ("/api/game", {"rows": 9, "cols": 9, "mines": 10, "moves": [5]}, 422, "moves[1]: must be a JSON object"),
        ("/api/game", {"rows": 9, "cols": 9, "mines": -1}, 422, "mines must be 0 or more, got -1"),
        ("/api/generate", {"rows": 9, "cols": 9, "mines": -1}, 422, "mines must be 0 or more, got -1"),
        (
            "/api/layout",
            {"rows": 10_000, "cols": 10_000, "mines": 5},
            422,
            "rows x cols must be at most 1,000,000 cells on this server, got 10000x10000",
        ),
        ("/api/generate", {"rows": 1001, "cols": 1000, "mines": 5}, 422, None),
        ("/api/layout", {"rows": 5, "cols": 8, "mines": 17, "backend": "cp", "phases": "bounds\nzz"}, 422, None),
        ("/api/layout", {"rows": 5, "cols": 8, "mines": 17, "backend": "cp", "phases": "z" * 5000}, 422, None),
    ],
)
def test_bad_requests_get_a_4xx_and_one_line(client, path, body, status, error):
    response = client.post(path, json=body)
    assert response.status_code == status
    answer = response.json()
    assert list(answer) == ["error"] and len(answer["error"].splitlines()) == 1 and "Traceback" not in answer["error"]
    assert len(answer["error"]) < 400  # a long value is echoed shortened
    if error is not None:
        assert answer["error"] == error


def test_a_lone_surrogate_in_a_text_is_not_utf8_text(client):
    """JSON may spell a lone surrogate (no UTF-8 text holds one): the reader's own words, a 422."""
    body = b'{"position": "1.\\n.\\ud8001\\n"}'
    response = client.post("/api/puzzle", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json() == {"error": "position, line 2: binary data (not UTF-8 text)"}


def test_a_body_that_is_not_json_is_a_400(client):
    for content in (b"{not json", b"", "\u00e9".encode("latin-1")):
        response = client.post("/api/hint", content=content, headers={"content-type": "application/json"})
        assert response.status_code == 400 and list(response.json()) == ["error"]


def test_a_body_over_the_limit_is_a_413_however_it_comes(client):
    big = json.dumps({"position": "." * (MAX_BODY + 10)}).encode()
    response = client.post("/api/puzzle", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json() == {
        "error": f"the request body is larger than {MAX_BODY} bytes"
    }

    def chunks():  # no Content-Length: counted as it streams in
        for start in range(0, len(big), 65536):
            yield big[start : start + 65536]

    response = client.post("/api/puzzle", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert client.get("/api/health").status_code == 200  # and the server goes on


def test_a_body_not_sent_as_json_is_a_415(client):
    """A page of another site may post text/plain to a local server without the browser asking: refused."""
    for headers in ({}, {"content-type": "text/plain"}, {"content-type": "application/x-www-form-urlencoded"}):
        response = client.post("/api/hint", content=b'{"position": "1.\\n..\\n"}', headers=headers)
        assert response.status_code == 415 and "Content-Type: application/json" in response.json()["error"]


def test_unknown_pages_and_methods_are_one_line_too(client):
    assert client.get("/nowhere").json() == {"error": "no such page: /nowhere"}
    response = client.get("/api/hint")
    assert response.status_code == 405 and list(response.json()) == ["error"]


def test_random_bodies_never_get_a_5xx(client):
    """Junk in every field the puzzle and game endpoints take: a 200 or a 4xx, one line, never a traceback."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    values = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**20), 10**20),
        st.floats(),
        st.text(max_size=30),
        st.lists(st.integers(-3, 12), max_size=3),
    )
    position = st.text(alphabet="0123456789.*#?F \n\r\t-x", max_size=40)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        position,
        st.dictionaries(st.sampled_from(["count", "mines", "no_total", "seed", "time_limit", "x"]), values, max_size=3),
    )
    def check(text, extra):
        for path in ("/api/puzzle", "/api/hint"):
            body = {"position": text, **extra}
            if path == "/api/hint":
                body.pop("count", None)
            # sent as Python's json writes it, so a float that is not finite arrives as NaN or Infinity
            # (which JSON itself cannot carry, but Python's and JavaScript's readers take)
            content = json.dumps(body)
            response = client.post(path, content=content, headers={"content-type": "application/json"})
            assert response.status_code < 500, (body, response.text)
            if response.status_code >= 400:
                assert list(response.json()) == ["error"] and "\n" not in response.json()["error"]

    check()


# -- the game -----------------------------------------------------------------------------------


def test_a_seeded_no_guess_game_is_won_by_playing_the_hints(client):
    """The server keeps nothing: every request sends the deal and all the moves, and the hint leads to a win."""
    deal = {"rows": 9, "cols": 9, "mines": 10, "no_guess": "perfect", "seed": 3}
    moves = []
    for _ in range(60):
        status, view = post(client, "/api/game", {**deal, "moves": moves, "hint": True})
        assert status == 200
        if view["outcome"] != "playing":
            break
        hint = view["hint"]
        assert hint["guess"] is None  # a no-guess board: always a certain move
        moves += [{"action": "reveal", "cell": cell} for cell in hint["safe"]]
    assert view["outcome"] == "won" and view["mines_left"] == 10
    status, judged = post(client, "/api/game", {**deal, "moves": moves, "judge": "all"})
    assert judged["guesses"] == 0 and all(move["safety"]["exact"] == "1" for move in judged["moves"])


def _flag_and_chord(seed):
    """A deal's first click, a certain mine after it, and a cleared 1 beside that mine with other covered neighbours."""
    from cpsolve.play import assist
    from cpsolve.play.session import Dealer, Session

    session = Session(Dealer(9, 9, 10, seed=seed).deal())
    session.reveal(session.deal.first)
    picture = session.picture()
    for mine in assist.hint(session.view()).mines:
        for r in range(max(mine[0] - 1, 0), min(mine[0] + 2, 9)):
            for c in range(max(mine[1] - 1, 0), min(mine[1] + 2, 9)):
                around = [
                    (rr, cc)
                    for rr in range(max(r - 1, 0), min(r + 2, 9))
                    for cc in range(max(c - 1, 0), min(c + 2, 9))
                    if picture[rr][cc] == "-" and (rr, cc) != mine
                ]
                if picture[r][c] == "1" and around:
                    return session, mine, (r, c)
    return None


def test_the_game_replays_flags_chords_and_undo_as_the_session_does(client):
    seed, (session, mine, number) = next((seed, found) for seed in range(100) if (found := _flag_and_chord(seed)))
    one_based = lambda cell: [cell[0] + 1, cell[1] + 1]  # noqa: E731
    deal = {"rows": 9, "cols": 9, "mines": 10, "seed": seed}
    moves = [{"action": "reveal", "cell": one_based(session.deal.first)}, {"action": "flag", "cell": one_based(mine)}]
    session.toggle_flag(mine)
    status, view = post(client, "/api/game", {**deal, "moves": moves})
    assert status == 200 and view["board"] == session.picture() and view["mines_left"] == 9
    assert session.chord(number) is not None
    moves.append({"action": "chord", "cell": one_based(number)})
    status, view = post(client, "/api/game", {**deal, "moves": moves})
    assert status == 200 and view["board"] == session.picture() and view["moves"][-1]["action"] == "chord"
    assert view["moves"][-1]["exploded"] == [] and view["moves"][-1]["safety"]["exact"] == "1"  # a flag on a mine
    session.undo()
    moves.append({"action": "undo"})
    status, view = post(client, "/api/game", {**deal, "moves": moves, "chances": True})
    assert view["board"] == session.picture() and view["undos"] == 1
    chances = {tuple(item["cell"]) for item in view["chances"]["cells"]}
    covered = {(r + 1, c + 1) for r, row in enumerate(session.picture()) for c, ch in enumerate(row) if ch in "-F"}
    assert chances == covered


def test_the_3bv_is_shown_only_once_the_game_is_over_and_then_only_undo_changes_anything(client):
    """The 3BV depends on where the mines are (on 3x3 with one mine: 1 for a corner mine, 3 for an
    edge one), so it stays null while the game is played. A move after the end changes nothing (the
    Play page sends the hint's safe cells at once, and a win may come before the last), undo does."""
    from cpsolve.generate import openings_and_3bv
    from cpsolve.play.session import Dealer

    for seed in range(6):
        deal = {"rows": 3, "cols": 3, "mines": 1, "start": "safe", "seed": seed}
        mines = Dealer(3, 3, 1, start="safe", seed=seed).deal().mines
        moves = []
        status, view = post(client, "/api/game", deal)
        cells = iter([r, c] for r in range(1, 4) for c in range(1, 4))
        while view["outcome"] == "playing":
            assert status == 200 and view["bbbv"] is None
            moves.append({"action": "reveal", "cell": next(cells)})
            status, view = post(client, "/api/game", {**deal, "moves": moves})
        assert view["bbbv"] == openings_and_3bv(mines)[1]
        late = [{"action": "flag", "cell": [3, 3]}, {"action": "reveal", "cell": [1, 1]}]
        status, after = post(client, "/api/game", {**deal, "moves": [*moves, *late]})
        assert status == 200 and after == view
        status, view = post(client, "/api/game", {**deal, "moves": [*moves, *late, {"action": "undo"}]})
        assert status == 200 and view["outcome"] == "playing" and view["bbbv"] is None


def test_a_list_cut_short_by_the_time_limit_keeps_what_was_found(monkeypatch):
    """generate's boards (and casual's answers) found before the time ran out are the answer, the
    reason in a header, as the command prints them before its exit 3; with none found it is a 504."""
    from cpsolve.answers import generated
    from cpsolve.errors import TimeLimitError
    from cpsolve.web import work

    real = generated.generate

    def one_then_out(*args, **kwargs):
        boards = real(*args, **kwargs)
        yield next(boards)
        raise TimeLimitError("board 2 not found in 1 s")

    monkeypatch.setattr(generated, "generate", one_then_out)
    fields = {"rows": 9, "cols": 9, "mines": 10, "player": "perfect", "no_total": False, "first": None}
    fields |= {"start": "opening", "count": 3, "seed": 0, "time_limit": 5.0}
    status, text, headers = work.answer("generate", fields)
    assert status == 200 and len(json.loads(text)) == 1
    assert headers == {work.TIMED_OUT_HEADER: "board 2 not found in 1 s"}

    clock = iter([0.0, 0.0, 0.0, 9.0])  # the deadline (0 + 5 s), two boards in time, the third past it
    monkeypatch.setattr(work, "perf_counter", lambda: next(clock))
    status, text, headers = work.answer("casual", {"boards": "2 2\nM.\n..\n" * 3 + "0 0\n", "time_limit": 5.0})
    assert status == 200 and [line["board"] for line in json.loads(text)] == [1, 2]
    assert headers == {work.TIMED_OUT_HEADER: "the time limit of 5 s ran out before board 3"}
    clock = iter([0.0, 9.0])
    status, text, headers = work.answer("casual", {"boards": "2 2\nM.\n..\n0 0\n", "time_limit": 5.0})
    assert status == 504 and json.loads(text) == {"error": "the time limit of 5 s ran out before board 1"}


# -- the pool -----------------------------------------------------------------------------------

SLOW = {"rows": 30, "cols": 30, "mines": 400, "player": "casual", "time_limit": 3}  # no board qualifies: 3 s of draws


@pytest.mark.slow  # waits out a slow request
def test_a_slow_request_blocks_neither_the_pages_nor_the_health_check(client):
    answers = {}
    slow = threading.Thread(target=lambda: answers.update(slow=client.post("/api/generate", json=SLOW)))
    slow.start()
    time.sleep(0.5)
    began = time.perf_counter()
    assert client.get("/api/health").status_code == 200 and client.get("/").status_code == 200
    assert time.perf_counter() - began < 1.0
    slow.join(timeout=30)
    response = answers["slow"]
    assert response.status_code == 504 and "not found in 3 s" in response.json()["error"]


@pytest.mark.slow  # waits out slow requests that fill the pool
def test_a_full_lane_refuses_at_once_with_503_and_retry_after_and_the_other_lane_still_answers():
    with TestClient(create_app(workers=1, queue=1, time_limit=10, long_workers=1, long_queue=1)) as small:
        answers = {}
        slow = threading.Thread(target=lambda: answers.update(slow=small.post("/api/generate", json=SLOW)))
        slow.start()
        time.sleep(0.5)
        began = time.perf_counter()
        response = small.post("/api/generate", json={**SLOW, "seed": 1})
        assert response.status_code == 503 and "busy" in response.json()["error"]
        assert response.headers["retry-after"] == "10"
        assert time.perf_counter() - began < 1.0
        hint = small.post("/api/hint", json={"position": "1.\n..\n"})  # the quick lane is free
        assert hint.status_code == 200 and hint.json()["safe"] == []
        slow.join(timeout=30)
        assert answers["slow"].status_code == 504
        assert small.post("/api/generate", json={**SLOW, "time_limit": 0.5}).status_code == 504  # the lane is free


def test_a_client_that_goes_away_has_its_work_stopped():
    """Driven as an ASGI server would: the body, then the client's disconnect; the solver process is ended."""
    application = create_app(workers=1, queue=4, time_limit=10)

    began = 0.0

    async def scenario():
        body = json.dumps(SLOW).encode()
        sent = []
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive():
            if messages:
                return messages.pop(0)
            if time.perf_counter() - began > 0.5:  # the client leaves half a second in
                return {"type": "http.disconnect"}
            await asyncio.sleep(3600)  # nothing yet (Starlette cancels this wait at once)

        async def send(message):
            sent.append(message)

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/generate",
            "raw_path": b"/api/generate",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 80),
            "state": {},
        }
        async with _lifespan(application):
            nonlocal began
            began = time.perf_counter()
            await application(scope, receive, send)
            stopped_after = time.perf_counter() - began
            return application.state.pool.stopped, stopped_after

    stopped, seconds = asyncio.run(scenario())
    assert stopped == 1 and seconds < 2.5  # well before its 3 s of work


class _lifespan:
    """Run an app's lifespan around a block (what a server does at start and stop)."""

    def __init__(self, application):
        self.application = application

    async def __aenter__(self):
        self.context = self.application.router.lifespan_context(self.application)
        await self.context.__aenter__()

    async def __aexit__(self, *exc):
        await self.context.__aexit__(*exc)


def test_the_pool_stops_work_past_its_hard_limit_and_replaces_the_worker():
    import os

    from cpsolve.errors import TimeLimitError
    from cpsolve.web.pool import Lane, SolverPool

    async def scenario():
        pool = SolverPool([Lane("quick", 1, 2)])

        async def present():
            return False

        try:
            await pool.start(os.getpid)
            first = await pool.run("quick", os.getpid, (), 10, present)
            with pytest.raises(TimeLimitError):
                await pool.run("quick", time.sleep, (30,), 0.5, present)
            second = await pool.run("quick", os.getpid, (), 10, present)
        finally:
            pool.close()
        return first, second

    first, second = asyncio.run(scenario())
    assert first != second  # the worker stuck in its work was ended and another started


# -- the server's own bounds ----------------------------------------------------------------------


def raw_post(client, path, text):
    """Post a body written by hand (JSON that Python's writer would not write: 5,000 digits, 990 levels)."""
    response = client.post(path, content=text.encode(), headers={"content-type": "application/json"})
    answer = response.json()
    assert list(answer) == ["error"] or response.status_code == 200
    return response.status_code, answer


NINE = '"rows": 9, "cols": 9, "mines": 10'


@pytest.mark.parametrize(
    "path,text,status,error",
    [
        ("/api/generate", "{" + NINE + ', "count": -1}', 422, "count must be 1 or more, got -1"),
        ("/api/generate", "{" + NINE + ', "count": 0}', 422, "count must be 1 or more, got 0"),
        (
            "/api/generate",
            "{" + NINE + ', "count": -1' + "0" * 400 + "}",
            422,
            "count: an integer of 401 digits is larger than any field takes (at most 30 digits)",
        ),
        ("/api/generate", "{" + NINE + ', "count": 101}', 422, "count must be at most 100 on this server, got 101"),
        (
            "/api/puzzle",
            '{"position": "1.\\n..\\n", "mines": 1' + "0" * 4999 + "}",
            422,
            "mines: an integer of 5,000 digits is larger than any field takes (at most 30 digits)",
        ),
        (
            "/api/puzzle",
            '{"position": "1.\\n..\\n", "mines": 1' + "0" * 3999 + "}",
            422,
            "mines: an integer of 4,000 digits is larger than any field takes (at most 30 digits)",
        ),
        ("/api/puzzle", '{"position": "1.\\n..\\n", "mines": ' + "[" * 990 + "]" * 990 + "}", 422, None),
        ("/api/puzzle", '{"position": "1.\\n..\\n", "mines": ' + "[" * 40 + "]" * 40 + "}", 422, None),
        (
            "/api/game",
            "{" + NINE + ', "moves": [{"action": "reveal", "cell": [1' + "0" * 40 + ", 1]}]}",
            422,
            "moves[1].cell[1]: an integer of 41 digits is larger than any field takes (at most 30 digits)",
        ),
        (
            "/api/hint",
            '{"position": "1.\\n..\\n", "time_limit": 1' + "0" * 40 + "}",
            422,
            "time_limit: an integer of 41 digits is larger than any field takes (at most 30 digits)",
        ),
        ("/api/hint", '{"position": "1.\\n..\\n", "time_limit": 1e400}', 422, None),
        ("/api/hint", "[" * 990 + "]" * 990, 422, "the request body is nested more than 32 deep"),
        ("/api/hint", "[" * 20 + "]" * 20, 400, "the request body must be a JSON object"),
        ("/api/layout", '{"rows": -1' + "0" * 20 + ', "cols": -1' + "0" * 20 + ', "mines": 1}', 422, None),
    ],
    ids=[
        "count-1",
        "count0",
        "count-10^400",
        "count101",
        "mines5000digits",
        "mines4000digits",
        "nested990",
        "nested40",
        "cell41digits",
        "time41digits",
        "time1e400",
        "body-nested",
        "body-list",
        "negative-size",
    ],
)
def test_every_refusal_is_a_4xx_naming_the_field(client, path, text, status, error):
    got, answer = raw_post(client, path, text)
    assert got == status, answer
    assert len(answer["error"].splitlines()) == 1 and len(answer["error"]) < 400
    if error is not None:
        assert answer["error"] == error
    if "nested" in answer["error"] and "body" not in answer["error"]:
        assert answer["error"] == "mines: nested more than 32 deep"


def test_the_openapi_description_states_the_servers_limits(client):
    description = client.get("/openapi.json").json()["info"]["description"]
    for words in ("1,000,000 bytes", "30 digits", "32 deep", "1,000,000 cells", "at most 100", "2,048 MiB"):
        assert words in description, words
    assert f"`time_limit` at most {TIME_LIMIT:g} s" in description and "Retry-After" in description


def test_each_request_goes_to_its_lane():
    from cpsolve.web.app import LONG, QUICK, lane_of

    opening = (EXAMPLES / "best" / "intermediate_opening.txt").read_text()
    big = "60 60 5\n" + ("." * 60 + "\n") * 60
    layout = {"rows": 9, "cols": 9, "template": None, "click": None, "backend": None}
    assert lane_of("hint", {"position": opening}) == QUICK
    assert lane_of("position", {"position": opening}) == QUICK
    assert lane_of("puzzle", {"position": opening}) == QUICK
    assert lane_of("game", {"rows": 100, "cols": 100}) == QUICK
    assert lane_of("layout", layout) == QUICK
    assert lane_of("casual", {"boards": "3 3\nM..\n...\n..M\n0 0\n"}) == QUICK
    assert lane_of("hint", {"position": big}) == LONG
    assert lane_of("puzzle", {"position": big}) == LONG
    assert lane_of("generate", {"rows": 3, "cols": 3}) == LONG
    assert lane_of("layout", {**layout, "backend": "cp"}) == LONG
    assert lane_of("layout", {**layout, "rows": 1000, "cols": 1000}) == LONG
    assert lane_of("layout", {**layout, "template": "..\n..\n"}) == LONG
    assert lane_of("casual", {"boards": "3 3\nM..\n...\n..M\n" * 300 + "0 0\n"}) == LONG
    fifty = "50 50 5\r\n" + ("." * 50 + "\r\n") * 50  # the largest board the quick lane takes
    assert lane_of("puzzle", {"position": fifty}) == QUICK


def _data_mib(pid):
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("VmData:")[1].split()[0]) // 1024


@pytest.mark.slow  # a million-cell position, read until the memory bound stops it
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc for the solvers' memory")
def test_work_past_the_memory_bound_is_a_422_and_the_server_goes_on(client):
    """The bound is set 24 MiB above what a solver process holds at start; reading a position of a million
    cells takes far more (its cells' arrays alone), so the reading stops with one line and the process is
    replaced."""
    bound = max(_data_mib(pid) for pid in client.app.state.pool.pids()) + 24
    with TestClient(create_app(workers=1, queue=2, time_limit=60, long_workers=1, memory_mib=bound)) as small:
        pool = small.app.state.pool
        before = set(pool.pids())
        big = "990 1000 5\n" + ("1." * 500 + "\n") * 990  # within the 1 MB body
        response = small.post("/api/puzzle", json={"position": big, "count": True})
        assert response.status_code == 422 and response.json() == {
            "error": f"the work needed more than {bound:,} MiB of memory, the most a request may use on this "
            "server; it was stopped"
        }
        time.sleep(0.5)
        assert pool.recycled == 1 and set(pool.pids()) != before
        status, answer = post(small, "/api/position", {"position": "2 2 1\n1.\n..\n"})
        assert status == 200 and answer["grid"] == ["1.", ".."]


#: Every endpoint's fields, for the random bodies below.
FIELDS = {
    "/api/puzzle": ["position", "count", "deduce", "probabilities", "mines", "no_total"],
    "/api/position": ["position"],
    "/api/hint": ["position", "mines", "no_total", "seed"],
    "/api/layout": ["rows", "cols", "mines", "template", "click", "backend", "workers", "seed", "phases"],
    "/api/casual": ["boards"],
    "/api/generate": ["rows", "cols", "mines", "player", "first", "start", "count", "seed", "no_total"],
    "/api/game": ["rows", "cols", "mines", "start", "no_guess", "seed", "moves", "chances", "hint", "judge"],
}


@pytest.mark.slow  # a few hundred requests
def test_nothing_a_client_sends_gets_a_5xx_or_plain_text(client):
    """Random bodies for every endpoint, written as JSON text by hand: integers of up to 60 digits, values
    nested up to 40 deep, NaN, wrong types, unknown fields. Each answer is a 200 or a 4xx with one JSON line."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    def nested(depth, inner):
        return "[" * depth + inner + "]" * depth

    scalar = st.one_of(
        st.integers(-(10**60), 10**60).map(str),
        st.integers(-3, 12).map(str),
        st.sampled_from(["true", "false", "null", "NaN", "-Infinity", "1e400", "0.5", '"x"', '"opening"', '"cp"']),
        st.text(alphabet="0123456789.*#?F \n", max_size=30).map(json.dumps),
    )
    value = st.one_of(
        scalar,
        st.tuples(st.integers(1, 40), scalar).map(lambda pair: nested(*pair)),
        st.lists(st.integers(-2, 12), max_size=3).map(json.dumps),
        st.just('[{"action": "reveal", "cell": [1, 1]}, {"action": "undo"}]'),
    )

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(sorted(FIELDS)), st.data())
    def check(path, data):
        names = data.draw(st.lists(st.sampled_from([*FIELDS[path], "x"]), max_size=4, unique=True))
        parts = [f'"{name}": {data.draw(value)}' for name in names]
        parts.append('"time_limit": 0.5')  # the last of a name counts: no request here runs long
        text = "{" + ", ".join(parts) + "}"
        response = client.post(path, content=text.encode(), headers={"content-type": "application/json"})
        assert response.status_code < 500 or response.status_code == 504, (text[:300], response.text[:300])
        assert response.headers["content-type"] == "application/json"
        if response.status_code >= 400:
            answer = response.json()
            assert list(answer) == ["error"] and "\n" not in answer["error"] and "Traceback" not in answer["error"]

    check()


@pytest.mark.slow  # a position of a million cells
def test_the_time_limit_counts_the_reading_and_a_hard_stop_is_behind_it(client):
    """/api/position once read a million cells for 7 to 10 s whatever its time limit: now the reading counts
    against the limit, and the work is stopped at most the grace past it."""
    from cpsolve.web.app import GRACE

    big = "990 1000 5\n" + ("1." * 500 + "\n") * 990  # within the 1 MB body
    began = time.perf_counter()
    response = client.post("/api/position", json={"position": big, "time_limit": 1})
    seconds = time.perf_counter() - began
    assert seconds < 1 + GRACE + 3
    if response.status_code == 200:  # read within its second: the position as read
        assert response.json()["rows"] == 990 and seconds < 3
    else:
        assert response.status_code == 504 and "time limit of 1 s ran out" in response.json()["error"]
