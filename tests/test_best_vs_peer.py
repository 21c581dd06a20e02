"""benchmarks/best_vs_peer.py: its boards, its statistics, its store and its divergence classifier.

The peer here is a small Python script written into the test's folder (certain cells first, else the safest
cell, its ties drawn from the board itself; it speaks the script's protocol), so no Java is needed.
"""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from cpsolve.generate import GameSettings, play_game

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "best_vs_peer.py"
_spec = importlib.util.spec_from_file_location("best_vs_peer", SCRIPT)
assert _spec is not None and _spec.loader is not None
bvp = importlib.util.module_from_spec(_spec)
sys.modules["best_vs_peer"] = bvp  # its dataclasses look their module up by name
_spec.loader.exec_module(bvp)

#: The peer of these tests: certain cells first, else the safest cell. Options: --moves (the protocol's),
#: --stop-after K (K lines, then exit 3), --garbage (a line that is not JSON), --skip-last (no line for the last
#: board), --flags (a flag move before each guess, which the replay must skip), --lie (with --moves: the other
#: outcome, as a peer whose second game on a board is another game would give), --slow (a minute for each board
#: after the second).
FAKE_PEER = r"""
import json, sys, time
import numpy as np
from cpsolve.cell_states import COVERED
from cpsolve.deduce import analyse
from cpsolve.play.core import GameState
from cpsolve.play.tables import BoardTables


def play(mines, first, rng):
    # certain cells first, else the safest cell (ties drawn): (won, [(cell, certain), ...])
    game = GameState(BoardTables.build(mines, np.ones_like(mines)))
    index = game.tables.grid.index
    moves = [(first, True)]
    game.reveal(index(*first))
    while not game.won and not game.lost:
        found = analyse(game.view(), backbone=True, probabilities=True)
        safe = sorted(found.surely_safe)
        if safe:
            for cell in safe:
                if game.state[index(*cell)] == COVERED:
                    moves.append((cell, True))
                    game.reveal(index(*cell))
            continue
        low = min(found.probabilities.values())
        best = sorted(cell for cell, p in found.probabilities.items() if p == low)
        cell = best[int(rng.integers(len(best)))]
        moves.append((cell, False))
        game.reveal(index(*cell))
    return game.won, moves


args = sys.argv[1:]
path = next(arg for arg in args if arg.endswith(".jsonl"))
stop = int(args[args.index("--stop-after") + 1]) if "--stop-after" in args else None
boards = [json.loads(line) for line in open(path)]
if "--skip-last" in args:
    boards = boards[:-1]
for j, board in enumerate(boards, 1):
    if stop is not None and j > stop:
        sys.exit(3)
    if "--slow" in args and j > 2:
        open(path + ".asleep", "w").close()  # tells the test the two games before are out
        time.sleep(60)
    if "--garbage" in args and j == 2:
        print("not json", flush=True)
    mines = np.zeros((board["rows"], board["cols"]), dtype=bool)
    for r, c in board["mines"]:
        mines[r, c] = True
    # ties from the board itself: the same board gives the same game in any file, at any line
    won, moves = play(mines, tuple(board["first"]), np.random.default_rng([7, int(np.flatnonzero(mines).sum())]))
    line = {"board": j, "won": won != ("--lie" in args and "--moves" in args), "guesses": sum(not c for _, c in moves)}
    if "--moves" in args:
        line["moves"] = []
        for cell, certain in moves:
            if "--flags" in args and not certain:
                line["moves"].append({"cell": [0, 0], "act": "flag"})
            line["moves"].append({"cell": list(cell), "act": "clear", "certain": certain})
    print(json.dumps(line), flush=True)
"""

#: A small board for whole runs: quick games, a fair share won by one side only.
SMALL = ["--size", "9", "9", "15"]


@pytest.fixture
def peer(tmp_path: Path) -> str:
    """The fake peer's command (``{boards}`` is the boards file)."""
    script = tmp_path / "fake_peer.py"
    script.write_text(FAKE_PEER)
    return f"{sys.executable} {script} {{boards}}"


def run(*args: str) -> subprocess.CompletedProcess:
    """The script as a user runs it."""
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def settings_of(rows: int, cols: int, mines: int, first: tuple[int, int], rule: str, seed: int = 0):
    return bvp.Rules(rows, cols, mines, first, rule, seed).settings()


# ---------------------------------------------------------------------------------------------- boards


@pytest.mark.parametrize("rule", ["classic", "modern"])
def test_boards_repeat_and_keep_the_rule(rule: str) -> None:
    first = bvp.default_first(16, 30, rule)
    assert first == ((0, 0) if rule == "classic" else (3, 3))
    settings = settings_of(16, 30, 99, first, rule, seed=5)
    seen = np.zeros((16, 30), dtype=int)
    for board in range(1, 201):
        mines = bvp.board_mines(settings, board)
        assert np.array_equal(mines, bvp.board_mines(settings, board))
        assert int(mines.sum()) == 99
        row, col = first
        if rule == "classic":
            assert not mines[row, col]
        else:
            assert not mines[row - 1 : row + 2, col - 1 : col + 2].any()
        seen += mines
    row, col = first
    free = seen[row - 1 : row + 2, col - 1 : col + 2] if rule == "modern" else seen[row, col]
    assert not np.any(free)
    # every other cell held a mine on some board: the rule takes out only its own cells
    assert np.count_nonzero(seen) == 480 - (9 if rule == "modern" else 1)


def test_board_k_is_game_k_minus_one_of_stats() -> None:
    """The boards and cpsolve's games are those of ``cpsolve stats --player best`` (game k - 1)."""
    rules = bvp.Rules(9, 9, 10, (0, 0), "classic", 3)
    settings = rules.settings()
    for board, won, guesses, _ in bvp.play_ours((rules, [1, 2, 3, 4, 5, 6])):
        record = play_game(GameSettings(9, 9, 10, "best", True, (0, 0), "safe", 3), board - 1)
        assert (won, guesses) == (record.answer["won"], record.answer["guesses"])
        rng = np.random.default_rng([3, board - 1])
        flat = np.flatnonzero(np.arange(81) != 0)
        expected = np.zeros(81, dtype=bool)
        expected[rng.choice(flat, 10, replace=False)] = True  # the documented draw, spelled out
        assert np.array_equal(bvp.board_mines(settings, board), expected.reshape(9, 9))


def test_board_line_is_the_protocol() -> None:
    settings = settings_of(16, 30, 99, (3, 3), "modern")
    item = json.loads(bvp.board_line(settings, 4))
    assert set(item) == {"rows", "cols", "mines", "first"}
    assert (item["rows"], item["cols"], item["first"]) == (16, 30, [3, 3])
    assert item["mines"] == sorted(item["mines"]) and len(item["mines"]) == 99
    assert item["mines"] == np.argwhere(bvp.board_mines(settings, 4)).tolist()


# ---------------------------------------------------------------------------------------------- statistics


def test_paired_difference_by_hand() -> None:
    """(ours - peer) and its interval from the per-board differences, computed the long way."""
    diffs = [1, 1, 1, -1] + [0] * 16  # 20 boards: 3 won by ours only, 1 by the peer only
    pair = bvp.Paired(boards=20, both=6, ours_only=3, peer_only=1)
    mean = statistics.fmean(diffs)
    half = 1.959964 * math.sqrt(statistics.pvariance(diffs) / len(diffs))
    assert pair.difference == pytest.approx(mean) == pytest.approx(0.1)
    assert pair.half_width == pytest.approx(half)
    assert bvp.net_half_width(0, 0, 20) == 0.0 and bvp.net_half_width(1, 2, 0) == 0.0


def test_wilson_is_the_library_interval() -> None:
    low, high = bvp.wilson(41, 100)
    assert low < 0.41 < high and high - low == pytest.approx(0.19, abs=0.01)


# ---------------------------------------------------------------------------------------------- divergence


def board(rows: int, cols: int, mines: list[tuple[int, int]]) -> np.ndarray:
    out = np.zeros((rows, cols), dtype=bool)
    for cell in mines:
        out[cell] = True
    return out


def steps(*cells: tuple[tuple[int, int], bool | None]) -> list:
    return [bvp.Step(cell, guess) for cell, guess in cells]


# 2x3, one mine at (0,2); the first click (1,0) opens the left four cells; (0,2) and (1,2) are a 50/50.
FIFTY = board(2, 3, [(0, 2)])
# 3x3, mines at (0,1) and (2,2); the corner (0,0) shows 1: its three neighbours are 2/3 safe, the others 4/5.
CORNER = board(3, 3, [(0, 1), (2, 2)])
# 2x4, one mine at (0,2); after the click (1,0), (0,3) and (1,3) are certainly safe, then a 50/50 remains.
CERTAIN = board(2, 4, [(0, 2)])


def test_replay_lists_guesses_with_their_positions() -> None:
    guesses, won = bvp.replay(FIFTY, (1, 0), steps(((1, 2), True)))
    assert won and len(guesses) == 1 and guesses[0].cell == (1, 2)
    assert guesses[0].state.count(1) == 4  # the four cells the first click opened (CLEARED is 1)
    guesses, won = bvp.replay(FIFTY, (1, 0), steps(((0, 0), False), ((0, 2), True), ((1, 2), False)))
    assert not won and [guess.cell for guess in guesses] == [(0, 2)]  # a click on a cleared cell is skipped
    # an unlabelled click is judged by deduction: the certain cells are not guesses, the 50/50 is
    guesses, won = bvp.replay(CERTAIN, (1, 0), steps(((0, 3), None), ((1, 3), None), ((1, 2), None)))
    assert won and [guess.cell for guess in guesses] == [(1, 2)]


def test_divergence_fifty_fifty() -> None:
    kind, detail = bvp.first_divergence(FIFTY, (1, 0), steps(((1, 2), True)), steps(((0, 2), True)))
    assert kind == "fifty-fifty"
    assert detail["safety"] == {"ours": "1/2", "peer": "1/2"} and detail["cells"] == {"ours": [2, 3], "peer": [1, 3]}


def test_divergence_first_guess_and_unequal_safety() -> None:
    ours = steps(((0, 2), True))
    kind, detail = bvp.first_divergence(CORNER, (0, 0), ours, steps(((2, 0), True)))
    assert kind == "first-guess" and detail["safety"] == {"ours": "4/5", "peer": "4/5"}
    kind, detail = bvp.first_divergence(CORNER, (0, 0), ours, steps(((1, 1), True)))
    assert kind == "peer-less-safe" and detail["safety"] == {"ours": "4/5", "peer": "2/3"}
    kind, _ = bvp.first_divergence(CORNER, (0, 0), steps(((1, 0), True)), ours)
    assert kind == "peer-safer"
    exact = bvp.safeties(CORNER, bvp.replay(CORNER, (0, 0), ours)[0][0].state, [(0, 2), (1, 1)])
    assert exact == ([Fraction(4, 5), Fraction(2, 3)], True)


def test_divergence_positions_differ() -> None:
    ours = steps(((0, 3), False), ((1, 3), False), ((1, 2), True))
    kind, detail = bvp.first_divergence(CERTAIN, (1, 0), ours, steps(((1, 2), True)))
    assert kind == "positions-differ"
    assert detail["early"] == "peer" and detail["certain_left"] == 2
    assert detail["revealed"] == {"ours": 6, "peer": 4}
    # one list the other's beginning: the side with the extra guess guessed where the other had a certain move
    kind, detail = bvp.first_divergence(CERTAIN, (1, 0), steps(((0, 3), True)), steps(((0, 3), False)))
    assert kind == "positions-differ" and detail["extra_guess"] == "ours"


@pytest.mark.parametrize(
    ("revealed", "kind"),
    [
        (1, "equal-opening"),
        (19, "equal-opening"),
        (20, "equal-midgame"),
        (369, "equal-midgame"),
        (370, "equal-endgame"),
    ],
)
def test_stages_on_expert(revealed: int, kind: str) -> None:
    assert bvp.stage(revealed, 381) == kind


def test_peer_moves_read_by_the_protocol() -> None:
    got = bvp.peer_steps(
        [
            {"cell": [0, 0], "certain": True},
            {"cell": [1, 2], "act": "flag"},
            {"cell": [2, 3], "guess": True},
            {"cell": [4, 5]},
            {"cell": [6, 7], "act": "clear", "certain": False},
        ]
    )
    assert got == steps(((0, 0), False), ((2, 3), True), ((4, 5), None), ((6, 7), True))
    with pytest.raises(bvp.PeerFailed):
        bvp.peer_steps([{"cell": 3}])


# ---------------------------------------------------------------------------------------------- the store


def test_store_keeps_results_by_board(tmp_path: Path) -> None:
    store = bvp.Store(tmp_path / "s")
    rules = bvp.Rules(9, 9, 10, (0, 0), "classic", 0)
    store.adopt(rules)
    store.add_games("ours", [(1, True, 2, {}), (2, False, 1, {}), (4, True, 0, {})])
    store.add_games("ours", [(2, True, 9, {})])  # kept as it was
    store.add_games("peer", [(1, False, 1, {}), (2, True, 3, {"error": "looping"}), (3, True, 0, {})])
    assert store.missing("ours", 1, 5) == [3, 5]
    assert store.side_counts("ours") == (3, 2)
    assert store.paired() == bvp.Paired(boards=2, both=0, ours_only=1, peer_only=1)
    assert store.one_sided(10) == [(1, True), (2, False)]
    store.add_divergences([(1, "ours", "fifty-fifty", {})])
    assert store.one_sided(10) == [(2, False)]
    assert store.peer_errors() == 1
    store.close()
    again = bvp.Store(tmp_path / "s")
    assert again.rules() == rules
    with pytest.raises(bvp.Refused, match="holds boards of 9x9/10"):
        again.adopt(bvp.Rules(9, 9, 10, (0, 0), "classic", 1))
    again.set_meta("boards_check", "0" * 16)
    with pytest.raises(bvp.Refused, match="generator changed"):
        again.adopt(rules)


@pytest.mark.parametrize(("rule", "first"), [("classic", (0, 0)), ("classic", (4, 4)), ("modern", (4, 4))])
def test_the_split_by_the_first_number_adds_up(tmp_path: Path, rule: str, first: tuple[int, int]) -> None:
    store = bvp.Store(tmp_path / "s")
    rules = bvp.Rules(9, 9, 20, first, rule, 3)
    store.adopt(rules)
    rng = np.random.default_rng(5)
    outcomes = {k: (bool(rng.integers(2)), bool(rng.integers(2))) for k in range(1, 301)}
    store.add_games("ours", [(k, ours, 0, {}) for k, (ours, _) in outcomes.items()])
    store.add_games("peer", [(k, peer, 0, {}) for k, (_, peer) in outcomes.items() if k != 7])  # 7: ours only
    settings = rules.settings()
    expected: dict[int, list[int]] = {}
    for k, (ours, peer) in outcomes.items():
        if k == 7:
            continue
        mines = bvp.board_mines(settings, k)
        shown = sum(
            int(mines[r, c])
            for r in range(first[0] - 1, first[0] + 2)
            for c in range(first[1] - 1, first[1] + 2)
            if 0 <= r < 9 and 0 <= c < 9
        )
        part = expected.setdefault(shown, [0, 0, 0])
        part[0] += 1
        part[1] += ours and not peer
        part[2] += peer and not ours
    found = bvp.report(store, split_first=True)
    rows = found["by_first"]
    assert {row["shown"]: [row["boards"], row["ours"], row["peer"]] for row in rows} == expected
    if rule == "modern":
        assert [row["shown"] for row in rows] == [0]  # the first click's 3x3 holds no mine
    pair = found["paired"]
    assert sum(row["boards"] for row in rows) == pair["boards"] == 299
    assert sum(row["net"] for row in rows) == pytest.approx(pair["difference"])
    assert all(row["interval"][0] <= row["net"] <= row["interval"][1] for row in rows)
    assert "by_first" not in bvp.report(store)
    assert "by what the first click showed" in bvp.report_text(found)


def report_of(store: Path) -> dict:
    done = run("report", "--store", str(store), "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow  # whole runs, each a few processes
def test_a_run_end_to_end_resumes_and_adds_up(tmp_path: Path, peer: str) -> None:
    store = tmp_path / "store"
    first = run("run", "--store", str(store), *SMALL, "--boards", "10", "--chunk", "6", "--jobs", "1", "--peer", peer)
    assert first.returncode == 0, first.stderr
    assert "paired on 10 boards" in first.stdout
    # more boards: only the new ones are played, then the new one-sided games classified
    more = run("run", "--store", str(store), "--boards", "14", "--chunk", "6", "--jobs", "2", "--peer", peer)
    assert more.returncode == 0, more.stderr
    assert "boards 1-6" not in more.stderr and "boards 13-14: 2 played" in more.stderr
    found = report_of(store)
    assert found["boards"] == {"rows": 9, "cols": 9, "mines": 15, "first": [0, 0], "rule": "classic", "seed": 0}
    assert found["sides"]["ours"]["games"] == found["sides"]["peer"]["games"] == 14
    pair = found["paired"]
    one_sided = pair["ours_only"] + pair["peer_only"]
    assert one_sided > 0 and found["classified"] == one_sided and found["replay_differs"] == 0
    # the kinds split the one-sided games, and their nets add up to the paired difference
    assert sum(row["ours"] for row in found["divergence"]) == pair["ours_only"]
    assert sum(row["peer"] for row in found["divergence"]) == pair["peer_only"]
    assert sum(row["net"] for row in found["divergence"]) == pytest.approx(pair["difference"])
    split = run("report", "--store", str(store), "--by-first")
    assert split.returncode == 0, split.stderr
    assert "by what the first click showed (net over all 14 boards" in split.stdout
    # cpsolve's side is stats' games, whatever the chunks and the workers
    with sqlite3.connect(store / "store.sqlite") as db:
        ours = dict(db.execute("SELECT board, won FROM games WHERE side = 'ours'"))
        sources = {source for (source,) in db.execute("SELECT source FROM runs WHERE side = 'peer'")}
    settings = GameSettings(9, 9, 15, "best", True, (0, 0), "safe", 0)
    assert all(bool(ours[k]) == play_game(settings, k - 1).answer["won"] for k in range(1, 15))
    assert sources == {peer}
    # nothing left behind but the store and the peer's stderr
    assert sorted(path.name for path in store.iterdir() if not path.name.startswith("store.sqlite")) == [
        "peer-stderr.log"
    ]


@pytest.mark.slow  # whole runs, each a few processes
def test_a_peer_that_stops_keeps_what_it_finished(tmp_path: Path, peer: str) -> None:
    store = tmp_path / "store"
    broken = run(
        "run", "--store", str(store), *SMALL, "--boards", "6", "--side", "peer", "--peer", f"{peer} --stop-after 4"
    )
    assert broken.returncode == 1 and broken.stderr.strip().splitlines()[-1].startswith(
        "best_vs_peer.py: the peer exited with code 3"
    )
    assert report_of(store)["sides"]["peer"]["games"] == 4
    # the store remembers the command that played its peer games
    other = run("run", "--store", str(store), "--boards", "6", "--side", "peer", "--peer", peer)
    assert other.returncode == 2 and "give that command, or use another store" in other.stderr
    # the same command picks up where it stopped (here the --stop-after is past the two games left)
    again = run("run", "--store", str(store), "--boards", "6", "--side", "peer", "--peer", f"{peer} --stop-after 4")
    assert again.returncode == 0, again.stderr
    assert "boards 1-6: 2 played" in again.stderr and report_of(store)["sides"]["peer"]["games"] == 6


@pytest.mark.parametrize(
    ("option", "message"),
    [("--garbage", "a line that is not JSON"), ("--skip-last", "no line for line 3 of its file (board 3)")],
)
def test_a_peer_that_breaks_the_protocol(tmp_path: Path, peer: str, option: str, message: str) -> None:
    done = run(
        "run", "--store", str(tmp_path / "s"), *SMALL, "--boards", "3", "--side", "peer", "--peer", f"{peer} {option}"
    )
    assert done.returncode == 1
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not list((tmp_path / "s").glob("boards-*"))


@pytest.mark.slow  # whole runs, each a few processes
def test_divergence_skips_flags_and_notices_a_replay_that_differs(tmp_path: Path, peer: str) -> None:
    played = tmp_path / "played"
    args = ["run", "--store", str(played), *SMALL, "--boards", "12", "--jobs", "1", "--peer", peer]
    assert run(*args, "--no-divergence").returncode == 0

    def diverge(name: str, moves: str) -> tuple[subprocess.CompletedProcess, Path]:
        """The one-sided games of the played store classified in a copy of it, with this moves command."""
        store = tmp_path / name
        shutil.copytree(played, store)
        return run("run", "--store", str(store), "--boards", "12", "--jobs", "1", "--peer-moves", moves), store

    done, store = diverge("flags", f"{peer} --moves --flags")
    assert done.returncode == 0, done.stderr
    found = report_of(store)
    one_sided = found["paired"]["ours_only"] + found["paired"]["peer_only"]
    assert one_sided > 0 and found["classified"] == one_sided and found["replay_differs"] == 0
    # a peer whose second game on a board is another one: those games are counted apart, not classified
    done, store = diverge("lie", f"{peer} --moves --lie")
    assert done.returncode == 0, done.stderr
    found = report_of(store)
    assert found["replay_differs"] == found["classified"] == one_sided
    assert all(row["ours"] == row["peer"] == 0 for row in found["divergence"])
    assert "ended otherwise in" in done.stdout
    # the protocol holds for the moves run too: a board left out is an error
    done, _ = diverge("skip", f"{peer} --moves --skip-last")
    assert done.returncode == 1 and "no line for line" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--boards", "0"],
        ["run", "--boards", "5", "--first", "0,3"],
        ["run", "--boards", "5", "--first", "x"],
        ["run", "--boards", "5", "--size", "3", "3", "9"],
        ["run", "--boards", "5", "--rule", "zero"],
        ["run", "--boards", "5", "--side", "peer"],
        ["run", "--boards", "5", "--peer", "'unclosed"],
        ["run", "--boards", "5", "--seed", "-1"],
        ["run", "--boards", "5", "--wat"],
        ["report"],
    ],
)
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    done = run(*args, "--store", str(tmp_path / "s"))
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("best_vs_peer.py: ")
    assert done.stdout == ""


def test_the_store_stays_outside_the_repository() -> None:
    inside = SCRIPT.parent.parent / "benchmarks" / "out" / "peer-store"
    done = run("run", "--store", str(inside), "--boards", "1", "--side", "ours")
    assert done.returncode == 2 and "outside the repository" in done.stderr
    assert not inside.exists()


def test_boards_command_prints_the_peer_file(tmp_path: Path, peer: str) -> None:
    store = tmp_path / "s"
    assert run("run", "--store", str(store), *SMALL, "--boards", "2", "--side", "ours", "--jobs", "1").returncode == 0
    done = run("boards", "--store", str(store), "--from", "2", "--to", "3")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    settings = settings_of(9, 9, 15, (0, 0), "classic")
    assert lines == [bvp.board_line(settings, 2), bvp.board_line(settings, 3)]


@pytest.mark.slow  # whole runs, each a few processes
def test_forget_and_a_player_that_changed(tmp_path: Path, peer: str) -> None:
    store = tmp_path / "s"
    args = ["run", "--store", str(store), "--boards", "12", "--jobs", "1"]
    assert run(*args, *SMALL, "--peer", peer, "--no-divergence").returncode == 0
    # a stored game the player no longer plays: the replay with moves says so, in one line
    db = sqlite3.connect(store / "store.sqlite")
    with db:
        (board,) = db.execute(
            "SELECT o.board FROM games o JOIN games p ON p.board = o.board AND p.side = 'peer'"
            " WHERE o.side = 'ours' AND o.won AND p.won"
        ).fetchone()
        db.execute("UPDATE games SET won = 0 WHERE side = 'ours' AND board = ?", (board,))
    db.close()
    done = run(*args)  # the store's peer command
    assert done.returncode == 1 and f"on board {board} ends otherwise" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 + done.stderr.count("ours: ") + done.stderr.count("peer: ")
    # forgotten and played again (the peer's results kept), the divergence goes through
    assert run("forget", "--store", str(store), "--side", "ours").returncode == 0
    found = report_of(store)
    assert (found["sides"]["ours"]["games"], found["sides"]["peer"]["games"], found["classified"]) == (0, 12, 0)
    done = run(*args)
    assert done.returncode == 0, done.stderr
    found = report_of(store)
    assert found["classified"] == found["paired"]["ours_only"] + found["paired"]["peer_only"] > 0


@pytest.mark.slow  # a process stopped midway
def test_sigterm_keeps_the_finished_games_and_ends_the_peer(tmp_path: Path, peer: str) -> None:
    store = tmp_path / "s"
    args = [sys.executable, str(SCRIPT), "run", "--store", str(store), *SMALL, "--boards", "5", "--side", "peer"]
    process = subprocess.Popen([*args, "--peer", f"{peer} --slow"], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(store.glob("*.asleep")):
        time.sleep(0.1)
    time.sleep(0.5)  # the two games' lines read by the script
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130 and "interrupted" in stderr
    assert report_of(store)["sides"]["peer"]["games"] == 2
    assert not list(store.glob("boards-*.jsonl"))
