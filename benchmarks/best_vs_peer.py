"""cpsolve's best player and another solver (the *peer*) on the same boards: both win rates, the paired
difference, and where the two first part in the games only one of them won.

Boards. Board k (1-based) of a store is game k - 1 of ``cpsolve stats --random R C M --player best --first
ROW,COL --start RULE --seed S`` (:func:`cpsolve.generate.play_game`): its mines are
``cpsolve.generate.draw_board(settings, numpy.random.default_rng([S, k - 1]))``, which draws M distinct cells
with ``rng.choice(cells, M, replace=False)`` from the cells the rule leaves for mines, listed in row-major order
(classic, ``--start safe``: every cell but the first click; modern, ``--start opening``: every cell outside the
first click's 3x3). cpsolve's side plays it exactly as ``stats`` does (the player's ties from
``default_rng([S, k - 1, 1])``), so its results repeat game for game, and its rate over boards 1..n is the rate
``stats --games n`` prints. The store keeps a fingerprint of the first boards and refuses to go on if the
generator now deals others (numpy does not promise its streams across versions).

The peer protocol. The peer is a command (``--peer``; ``{boards}`` in it is replaced by a file's path, which is
otherwise added as the last argument; it runs without a shell). The file holds boards, one JSON object a line::

    {"rows": 16, "cols": 30, "mines": [[0, 5], [0, 9], ...], "first": [0, 0]}

(0-based cells, the mines in row-major order; ``first`` is the first click, safe under the rule, and a zero
under the modern rule). The command plays each board from that first click, knowing the number of mines, and
writes one JSON object a line on stdout: ``{"board": j, "won": true|false, ...}``, j the board's 1-based line
in the file, in any order; other keys are kept (``guesses``, times, an ``error``); anything else on stdout is an
error (chatter goes to stderr). For the divergence analysis the same command with ``--moves`` added (or
``--peer-moves``) adds ``"moves"``: every click in order as ``{"cell": [row, col], "certain": true|false}``
(0-based; ``"guess"`` may replace ``"certain"``; without either, each click is judged by exact deduction; a move
whose ``"act"`` is not ``"clear"``, such as a flag, is skipped). The peer must be deterministic: a board replayed
with moves must end as it did (a game that does not is counted apart, not classified). Its parallelism is its
own (``--jobs`` is cpsolve's): one peer process runs at a time, on a chunk of boards.

Store. A directory (``--store``, outside the repository) holding ``store.sqlite``: the boards' settings, each
side's result by board number, each chunk's provenance (cpsolve's version and commit, or the peer's command,
and its wall time) and the divergence of each one-sided game. Boards are played in chunks of ``--chunk`` boards,
each committed when done, so an interrupted run goes on where it stopped (the peer's finished games are kept
even when it fails mid-chunk) and 10^6 boards never sit in memory. The store remembers the peer's command and
refuses another for the same results; ``forget --side ours`` drops cpsolve's results (and the divergences) so
a new version of the player plays the same boards against the peer's results. The peer's boards files are
written in the store and removed after use; its stderr is appended to ``peer-stderr.log`` there.

Divergence (after ``run --side both``). Only the boards one side won are replayed, cpsolve's side with its moves
recorded and the peer with ``--moves``. Each side's clicks are replayed on the board with the game core, and its
guesses listed with the position before each. The first index where the two lists differ is where they part: in
different positions (one side guessed while the other still had certain moves; also when one list is the
other's beginning), or in the same position with different cells, judged by each cell's exact safety in that
position (:func:`cpsolve.deduce.analyse` with the total, exact fractions): the peer's cell strictly less safe,
or safer; else equally safe, and then a 50/50 when both are 1/2, the first guess after a first click that showed
a number, or by the share of the safe cells revealed (the opening under 5%, the endgame from 97%, the midgame
between). Each kind's net is (won by ours - won by the peer) / paired boards, in points of win rate, with its
95% interval; the nets add up to the paired difference.

By the first click (``report --by-first``). The paired boards split by the number their first click shows (the
board fixes it before either side moves): each part's net, over all paired boards, says whether the difference
lies in the games that open with a guess (a number) or in those that open a region (0).

Usage:
    python benchmarks/best_vs_peer.py run --store DIR --boards N [--peer 'CMD {boards}'] [--side both|ours|peer]
        [--rule classic|modern] [--size R C M] [--first ROW,COL] [--seed S] [--jobs J] [--chunk K]
        [--peer-moves CMD] [--no-divergence] [--json]
    python benchmarks/best_vs_peer.py report --store DIR [--by-first] [--json]
    python benchmarks/best_vs_peer.py forget --store DIR --side ours|peer
    python benchmarks/best_vs_peer.py boards --store DIR --to K [--from K]    (the boards a peer reads, to stdout)

The boards' options are needed only when a store is made; later runs take the store's (and its peer command).

Exit codes: 0 done; 1 the peer failed or wrote what the protocol does not allow (one line on stderr); 2 a bad
option (one line); 130 interrupted (the chunks finished are kept).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from fractions import Fraction
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
#: The two sides, as the store names them.
OURS, PEER = "ours", "peer"
#: z for a two-sided 95% interval.
Z95 = 1.959964
#: Boards per task given to a worker: enough to make a task's overhead noise, few enough to balance the workers.
TASK = 50
#: The stages of a game by the share of its safe cells revealed: under OPENING is the opening, from ENDGAME on
#: the endgame (on expert, 381 safe cells: the opening up to 19 revealed, the endgame from 370).
OPENING, ENDGAME = 0.05, 0.97
#: Boards whose fingerprint the store keeps.
CHECKED_BOARDS = 3
#: Seconds the exact safety of a position may take before the doubles of the fast engine judge it instead.
EXACT_SECONDS = 60.0

#: The kinds of first divergence, in the report's order, and what each means.
KINDS: dict[str, str] = {
    "first-guess": "first guess after the first click shows a number, cells equally safe",
    "equal-opening": f"equal safety, later in the opening (under {OPENING:.0%} of safe cells revealed)",
    "equal-midgame": "equal safety, midgame",
    "equal-endgame": f"equal safety, endgame ({ENDGAME:.0%} or more revealed)",
    "fifty-fifty": "the cell of a 50/50 (both cells exactly 1/2 safe)",
    "peer-less-safe": "the peer takes a strictly less safe cell",
    "peer-safer": "the peer's cell safer",
    "positions-differ": "positions differ (one side guessed while the other still had certain moves)",
}
#: Not a kind of the table: the peer's replay with moves did not end as its first game did.
REPLAY_DIFFERS = "replay-differs"


class Refused(Exception):
    """A usage error: one line, exit 2."""


class PeerFailed(Exception):
    """The peer failed or broke the protocol: one line, exit 1."""


class PlayerChanged(Exception):
    """cpsolve's game on a board, played again with its moves, did not end as the stored one: exit 1."""

    def __str__(self) -> str:
        return (
            f"cpsolve's game on board {self.args[0]} ends otherwise than the stored one: the player changed since"
            " (forget --side ours, then play its side again)"
        )


# ---------------------------------------------------------------------------------------------- boards


@dataclass(frozen=True)
class Rules:
    """What defines the boards of a store, apart from their numbers.

    Attributes:
        rows: Board height.
        cols: Board width.
        mines: Mines on each board.
        first: The 0-based first click.
        rule: ``classic`` (the first click is safe) or ``modern`` (its 3x3 holds no mine).
        seed: Board k comes from ``default_rng([seed, k - 1])``.
    """

    rows: int
    cols: int
    mines: int
    first: tuple[int, int]
    rule: str
    seed: int

    def settings(self) -> Any:
        """The :class:`cpsolve.generate.GameSettings` of ``cpsolve stats --player best`` for these boards.

        Raises:
            Refused: Settings no board can have (mines that do not fit, a first click off the board).
        """
        from cpsolve.errors import InputError
        from cpsolve.generate import GameSettings

        start = "safe" if self.rule == "classic" else "opening"
        settings = GameSettings(self.rows, self.cols, self.mines, "best", True, self.first, start, self.seed)
        try:
            return settings.check()
        except InputError as error:
            raise Refused(str(error)) from None

    def label(self) -> str:
        """The boards in words: size, rule, first click (1-based), seed."""
        row, col = self.first
        return (
            f"{self.rows}x{self.cols}/{self.mines}, {self.rule} rule, first click {row + 1},{col + 1}, seed {self.seed}"
        )


def default_first(rows: int, cols: int, rule: str) -> tuple[int, int]:
    """The standard first click (0-based): the corner under the classic rule; under the modern rule 4,4
    (1-based) on expert 16x30 and 3,3 on other boards, clamped to the board."""
    if rule == "classic":
        return (0, 0)
    step = 3 if (rows, cols) == (16, 30) else 2
    return (min(step, rows - 1), min(step, cols - 1))


def board_mines(settings: Any, board: int) -> np.ndarray:
    """Board `board`'s mines (1-based number): the board of ``stats`` game ``board - 1``."""
    from cpsolve.generate import draw_board

    return draw_board(settings, np.random.default_rng([settings.seed, board - 1]))


def board_line(settings: Any, board: int) -> str:
    """Board `board` as a line of the peer's boards file (no newline)."""
    mines = board_mines(settings, board)
    row, col = settings.click
    cells = np.argwhere(mines).tolist()
    return json.dumps(
        {"rows": settings.rows, "cols": settings.cols, "mines": cells, "first": [row, col]}, separators=(",", ":")
    )


def boards_check(rules: Rules) -> str:
    """A fingerprint of the first boards, kept in the store to notice a generator that changed."""
    settings = rules.settings()
    lines = "\n".join(board_line(settings, board) for board in range(1, CHECKED_BOARDS + 1))
    return hashlib.sha256(lines.encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class Paired:
    """Two sides on the same boards.

    Attributes:
        boards: Boards both sides played.
        both: Won by both.
        ours_only: Won by ours alone.
        peer_only: Won by the peer alone.
    """

    boards: int
    both: int
    ours_only: int
    peer_only: int

    @property
    def difference(self) -> float:
        """Ours minus the peer's rate, a fraction."""
        return (self.ours_only - self.peer_only) / self.boards if self.boards else 0.0

    @property
    def half_width(self) -> float:
        """The 95% half-width of the difference (normal, from the per-board differences)."""
        return net_half_width(self.ours_only, self.peer_only, self.boards)


def net_half_width(ours: int, peer: int, boards: int) -> float:
    """The 95% half-width of (ours - peer) / boards, where each board gives +1 (won by ours only), -1 (the
    peer only) or 0.

    The per-board differences' variance over `boards` is (ours + peer) / n - ((ours - peer) / n)^2; the standard
    error of their mean is the square root of that variance over n (the plug-in variance, as ``best_paired.py``
    uses).
    """
    if boards == 0:
        return 0.0
    spread = ours + peer - (ours - peer) ** 2 / boards
    return Z95 * math.sqrt(max(spread, 0.0)) / boards


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a rate (the library's, as ``cpsolve stats`` prints it)."""
    from cpsolve.generate import wilson_interval

    return wilson_interval(wins, games)


# ---------------------------------------------------------------------------------------------- store


class Store:
    """Results by board number in SQLite, in a directory of their own.

    Args:
        folder: The store's directory (made when missing).
    """

    FILE = "store.sqlite"

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        # WAL and a long timeout: the peer's run and cpsolve's may write to one store at once
        self.db = sqlite3.connect(folder / self.FILE, timeout=300)
        self.db.execute("PRAGMA journal_mode=WAL")
        with self.db:
            self.db.executescript(
                """
                CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS games(side TEXT NOT NULL, board INTEGER NOT NULL, won INTEGER NOT NULL,
                    guesses INTEGER, info TEXT, PRIMARY KEY (side, board)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS runs(side TEXT NOT NULL, boards INTEGER NOT NULL, first INTEGER,
                    last INTEGER, started TEXT NOT NULL, seconds REAL NOT NULL, source TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS divergence(board INTEGER PRIMARY KEY, winner TEXT NOT NULL,
                    kind TEXT NOT NULL, detail TEXT);
                """
            )

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def meta(self, key: str) -> str | None:
        """A stored setting, or None."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key: str, value: str) -> None:
        """Store a setting."""
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def rules(self) -> Rules | None:
        """The boards' settings, or None in a new store."""
        text = self.meta("rules")
        if text is None:
            return None
        fields = json.loads(text)
        return Rules(**{**fields, "first": tuple(fields["first"])})

    def adopt(self, rules: Rules) -> None:
        """Keep `rules` in a new store; refuse other rules than a store's own, or a generator that now deals
        other boards from them (numpy's streams are not promised to stay the same across its versions).

        Raises:
            Refused: The store holds boards of other settings, or other boards.
        """
        stored = self.rules()
        check = boards_check(rules)
        if stored is None:
            self.set_meta("rules", json.dumps(asdict(rules)))
            self.set_meta("boards_check", check)
            self.set_meta("numpy", np.__version__)
        elif stored != rules:
            raise Refused(f"the store holds boards of {stored.label()}, not {rules.label()}")
        elif self.meta("boards_check") != check:
            raise Refused(
                f"boards 1-{CHECKED_BOARDS} are not the store's: the generator changed"
                f" (numpy {self.meta('numpy')} made the store, {np.__version__} runs now)"
            )

    def missing(self, side: str, low: int, high: int) -> list[int]:
        """Boards low..high (inclusive) `side` has no result for."""
        done = {
            board
            for (board,) in self.db.execute(
                "SELECT board FROM games WHERE side = ? AND board BETWEEN ? AND ?", (side, low, high)
            )
        }
        return [board for board in range(low, high + 1) if board not in done]

    def add_games(self, side: str, games: Iterable[tuple[int, bool, int | None, dict]]) -> None:
        """Keep results (board, won, guesses, other fields); a board already kept is kept as it was."""
        with self.db:
            self.db.executemany(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?)",
                [(side, board, int(won), guesses, json.dumps(info)) for board, won, guesses, info in games],
            )

    def add_run(self, side: str, boards: Sequence[int], started: str, seconds: float, source: str) -> None:
        """Keep where a chunk of results came from and how long it took."""
        with self.db:
            self.db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
                (side, len(boards), min(boards), max(boards), started, seconds, source),
            )

    def side_counts(self, side: str) -> tuple[int, int]:
        """Games stored and won by `side`."""
        games, won = self.db.execute(
            "SELECT COUNT(*), COALESCE(SUM(won), 0) FROM games WHERE side = ?", (side,)
        ).fetchone()
        return games, won

    def paired(self) -> Paired:
        """The boards both sides played, and who won them."""
        row = self.db.execute(
            "SELECT COUNT(*), COALESCE(SUM(o.won AND p.won), 0), COALESCE(SUM(o.won AND NOT p.won), 0),"
            " COALESCE(SUM(p.won AND NOT o.won), 0) FROM games o JOIN games p ON p.board = o.board"
            " WHERE o.side = ? AND p.side = ?",
            (OURS, PEER),
        ).fetchone()
        return Paired(*row)

    def outcomes(self) -> Iterator[tuple[int, bool, bool]]:
        """The boards both sides played, in order: (board, won by ours, won by the peer)."""
        rows = self.db.execute(
            "SELECT o.board, o.won, p.won FROM games o JOIN games p ON p.board = o.board"
            " WHERE o.side = ? AND p.side = ? ORDER BY o.board",
            (OURS, PEER),
        )
        return ((board, bool(ours), bool(peer)) for board, ours, peer in rows)

    def one_sided(self, limit: int) -> list[tuple[int, bool]]:
        """Up to `limit` boards won by one side only and not yet classified: (board, ours won)."""
        rows = self.db.execute(
            "SELECT o.board, o.won FROM games o JOIN games p ON p.board = o.board AND p.side = ?"
            " WHERE o.side = ? AND o.won != p.won AND o.board NOT IN (SELECT board FROM divergence)"
            " ORDER BY o.board LIMIT ?",
            (PEER, OURS, limit),
        )
        return [(board, bool(won)) for board, won in rows]

    def add_divergences(self, rows: Iterable[tuple[int, str, str, dict]]) -> None:
        """Keep how one-sided games parted: (board, winner, kind, detail)."""
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO divergence VALUES (?, ?, ?, ?)",
                [(board, winner, kind, json.dumps(detail)) for board, winner, kind, detail in rows],
            )

    def forget(self, side: str) -> int:
        """Drop a side's results, its runs and every divergence (each needs both sides); the games dropped."""
        with self.db:
            dropped = self.db.execute("DELETE FROM games WHERE side = ?", (side,)).rowcount
            self.db.execute("DELETE FROM runs WHERE side = ?", (side,))
            self.db.execute("DELETE FROM divergence")
            if side == PEER:
                self.db.execute("DELETE FROM meta WHERE key = 'peer'")
        return dropped

    def divergence_counts(self) -> dict[str, dict[str, int]]:
        """Classified one-sided games by kind and winner."""
        counts: dict[str, dict[str, int]] = {}
        for kind, winner, count in self.db.execute(
            "SELECT kind, winner, COUNT(*) FROM divergence GROUP BY kind, winner"
        ):
            counts.setdefault(kind, {OURS: 0, PEER: 0})[winner] = count
        return counts

    def inexact(self) -> int:
        """Divergences judged by the fast engine's doubles (the exact count ran out of time)."""
        (count,) = self.db.execute(
            "SELECT COUNT(*) FROM divergence WHERE json_extract(detail, '$.exact') = 0"
        ).fetchone()
        return count

    def runs(self) -> list[tuple[str, int, float, str]]:
        """Per side and source: boards played and seconds taken."""
        return list(
            self.db.execute(
                "SELECT side, SUM(boards), SUM(seconds), source FROM runs GROUP BY side, source ORDER BY side"
            )
        )

    def peer_errors(self) -> int:
        """Peer games whose line carried an error."""
        (count,) = self.db.execute(
            "SELECT COUNT(*) FROM games WHERE side = ? AND json_extract(info, '$.error') IS NOT NULL", (PEER,)
        ).fetchone()
        return count


# ---------------------------------------------------------------------------------------------- ours


def cpsolve_source() -> str:
    """cpsolve's version and commit (with ``-dirty`` when its sources differ from it): which player played."""
    import cpsolve

    package = Path(cpsolve.__file__).resolve().parent
    version = getattr(cpsolve, "__version__", "?")
    try:
        commit = subprocess.run(
            ["git", "-C", str(package), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(package), "status", "--porcelain", "--", "."], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"cpsolve {version}"
    return f"cpsolve {version} {commit}{'-dirty' if dirty else ''}"


def play_ours(task: tuple[Rules, list[int]]) -> list[tuple[int, bool, int, dict]]:
    """cpsolve's games on boards (a worker's task): (board, won, guesses, {"seconds", "cleared"}) each."""
    from cpsolve.generate import play_game

    rules, boards = task
    settings = rules.settings()
    out = []
    for board in boards:
        record = play_game(settings, board - 1)
        answer = record.answer
        out.append(
            (
                board,
                bool(answer["won"]),
                int(answer["guesses"]),
                {"seconds": round(record.seconds, 5), "cleared": answer["cleared"]},
            )
        )
    return out


def tasks(rules: Rules, boards: Sequence[int], size: int = TASK) -> list[tuple[Rules, list[int]]]:
    """Boards cut into workers' tasks."""
    return [(rules, list(boards[i : i + size])) for i in range(0, len(boards), size)]


# ---------------------------------------------------------------------------------------------- peer


def peer_argv(template: str, path: Path) -> list[str]:
    """The peer's command for a boards file: ``{boards}`` replaced by its path, or the path added last.

    Raises:
        Refused: An empty command, or one the shell's quoting rules cannot split.
    """
    try:
        words = shlex.split(template)
    except ValueError as error:
        raise Refused(f"--peer: {error}") from None
    if not words:
        raise Refused("--peer: an empty command")
    if any("{boards}" in word for word in words):
        return [word.replace("{boards}", str(path)) for word in words]
    return [*words, str(path)]


def parse_peer_line(line: str, count: int) -> dict | None:
    """One line of the peer's output as its JSON object (None for a blank line).

    Raises:
        PeerFailed: A line that is not a JSON object with an integer "board" in 1..count and a boolean "won".
    """
    if not line.strip():
        return None
    try:
        item = json.loads(line)
    except json.JSONDecodeError:
        raise PeerFailed(f"the peer wrote a line that is not JSON: {line[:80]!r}") from None
    if not isinstance(item, dict):
        raise PeerFailed(f"the peer wrote a line that is not a JSON object: {line[:80]!r}")
    board, won = item.get("board"), item.get("won")
    if not isinstance(board, int) or isinstance(board, bool) or not 1 <= board <= count:
        raise PeerFailed(f"the peer's line has no board number between 1 and {count}: {line[:80]!r}")
    if not isinstance(won, bool):
        raise PeerFailed(f'the peer\'s line for board {board} has no true or false "won"')
    return item


def run_peer(template: str, settings: Any, boards: Sequence[int], folder: Path) -> Iterator[tuple[int, dict]]:
    """Play boards with the peer: (board, its JSON object) for each, as the peer writes them.

    The boards file and the peer process live only while this runs; the peer's stderr is appended to
    ``peer-stderr.log`` in `folder`.

    Raises:
        PeerFailed: The peer could not start, exited with an error, broke the protocol or left boards out.
    """
    path = folder / f"boards-{os.getpid()}-{boards[0]}.jsonl"
    try:
        with path.open("w") as out:
            for board in boards:
                out.write(board_line(settings, board) + "\n")
        argv = peer_argv(template, path)
        seen: set[int] = set()
        with (folder / "peer-stderr.log").open("a") as log:
            try:
                process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, text=True)
            except OSError as error:
                raise PeerFailed(f"the peer did not start: {error}") from None
            try:
                assert process.stdout is not None
                for line in process.stdout:
                    item = parse_peer_line(line, len(boards))
                    if item is None:
                        continue
                    if item["board"] in seen:
                        raise PeerFailed(f"the peer wrote board {item['board']} twice")
                    seen.add(item["board"])
                    yield boards[item["board"] - 1], item
                code = process.wait()
            finally:
                if process.poll() is None:  # stopped early (an error here, an interrupt): end the peer we started
                    process.kill()
                    process.wait()
        if code != 0:
            raise PeerFailed(f"the peer exited with code {code} (its stderr: {folder / 'peer-stderr.log'})")
        if len(seen) < len(boards):
            lacking = min(set(range(1, len(boards) + 1)) - seen)
            raise PeerFailed(f"the peer wrote no line for line {lacking} of its file (board {boards[lacking - 1]})")
    finally:
        path.unlink(missing_ok=True)


def peer_result(board: int, item: dict) -> tuple[int, bool, int | None, dict]:
    """A peer's line as a stored result."""
    guesses = item.get("guesses")
    info = {key: value for key, value in item.items() if key not in ("board", "won", "guesses", "moves")}
    return board, item["won"], guesses if isinstance(guesses, int) else None, info


# ---------------------------------------------------------------------------------------------- divergence


@dataclass(frozen=True)
class Step:
    """One click of a game.

    Attributes:
        cell: The 0-based cell clicked.
        guess: Whether the player guessed (None: not said; judged by exact deduction on replay).
    """

    cell: tuple[int, int]
    guess: bool | None


@dataclass(frozen=True)
class Guess:
    """A guess of a replayed game.

    Attributes:
        state: The cells' states before it (:mod:`cpsolve.cell_states`, the game core's flat layout).
        cell: The cell guessed.
    """

    state: bytes
    cell: tuple[int, int]


def peer_steps(moves: list) -> list[Step]:
    """The peer's clicks from its ``moves`` (protocol in the module's docstring).

    Raises:
        PeerFailed: A move without a cell.
    """
    steps = []
    for move in moves:
        if not isinstance(move, dict) or not isinstance(move.get("cell"), list) or len(move["cell"]) != 2:
            raise PeerFailed(f"a peer move without a [row, col] cell: {str(move)[:80]}")
        if move.get("act", "clear") != "clear":
            continue
        guess = (not move["certain"]) if "certain" in move else move.get("guess")
        steps.append(Step((int(move["cell"][0]), int(move["cell"][1])), None if guess is None else bool(guess)))
    return steps


def our_steps(moves: list) -> list[Step]:
    """cpsolve's clicks from a game played with ``record_moves=True`` (the first click left out)."""
    return [Step(tuple(move.cell), move.kind == "guess") for move in moves if move.kind != "first"]


def replay(mines: np.ndarray, first: tuple[int, int], steps: Sequence[Step]) -> tuple[list[Guess], bool]:
    """Play clicks on a board with the game core: the guesses with the position before each, and whether the
    game was won. A click on a cell already cleared changes nothing and is skipped; the game ends at a mine."""
    from cpsolve.cell_states import COVERED
    from cpsolve.play.core import GameState
    from cpsolve.play.tables import BoardTables

    game = GameState(BoardTables.build(mines, np.ones(mines.shape, dtype=bool)))
    index = game.tables.grid.index
    game.reveal(index(*first))
    guesses = []
    for step in steps:
        at = index(*step.cell)
        if game.state[at] != COVERED:
            continue
        guess = step.guess if step.guess is not None else not certainly_safe(game, step.cell)
        if guess:
            guesses.append(Guess(bytes(game.state), step.cell))
        if game.reveal(at) is None or game.won:
            break
    return guesses, game.won


def certainly_safe(game: Any, cell: tuple[int, int]) -> bool:
    """Whether `cell` is safe in every placement the game's view (with the total) allows."""
    from cpsolve.deduce import analyse

    found = analyse(game.view(), backbone=True)
    return found.surely_safe is not None and cell in found.surely_safe


def certain_count(mines: np.ndarray, state: bytes) -> int:
    """Covered cells safe in every placement the position `state` shows allows (with the total)."""
    from cpsolve.deduce import analyse

    found = analyse(position_view(mines, state), backbone=True)
    return len(found.surely_safe or ())


def position_view(mines: np.ndarray, state: bytes) -> Any:
    """The view (with the total) of a position a replay passed through: the cells' states over the board."""
    from cpsolve.play.core import GameState
    from cpsolve.play.tables import BoardTables

    game = GameState(BoardTables.build(mines, np.ones(mines.shape, dtype=bool)))
    game.state = bytearray(state)
    return game.view()


def safeties(mines: np.ndarray, state: bytes, cells: Sequence[tuple[int, int]]) -> tuple[list[Fraction | float], bool]:
    """Each cell's chance of being safe in the position `state` shows (with the total): exact fractions, or the
    fast engine's doubles when the exact count takes longer than EXACT_SECONDS (then the flag is False)."""
    from cpsolve.deduce import analyse
    from cpsolve.outcome import Status

    view = position_view(mines, state)
    found = analyse(view, probabilities=True, exact=True, deadline=time.perf_counter() + EXACT_SECONDS)
    exact = found.status is Status.POSSIBLE
    if not exact:
        found = analyse(view, probabilities=True)
    assert found.probabilities is not None
    return [1 - found.probabilities[cell] for cell in cells], exact


def equal(a: Fraction | float, b: Fraction | float) -> bool:
    """Equal safeties: exactly, or within rounding when the doubles judged."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a == b
    return abs(float(a) - float(b)) < 1e-9


def first_divergence(
    mines: np.ndarray, first: tuple[int, int], ours: Sequence[Step], peer: Sequence[Step]
) -> tuple[str, dict]:
    """Where two games on one board first part: the kind (a key of KINDS) and the details.

    Args:
        mines: The board.
        first: The first click both made.
        ours: cpsolve's clicks after the first.
        peer: The peer's clicks after the first.
    """
    from cpsolve.cell_states import CLEARED

    our_guesses, _ = replay(mines, first, ours)
    peer_guesses, _ = replay(mines, first, peer)
    shared = 0
    while shared < min(len(our_guesses), len(peer_guesses)) and our_guesses[shared] == peer_guesses[shared]:
        shared += 1
    detail: dict[str, Any] = {"guess": shared + 1}
    if shared == min(len(our_guesses), len(peer_guesses)):
        # one list is the other's beginning: the longer side guessed once more where the other had certain moves
        detail["extra_guess"] = OURS if len(our_guesses) > len(peer_guesses) else PEER
        return "positions-differ", detail
    ours_at, peer_at = our_guesses[shared], peer_guesses[shared]
    revealed = ours_at.state.count(CLEARED)
    if ours_at.state != peer_at.state:
        detail["revealed"] = {OURS: revealed, PEER: peer_at.state.count(CLEARED)}
        # the side that saw less guessed first; how many cells were certainly safe where it guessed says why
        seen = detail["revealed"]
        for side, at in ((OURS, ours_at), (PEER, peer_at)):
            if seen[side] < max(seen.values()):
                detail["early"] = side
                detail["certain_left"] = certain_count(mines, at.state)
        return "positions-differ", detail
    (ours_safe, peer_safe), exact = safeties(mines, ours_at.state, [ours_at.cell, peer_at.cell])
    detail.update(
        revealed=revealed,
        cells={OURS: [ours_at.cell[0] + 1, ours_at.cell[1] + 1], PEER: [peer_at.cell[0] + 1, peer_at.cell[1] + 1]},
        safety={OURS: str(ours_safe), PEER: str(peer_safe)},
    )
    if not exact:
        detail["exact"] = False
    if not equal(ours_safe, peer_safe):
        return ("peer-less-safe" if peer_safe < ours_safe else "peer-safer"), detail
    if equal(ours_safe, Fraction(1, 2)):
        return "fifty-fifty", detail
    if shared == 0 and revealed == 1:  # nothing but the first click, which showed a number
        return "first-guess", detail
    return stage(revealed, mines.size - int(mines.sum())), detail


def stage(revealed: int, safe_total: int) -> str:
    """The kind of an equal-safety divergence by the share of the safe cells revealed (OPENING, ENDGAME)."""
    share = revealed / safe_total
    return "equal-opening" if share < OPENING else "equal-endgame" if share >= ENDGAME else "equal-midgame"


def classify(task: tuple[Rules, int, bool, bool, list[Step]]) -> tuple[int, str, str, dict]:
    """One one-sided game (a worker's task): (board, winner, kind, detail).

    The task holds the rules, the board, whether ours won it, whether the peer's replay with moves says it
    won, and the peer's clicks.
    """
    from cpsolve.play.best_games import play_best

    rules, board, ours_won, peer_said, steps = task
    settings = rules.settings()
    winner = OURS if ours_won else PEER
    mines = board_mines(settings, board)
    game = play_best(mines, settings.click, np.random.default_rng([settings.seed, board - 1, 1]), record_moves=True)
    if game.won != ours_won:  # the same player plays the same game: this one is not the one stored
        raise PlayerChanged(board)
    _, peer_won = replay(mines, settings.click, steps)
    if peer_said == ours_won or peer_won != peer_said:  # the peer's second game is not the one stored
        return board, winner, REPLAY_DIFFERS, {"peer_won": peer_said, "moves_won": peer_won}
    assert game.moves is not None
    kind, detail = first_divergence(mines, settings.click, our_steps(game.moves), steps)
    return board, winner, kind, detail


# ---------------------------------------------------------------------------------------------- the run


def say(text: str) -> None:
    """Progress, on stderr."""
    print(text, file=sys.stderr, flush=True)


def now() -> str:
    """The time in UTC, to the second."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def chunks(boards: int, size: int) -> Iterator[tuple[int, int]]:
    """Board ranges (1-based, inclusive) of at most `size` boards covering 1..boards."""
    for low in range(1, boards + 1, size):
        yield low, min(low + size - 1, boards)


def chunk_done(side: str, low: int, high: int, played: int, seconds: float, store: Store) -> str:
    """A line of progress after a chunk: what it played, how fast, and what the store holds."""
    done, won = store.side_counts(side)
    return (
        f"{side}: boards {low}-{high}: {played:,} played in {seconds:.0f} s ({3600 * played / seconds:,.0f} an hour);"
        f" {done:,} stored, {won / max(done, 1):.3%} won"
    )


def play_side_ours(store: Store, rules: Rules, boards: int, size: int, pool: Any) -> None:
    """cpsolve's games on boards 1..boards that the store lacks, a chunk at a time."""
    source = cpsolve_source()
    for low, high in chunks(boards, size):
        todo = store.missing(OURS, low, high)
        if not todo:
            continue
        started, began = now(), time.perf_counter()
        results = [game for block in pool.imap_unordered(play_ours, tasks(rules, todo)) for game in block]
        seconds = time.perf_counter() - began
        store.add_games(OURS, results)
        store.add_run(OURS, todo, started, seconds, source)
        say(chunk_done(OURS, low, high, len(todo), seconds, store))


def play_side_peer(store: Store, rules: Rules, boards: int, size: int, template: str) -> None:
    """The peer's games on boards 1..boards that the store lacks, a chunk (one peer process) at a time."""
    settings = rules.settings()
    for low, high in chunks(boards, size):
        todo = store.missing(PEER, low, high)
        if not todo:
            continue
        started, began = now(), time.perf_counter()
        results: list[tuple[int, bool, int | None, dict]] = []
        try:
            for board, item in run_peer(template, settings, todo, store.folder):
                results.append(peer_result(board, item))
        finally:  # games the peer finished are kept even when it failed or was stopped
            if results:
                store.add_games(PEER, results)
                store.add_run(PEER, [board for board, *_ in results], started, time.perf_counter() - began, template)
        seconds = time.perf_counter() - began
        say(chunk_done(PEER, low, high, len(todo), seconds, store))


def diverge(store: Store, rules: Rules, size: int, template: str, pool: Any) -> None:
    """Replay the one-sided games not yet classified, with moves, and keep where each first parted."""
    settings = rules.settings()
    while True:
        batch = store.one_sided(size)
        if not batch:
            return
        began = time.perf_counter()
        boards = [board for board, _ in batch]
        ours_won = dict(batch)
        # the moves kept as steps, not as the peer's JSON: a few bytes a click instead of a few hundred
        work = [
            (rules, board, ours_won[board], item["won"], peer_steps(item.get("moves") or []))
            for board, item in run_peer(template, settings, boards, store.folder)
        ]
        found = list(pool.imap_unordered(classify, work, chunksize=4))
        store.add_divergences((board, winner, kind, detail) for board, winner, kind, detail in found)
        say(f"divergence: {len(batch)} one-sided games replayed and classified in {time.perf_counter() - began:.0f} s")


# ---------------------------------------------------------------------------------------------- report


def first_shown(settings: Any, board: int) -> int:
    """The number the first click shows on a board: the mines among its neighbours."""
    mines = board_mines(settings, board)
    row, col = settings.click
    return int(mines[max(row - 1, 0) : row + 2, max(col - 1, 0) : col + 2].sum())


def by_first_number(store: Store, rules: Rules) -> list[dict]:
    """The paired boards split by the number their first click shows: each part's one-sided games and its net.

    Whether a board's first click shows 0 (a region opens) or a number (a guess follows at once) is fixed by the
    board before either side moves, so each part's net is a difference measured on its own boards; the nets add
    up to the paired difference. (Under the modern rule every first click shows 0: one part.)
    """
    settings = rules.settings()
    parts: dict[int, list[int]] = {}
    paired = 0
    for board, ours, peer in store.outcomes():
        part = parts.setdefault(first_shown(settings, board), [0, 0, 0])
        part[0] += 1
        part[1] += ours and not peer
        part[2] += peer and not ours
        paired += 1
    rows = []
    for shown, (boards, ours_only, peer_only) in sorted(parts.items()):
        net = (ours_only - peer_only) / paired
        half = net_half_width(ours_only, peer_only, paired)
        rows.append(
            {
                "shown": shown,
                "boards": boards,
                OURS: ours_only,
                PEER: peer_only,
                "net": net,
                "interval": [net - half, net + half],
            }
        )
    return rows


def report(store: Store, split_first: bool = False) -> dict:
    """Everything the store says, as a JSON-able dict; with `split_first`, the paired boards split by what the
    first click showed (:func:`by_first_number`: every board is dealt again, about 15 s a 200,000 boards)."""
    rules = store.rules()
    out: dict[str, Any] = {"boards": None if rules is None else asdict(rules), "sides": {}}
    for side in (OURS, PEER):
        games, won = store.side_counts(side)
        low, high = wilson(won, games)
        out["sides"][side] = {
            "games": games,
            "won": won,
            "rate": won / games if games else None,
            "interval": [low, high],
        }
    out["peer_errors"] = store.peer_errors()
    pair = store.paired()
    out["paired"] = {
        **asdict(pair),
        "difference": pair.difference,
        "interval": [pair.difference - pair.half_width, pair.difference + pair.half_width],
    }
    counts = store.divergence_counts()
    kinds = []
    for kind, meaning in KINDS.items():
        got = counts.get(kind, {OURS: 0, PEER: 0})
        net = (got[OURS] - got[PEER]) / pair.boards if pair.boards else 0.0
        half = net_half_width(got[OURS], got[PEER], pair.boards)
        kinds.append(
            {
                "kind": kind,
                "meaning": meaning,
                OURS: got[OURS],
                PEER: got[PEER],
                "net": net,
                "interval": [net - half, net + half],
            }
        )
    out["divergence"] = kinds
    out["replay_differs"] = sum(counts.get(REPLAY_DIFFERS, {}).values())
    out["inexact"] = store.inexact()
    out["classified"] = sum(sum(got.values()) for got in counts.values())
    out["runs"] = [
        {
            "side": side,
            "boards": boards,
            "seconds": seconds,
            "per_hour": 3600 * boards / seconds if seconds else None,
            "source": source,
        }
        for side, boards, seconds, source in store.runs()
    ]
    peer = store.meta("peer")
    out["peer_command"] = peer
    if split_first and rules is not None:
        out["by_first"] = by_first_number(store, rules)
    return out


def points(value: float) -> str:
    """A fraction as signed points of win rate."""
    return f"{100 * value:+.2f}"


def report_text(found: dict) -> str:
    """The report as text: the rates, the paired difference, the divergence table, the runs."""
    lines = []
    rules = found["boards"]
    if rules is not None:
        label = Rules(**{**rules, "first": tuple(rules["first"])}).label()
        lines.append(f"boards: {label} (board k is game k-1 of cpsolve stats --player best)")
    for side, name in ((OURS, "cpsolve best"), (PEER, "peer")):
        got = found["sides"][side]
        if got["games"]:
            low, high = got["interval"]
            lines.append(
                f"{name:12s} {got['games']:>9,} games, {got['won']:>9,} won: {got['rate']:.3%} [{low:.3%}, {high:.3%}]"
            )
        else:
            lines.append(f"{name:12s} no games")
    if found["peer_errors"]:
        lines.append(f"peer games with an error (lost): {found['peer_errors']:,}")
    pair = found["paired"]
    if pair["boards"]:
        low, high = pair["interval"]
        lines.append(
            f"paired on {pair['boards']:,} boards: ours - peer = {points(pair['difference'])} points"
            f" [{points(low)}, {points(high)}]; won by both {pair['both']:,}, by ours only {pair['ours_only']:,},"
            f" by the peer only {pair['peer_only']:,}"
        )
        one_sided, classified = pair["ours_only"] + pair["peer_only"], found["classified"] - found["replay_differs"]
        lines.append(
            f"first divergence of the one-sided games ({classified:,} of {one_sided:,} classified;"
            f" net = (won by ours - won by the peer) / {pair['boards']:,} boards, in points):"
        )
        lines.append(f"  {'kind':78s} {'ours won':>9s} {'peer won':>9s}  net [95%]")
        for row in found["divergence"]:
            low, high = row["interval"]
            net = f"{points(row['net'])} [{points(low)}, {points(high)}]"
            lines.append(f"  {row['meaning']:78s} {row[OURS]:>9,} {row[PEER]:>9,}  {net}")
        if found["inexact"]:
            lines.append(f"  judged by doubles (the exact count took over {EXACT_SECONDS:.0f} s): {found['inexact']:,}")
        if found["replay_differs"]:
            lines.append(
                f"  not classified: the peer's replay with moves ended otherwise in {found['replay_differs']:,} games"
            )
        if "by_first" in found:
            lines.append(f"by what the first click showed (net over all {pair['boards']:,} boards, in points):")
            lines.append(f"  {'shown':>5s} {'boards':>9s} {'ours won':>9s} {'peer won':>9s}  net [95%]")
            for row in found["by_first"]:
                low, high = row["interval"]
                net = f"{points(row['net'])} [{points(low)}, {points(high)}]"
                lines.append(f"  {row['shown']:>5d} {row['boards']:>9,} {row[OURS]:>9,} {row[PEER]:>9,}  {net}")
    for run in found["runs"]:
        rate = f"{run['per_hour']:,.0f} boards an hour" if run["per_hour"] else ""
        lines.append(
            f"{run['side']}: {run['boards']:,} boards in {run['seconds']:,.0f} s of wall time, {rate}: {run['source']}"
        )
    for side in (OURS, PEER):
        sources = [run["source"] for run in found["runs"] if run["side"] == side]
        if len(sources) > 1:  # results of two versions side by side measure neither
            lines.append(f"warning: {side}'s games were played by {len(sources)} versions (above)")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- command line


class Parser(argparse.ArgumentParser):
    """argparse with its errors as one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise Refused(message)


def cell_option(text: str) -> tuple[int, int]:
    """``ROW,COL`` (1-based) as a 0-based cell."""
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL (1-based), got {text!r}") from None
    if row < 1 or col < 1:
        raise argparse.ArgumentTypeError(f"cells are 1-based, got {text!r}")
    return row - 1, col - 1


def positive(text: str) -> int:
    """A whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def parser() -> Parser:
    """The command line."""
    top = Parser(prog="best_vs_peer.py", description=__doc__.splitlines()[0])
    commands = top.add_subparsers(dest="command", required=True, parser_class=Parser)

    def common(sub: Parser) -> None:
        sub.add_argument("--store", required=True, help="the store's directory (outside the repository)")

    def board_options(sub: Parser) -> None:
        sub.add_argument(
            "--rule",
            choices=("classic", "modern"),
            help="classic: the first click safe; modern: its 3x3 free (default classic)",
        )
        sub.add_argument(
            "--size", nargs=3, type=positive, metavar=("R", "C", "M"), help="rows, columns, mines (default 16 30 99)"
        )
        sub.add_argument(
            "--first", type=cell_option, metavar="ROW,COL", help="the 1-based first click (default the rule's)"
        )
        sub.add_argument("--seed", type=int, help="board k from default_rng([seed, k - 1]) (default 0)")

    run = commands.add_parser("run", help="play the boards, classify the one-sided games, report")
    common(run)
    board_options(run)
    run.add_argument("--boards", type=positive, required=True, help="play boards 1..N")
    run.add_argument("--side", choices=("both", OURS, PEER), default="both", help="which side to play (default both)")
    run.add_argument("--peer", help="the peer's command; {boards} is the boards file (default: the store's)")
    run.add_argument("--peer-moves", help="the peer's command with moves (default: --peer with --moves added)")
    run.add_argument("--jobs", type=positive, default=2, help="worker processes for cpsolve's side (default 2)")
    run.add_argument(
        "--chunk", type=positive, default=10_000, help="boards a chunk, committed together (default 10000)"
    )
    run.add_argument("--no-divergence", action="store_true", help="with --side both: do not replay the one-sided games")
    run.add_argument("--json", action="store_true", help="the report as JSON")

    show = commands.add_parser("report", help="the report from the store")
    common(show)
    show.add_argument("--json", action="store_true", help="as JSON")
    show.add_argument(
        "--by-first", action="store_true", help="split the paired boards by the number the first click shows"
    )

    forget = commands.add_parser("forget", help="drop one side's results (a new version of it to play)")
    common(forget)
    forget.add_argument("--side", choices=(OURS, PEER), required=True, help="whose results to drop")

    boards = commands.add_parser("boards", help="boards as the peer reads them, to stdout")
    common(boards)
    boards.add_argument("--from", dest="low", type=positive, default=1, help="the first board (default 1)")
    boards.add_argument("--to", dest="high", type=positive, required=True, help="the last board")
    return top


def store_folder(text: str) -> Path:
    """The store's directory, refused inside the repository (nothing big, nothing temporary lands there)."""
    folder = Path(text).expanduser().resolve()
    if folder == ROOT or ROOT in folder.parents:
        raise Refused(f"--store {text}: keep the store outside the repository ({ROOT})")
    if folder.exists() and not folder.is_dir():
        raise Refused(f"--store {text}: not a directory")
    return folder


def rules_from(args: argparse.Namespace, stored: Rules | None) -> Rules:
    """The boards' rules: the options given, the store's for the ones not given, else the defaults."""
    given = args.rule is not None or args.size is not None or args.first is not None or args.seed is not None
    if stored is not None and not given:
        return stored
    rule = args.rule or "classic"
    rows, cols, mines = args.size or (16, 30, 99)
    first = args.first if args.first is not None else default_first(rows, cols, rule)
    seed = args.seed if args.seed is not None else 0
    if seed < 0:
        raise Refused(f"--seed must be 0 or more, got {seed}")
    return Rules(rows, cols, mines, first, rule, seed)


def stop(signum: int, frame: Any) -> None:
    """SIGTERM as Ctrl-C: the chunk under way is cut short the same way (the peer ended, its file removed, the
    games it finished kept)."""
    raise KeyboardInterrupt


def quiet_worker() -> None:
    """A worker leaves Ctrl-C to the main process (which ends the pool) and dies at SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; the exit code."""
    signal.signal(signal.SIGTERM, stop)
    try:
        args = parser().parse_args(argv)
        folder = store_folder(args.store)
        if args.command != "run" and not (folder / Store.FILE).exists():
            raise Refused(f"--store {args.store}: no store there")
        store = Store(folder)
        try:
            return command(args, store)
        finally:
            store.close()
    except Refused as error:
        print(f"best_vs_peer.py: {error}", file=sys.stderr)
        return 2
    except (PeerFailed, PlayerChanged) as error:
        print(f"best_vs_peer.py: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # a reader that stopped early (``| head``): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("best_vs_peer.py: interrupted (the games finished are in the store)", file=sys.stderr)
        return 130


def command(args: argparse.Namespace, store: Store) -> int:
    """One command on an open store."""
    if args.command == "report":
        found = report(store, split_first=args.by_first)
        print(json.dumps(found) if args.json else report_text(found))
        return 0
    if args.command == "forget":
        say(f"dropped {store.forget(args.side):,} games of {args.side}, and the divergences")
        return 0
    rules = store.rules()
    if args.command == "boards":
        if rules is None:
            raise Refused("the store holds no boards yet")
        if args.high < args.low:
            raise Refused(f"--to {args.high} is before --from {args.low}")
        store.adopt(rules)  # the same boards as the store's results, or a refusal
        settings = rules.settings()
        for board in range(args.low, args.high + 1):
            print(board_line(settings, board))
        return 0
    rules = rules_from(args, rules)
    rules.settings()  # refuse impossible boards before anything is kept
    store.adopt(rules)
    template = peer_template(args, store)
    sides = (OURS, PEER) if args.side == "both" else (args.side,)
    if PEER in sides and template is None:
        raise Refused("--peer is needed to play the peer's side")
    if PEER in sides:
        assert template is not None
        play_side_peer(store, rules, args.boards, args.chunk, template)
    divergence = args.side == "both" and not args.no_divergence
    if OURS in sides or divergence:
        with Pool(args.jobs, initializer=quiet_worker) as pool:
            if OURS in sides:
                play_side_ours(store, rules, args.boards, args.chunk, pool)
            if divergence:
                assert template is not None
                moves = args.peer_moves or f"{template} --moves"
                diverge(store, rules, min(args.chunk, 1000), moves, pool)
    found = report(store)
    print(json.dumps(found) if args.json else report_text(found))
    return 0


def peer_template(args: argparse.Namespace, store: Store) -> str | None:
    """The peer's command: the one given, kept in the store the first time; later runs must give the same.

    Raises:
        Refused: A command other than the one whose results the store holds.
    """
    stored = store.meta("peer")
    if args.peer is None:
        return stored
    peer_argv(args.peer, Path("boards.jsonl"))  # refuse an unsplittable command now
    if stored is not None and stored != args.peer and store.side_counts(PEER)[0]:
        raise Refused(f"the store's peer games were played by {stored!r}: give that command, or use another store")
    store.set_meta("peer", args.peer)
    return args.peer


if __name__ == "__main__":
    sys.exit(main())
