"""Load on ``cpsolve serve``: many clients on loopback, bounded in time and count, every answer checked.

The server is started here (``python -m cpsolve serve`` on 127.0.0.1, a free port) and stopped at
the end; the load goes to that loopback address only, and every client stops at the deadline or
after --max-requests in all, whichever comes first. Two scenarios:

- ``mixed`` (the default): what a game maker's server sees. --slow-clients clients ask long work
  again and again (``/api/generate`` of 10 expert no-guess boards, a CP-SAT layout with a pinned
  click, a 100x100 position's exact count and chances, which grows a solver past a gibibyte); the
  other clients ask quick questions (``/api/hint`` on expert mid-game positions, ``/api/game`` moves
  of expert games with the hint, ``/api/puzzle`` counts of 3x3 puzzles), think --think seconds, and
  ask again. Every answer is checked: each quick one equals the library's own answer to the same
  request (the text ``cpsolve.web.work.answer`` gives in this process, which is what the command
  line prints), each 3x3 count equals the brute-force count, each generated list the library's for
  the same seed, each layout board is won with one click (a flood fill here), each 100x100 answer
  is ``unknown`` within its time limit or the memory bound's 422.
- ``beside``: the issue's case. Three clients ask for no-guess boards that cannot be found (a 20 s time limit
  each), and 20 quick questions follow one by one (a 3x3 count, checked by brute force, and a hint on an
  intermediate opening, checked against the library's): their median and worst seconds.
- ``hints``: the earlier benchmark, every client asking ``/api/hint`` on expert positions.

Reported: requests, the quick ones' latency p50/p95/p99/max and the slow ones', every status by
kind, wrong answers, requests lost (sent but never answered), 5xx, and the server's memory (resident,
its forkserver, resource tracker and solver processes included) every 5 s, at the end and after 10 s
idle; the peer in the same run: the same hints answered by the library in this process, so the HTTP
path's cost reads as a ratio to the work itself.

Usage:
    python benchmarks/serve_load.py [--scenario mixed] [--clients 50] [--slow-clients 3] [--seconds 300]
        [--think 0.5] [--workers 2] [--long-workers 2]

On a shared machine every figure is noisy: report ``uptime``'s load with them, and compare the
ratio to the peer rather than the milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any


def expert_positions(count: int, seed: int) -> list[str]:
    """Expert positions in the puzzle format: deal k (seed + k) played 5 + 3k mod 40 steps by the hints, unfinished."""
    from cpsolve.formats.puzzle_output import draw_position
    from cpsolve.play import assist
    from cpsolve.play.session import Dealer, Session

    positions = []
    number = 0
    while len(positions) < count:
        session = Session(Dealer(16, 30, 99, seed=seed).deal(number))
        steps = 5 + (3 * number) % 40
        session.reveal(session.deal.first)
        for _ in range(steps):
            if session.over:
                break
            hint = assist.hint(session.view())
            if hint.safe:
                for cell in hint.safe:
                    session.reveal(cell)
            elif hint.guess is not None:
                session.reveal(hint.guess)
        number += 1
        if session.over:
            continue
        view = session.view()
        positions.append("16 30 99\n" + "\n".join(draw_position(view)) + "\n")
    return positions


def resident_kib(pid: int) -> int:
    """Resident memory of a process and all its descendants (KiB), from /proc."""
    total = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending.extend(int(child) for child in children)
        except (OSError, AttributeError):
            continue
    return total


def start_server(workers: int, queue: int, long_workers: int = 2) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cpsolve",
            "serve",
            "--port",
            "0",
            "--workers",
            str(workers),
            "--queue",
            str(queue),
            "--long-workers",
            str(long_workers),
        ],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    line = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+", line)
    if not found:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, found.group(0)


def _request(host: str, port: int, body: bytes, path: str = "/api/hint") -> bytes:
    """One keep-alive HTTP/1.1 POST, written once and sent as is."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> tuple[int, bytes]:
    """Send a request and read its whole answer: its status code and body."""
    writer.write(request)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = next(int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:"))
    return status, await reader.readexactly(length)


async def _exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> int:
    """Send a request and read its whole answer; its status code."""
    status, _ = await _answer(reader, writer, request)
    return status


async def load(url: str, positions: list[str], clients: int, seconds: float, think: float, cap: int) -> dict:
    """Clients on keep-alive connections, each asking, waiting for the answer, thinking, asking again.

    The client is a few lines of HTTP/1.1 over asyncio streams: a general client (httpx) spent
    several times the server's time per request here, so the load measured would have been its own.
    """
    host, port = url.removeprefix("http://").split(":")
    assert host == "127.0.0.1", "the load goes to loopback only"
    requests = [
        _request(host, int(port), json.dumps({"position": text, "time_limit": 10}).encode()) for text in positions
    ]
    latencies: list[float] = []
    errors: dict[str, int] = {}
    deadline = time.perf_counter() + seconds
    sent = 0

    async def client(number: int) -> None:
        nonlocal sent
        turn = number
        connection = None
        while time.perf_counter() < deadline and sent < cap:
            sent += 1
            request = requests[turn % len(requests)]
            turn += clients
            began = time.perf_counter()
            try:
                if connection is None:
                    connection = await asyncio.open_connection(host, int(port))
                status = str(await asyncio.wait_for(_exchange(*connection, request), 30))
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as error:
                status = type(error).__name__
                if connection is not None:
                    connection[1].close()
                connection = None
            latencies.append(time.perf_counter() - began)
            if status != "200":
                errors[status] = errors.get(status, 0) + 1
            if think:
                await asyncio.sleep(think)
        if connection is not None:
            connection[1].close()

    began = time.perf_counter()
    await asyncio.gather(*(client(number) for number in range(clients)))
    elapsed = time.perf_counter() - began
    ordered = sorted(latencies)

    def quantile(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    return {
        "requests": len(latencies),
        "seconds": round(elapsed, 2),
        "throughput": round(len(latencies) / elapsed, 1),
        "p50_ms": round(quantile(0.50), 1),
        "p95_ms": round(quantile(0.95), 1),
        "p99_ms": round(quantile(0.99), 1),
        "max_ms": round(ordered[-1] * 1000, 1) if ordered else None,
        "errors": errors,
    }


# -- the mixed load ----------------------------------------------------------------------------------


@dataclass
class Ask:
    """One request of the mixed load and how its answer is checked.

    Attributes:
        kind: What it is (``hint``, ``game``, ``count``: quick; ``generate``, ``layout``, ``heavy``: slow).
        path: The endpoint.
        body: The JSON body.
        expected: The answer's exact text, when it is known before the run.
        check: Otherwise, whether an answer (status, body) is right.
    """

    kind: str
    path: str
    body: dict[str, Any]
    expected: str | None = None
    check: Any = None
    request: bytes = b""

    def right(self, status: int, text: bytes) -> bool:
        if self.expected is not None:
            return status == 200 and text.decode() == self.expected
        return bool(self.check(status, text))


QUICK_KINDS = ("hint", "game", "count")


def _library(kind: str, model: Any, body: dict[str, Any]) -> str:
    """The library's answer to a request, as the server's solver process computes it (the command line's)."""
    from cpsolve.web.work import answer

    fields = model(**body).model_dump()
    fields["time_limit"] = float(fields["time_limit"])
    status, text, _ = answer(kind, fields)
    assert status == 200, text
    return text


def _count_by_brute_force(rows: list[str], total: int) -> int:
    cells = [(r, c) for r in range(len(rows)) for c in range(len(rows[0]))]
    clues = {cell: int(rows[cell[0]][cell[1]]) for cell in cells if rows[cell[0]][cell[1]].isdigit()}
    unknown = [cell for cell in cells if cell not in clues]
    found = 0
    for bits in product((0, 1), repeat=len(unknown)):
        mines = {cell for cell, bit in zip(unknown, bits, strict=True) if bit}
        if len(mines) == total and all(
            sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1)) == value
            for (r, c), value in clues.items()
        ):
            found += 1
    return found


def _one_click_win(status: int, text: bytes) -> bool:
    """A layout answer whose board a single click at its ``c`` clears, by a flood fill here (or the hard stop's
    504, when the machine gave the work too little of its time limit: counted apart)."""
    if status == 504:
        return b"the work was stopped" in text
    if status != 200:
        return False
    answer = json.loads(text)
    rows = answer.get("board")
    if answer.get("status") != "possible" or not rows:
        return False
    mines = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"}
    safe = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "*"}
    click = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "c")
    seen, stack = {click}, [click]
    while stack:
        r, c = stack.pop()
        around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc)]
        if any(cell in mines for cell in around):
            continue
        for cell in around:
            if cell in safe and cell not in seen:
                seen.add(cell)
                stack.append(cell)
    return seen == safe and len(mines) == answer["mines"]


def _heavy_answer(status: int, text: bytes) -> bool:
    """The 100x100 count: unknown within its time limit (as the command prints it), the memory bound's 422, or
    the hard stop's 504 when the engine ran past its limit by more than the grace (reported apart)."""
    if status == 422:
        return b"MiB of memory" in text
    if status == 504:
        return b"the work was stopped" in text
    return status == 200 and json.loads(text)["status"] in ("unknown", "solved")


def expert_games(count: int, seed: int) -> list[dict[str, Any]]:
    """Bodies of /api/game: expert games (deal seed + k) played k % 30 steps by the hints, asking the next hint."""
    from cpsolve.play import assist
    from cpsolve.play.session import Dealer, Session

    bodies = []
    for number in range(count):
        session = Session(Dealer(16, 30, 99, seed=seed + number).deal(0))
        moves = [{"action": "reveal", "cell": [session.deal.first[0] + 1, session.deal.first[1] + 1]}]
        session.reveal(session.deal.first)
        for _ in range(number % 30):
            if session.over:
                break
            hint = assist.hint(session.view())
            cells = hint.safe or ([hint.guess] if hint.guess is not None else [])
            for cell in cells:
                session.reveal(cell)
                moves.append({"action": "reveal", "cell": [cell[0] + 1, cell[1] + 1]})
        bodies.append({"rows": 16, "cols": 30, "mines": 99, "seed": seed + number, "moves": moves, "hint": True})
    return bodies


def quick_asks(positions: list[str], games: int, seed: int) -> list[Ask]:
    """The quick questions, interleaved, each with the answer it must get."""
    from cpsolve.web.models import GameRequest, HintRequest

    asks = []
    for text in positions:
        body = {"position": text, "time_limit": 10}
        asks.append(Ask("hint", "/api/hint", body, _library("hint", HintRequest, body)))
    for body in expert_games(games, seed):
        body = {**body, "time_limit": 10}
        asks.append(Ask("game", "/api/game", body, _library("game", GameRequest, body)))
    rng = random.Random(seed)
    for _ in range(20):
        mines = set(rng.sample(range(9), rng.randint(1, 4)))
        clue = rng.choice([cell for cell in range(9) if cell not in mines])
        value = sum(1 for m in mines if abs(m // 3 - clue // 3) <= 1 and abs(m % 3 - clue % 3) <= 1)
        rows = ["".join(str(value) if 3 * r + c == clue else "." for c in range(3)) for r in range(3)]
        count = _count_by_brute_force(rows, len(mines))
        text = f"3 3 {len(mines)}\n" + "\n".join(rows) + "\n"

        def counted(status: int, answer: bytes, count: int = count) -> bool:
            return status == 200 and json.loads(answer)["count"] == count

        asks.append(Ask("count", "/api/puzzle", {"position": text, "count": True, "time_limit": 10}, check=counted))
    rng.shuffle(asks)
    return asks


def slow_asks(seed: int) -> list[Ask]:
    """The long work, in turn: 10 expert no-guess boards, a pinned-click CP-SAT layout, a heavy 100x100 count."""
    from cpsolve.web.models import GenerateRequest

    heavy = "100 100 2000\n" + "\n".join(("1." * 50) if r % 2 == 0 else "." * 100 for r in range(100)) + "\n"
    asks = []
    for number in range(3):
        generate = {"rows": 16, "cols": 30, "mines": 99, "count": 10, "seed": seed + number, "time_limit": 20}
        asks.append(Ask("generate", "/api/generate", generate, _library("generate", GenerateRequest, generate)))
        layout = {"rows": 30, "cols": 30, "mines": 300 + 20 * number, "click": [15, 15], "backend": "cp"}
        asks.append(Ask("layout", "/api/layout", {**layout, "workers": 1, "time_limit": 20}, check=_one_click_win))
        asks.append(
            Ask(
                "heavy",
                "/api/puzzle",
                {"position": heavy, "count": True, "deduce": True, "probabilities": True, "time_limit": 8},
                check=_heavy_answer,
            )
        )
    return asks


def _quantiles(seconds: list[float]) -> dict[str, float | None]:
    ordered = sorted(seconds)
    if not ordered:
        return {"p50_ms": None, "p95_ms": None, "p99_ms": None, "max_ms": None}

    def quantile(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 1)

    return {"p50_ms": quantile(0.5), "p95_ms": quantile(0.95), "p99_ms": quantile(0.99), "max_ms": quantile(1.0)}


@dataclass
class _Tally:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[str, dict[str, int]] = field(default_factory=dict)
    wrong: dict[str, int] = field(default_factory=dict)
    sent: int = 0
    answered: int = 0


async def mixed_load(
    url: str, quick: list[Ask], slow: list[Ask], clients: int, slow_clients: int, seconds: float, think: float, cap: int
) -> dict[str, Any]:
    """Quick clients and slow clients on keep-alive connections until the deadline or `cap` requests in all."""
    host, port = url.removeprefix("http://").split(":")
    assert host == "127.0.0.1", "the load goes to loopback only"
    for ask in [*quick, *slow]:
        ask.request = _request(host, int(port), json.dumps(ask.body).encode(), ask.path)
    tally = _Tally()
    deadline = time.perf_counter() + seconds

    async def client(number: int, asks: list[Ask], pause: float) -> None:
        turn = number * 7
        connection = None
        while time.perf_counter() < deadline and tally.sent < cap:
            ask = asks[turn % len(asks)]
            turn += 1
            tally.sent += 1
            began = time.perf_counter()
            try:
                if connection is None:
                    connection = await asyncio.open_connection(host, int(port))
                status, text = await asyncio.wait_for(_answer(*connection, ask.request), 120)
                tally.answered += 1
                key = str(status)
                if not ask.right(status, text):
                    tally.wrong[ask.kind] = tally.wrong.get(ask.kind, 0) + 1
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as error:
                key = type(error).__name__
                if connection is not None:
                    connection[1].close()
                connection = None
            tally.latencies.setdefault(ask.kind, []).append(time.perf_counter() - began)
            counts = tally.statuses.setdefault(ask.kind, {})
            counts[key] = counts.get(key, 0) + 1
            if pause:
                await asyncio.sleep(pause)
        if connection is not None:
            connection[1].close()

    began = time.perf_counter()
    await asyncio.gather(
        *(client(number, slow, 0.0) for number in range(slow_clients)),
        *(client(number, quick, think) for number in range(clients - slow_clients)),
    )
    elapsed = time.perf_counter() - began
    quick_seconds = [value for kind in QUICK_KINDS for value in tally.latencies.get(kind, [])]
    slow_seconds = [value for kind, values in tally.latencies.items() if kind not in QUICK_KINDS for value in values]
    statuses = [(kind, status) for kind, counts in tally.statuses.items() for status in counts]
    return {
        "requests": tally.sent,
        "answered": tally.answered,
        "lost": tally.sent - tally.answered,
        "seconds": round(elapsed, 1),
        "quick": {"requests": len(quick_seconds), **_quantiles(quick_seconds)},
        "slow": {"requests": len(slow_seconds), **_quantiles(slow_seconds)},
        "by_kind": {kind: {"requests": len(values), **_quantiles(values)} for kind, values in tally.latencies.items()},
        "statuses": tally.statuses,
        "wrong": tally.wrong,
        # 5xx but the hard stop's 504 (the time limit ran out: the command line's exit 3), which is counted apart
        "server_errors": sum(
            tally.statuses[kind][status]
            for kind, status in statuses
            if status.isdigit() and int(status) >= 500 and status != "504"
        ),
        "hard_stops": sum(counts.get("504", 0) for counts in tally.statuses.values()),
    }


class MemoryWatch:
    """The server's resident memory (its processes included) every `period` seconds, from a thread."""

    def __init__(self, pid: int, period: float = 5.0):
        self.pid, self.period = pid, period
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._began = time.perf_counter()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.is_set():
            self.samples.append((round(time.perf_counter() - self._began, 1), round(resident_kib(self.pid) / 1024, 1)))
            self._stop.wait(self.period)

    def __enter__(self) -> MemoryWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def run_mixed(options: argparse.Namespace) -> dict[str, Any]:
    began = time.perf_counter()
    positions = expert_positions(options.positions, options.seed)
    quick = quick_asks(positions, 40, options.seed)
    slow = slow_asks(options.seed)
    prepared = time.perf_counter() - began
    load_before = os.getloadavg()
    server, url = start_server(options.workers, options.queue, options.long_workers)
    try:
        asyncio.run(mixed_load(url, quick[:8], [], 4, 0, 2.0, 0.0, 100))  # warm-up: the solvers' first answers
        start_mib = round(resident_kib(server.pid) / 1024, 1)
        with MemoryWatch(server.pid) as watch:
            figures = asyncio.run(
                mixed_load(
                    url,
                    quick,
                    slow,
                    options.clients,
                    options.slow_clients,
                    options.seconds,
                    options.think,
                    options.max_requests,
                )
            )
            end_mib = round(resident_kib(server.pid) / 1024, 1)
            time.sleep(10)
            idle_mib = round(resident_kib(server.pid) / 1024, 1)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    memory = [value for _, value in watch.samples]
    figures.update(
        {
            "scenario": "mixed",
            "clients": options.clients,
            "slow_clients": options.slow_clients,
            "think_s": options.think,
            "workers": options.workers,
            "long_workers": options.long_workers,
            "prepared_s": round(prepared, 1),
            "memory_mib": {"start": start_mib, "max": max(memory), "end": end_mib, "idle_10s": idle_mib},
            "memory_samples": watch.samples,
            "load_before": load_before,
            "load_after": os.getloadavg(),
        }
    )
    return figures


def print_mixed(figures: dict[str, Any]) -> None:
    print(
        f"{figures['clients']} clients ({figures['slow_clients']} slow, the others thinking {figures['think_s']:g} s), "
        f"{figures['workers']} quick + {figures['long_workers']} long solver processes, {figures['seconds']} s"
    )
    print(
        f"requests {figures['requests']}, answered {figures['answered']}, lost {figures['lost']}, "
        f"5xx {figures['server_errors']} (and {figures['hard_stops']} hard stops, 504), "
        f"wrong answers {figures['wrong'] or 0}"
    )
    for name in ("quick", "slow"):
        part = figures[name]
        print(
            f"{name}: {part['requests']} requests, ms p50 {part['p50_ms']}, p95 {part['p95_ms']}, "
            f"p99 {part['p99_ms']}, max {part['max_ms']}"
        )
    for kind, part in figures["by_kind"].items():
        statuses = figures["statuses"][kind]
        print(f"  {kind}: {part['requests']}, p50 {part['p50_ms']} ms, max {part['max_ms']} ms, statuses {statuses}")
    memory = figures["memory_mib"]
    print(
        f"server memory MiB (RSS, its processes included): start {memory['start']}, max {memory['max']}, "
        f"end {memory['end']}, idle 10 s later {memory['idle_10s']}"
    )
    print("memory every 5 s:", " ".join(f"{value:.0f}" for _, value in figures["memory_samples"]))
    print(f"load average before {figures['load_before']}, after {figures['load_after']}")


# -- quick questions beside three slow ones --------------------------------------------------------


async def beside_slow(url: str, quick: list[Ask], slow_body: dict[str, Any], slow: int) -> dict[str, Any]:
    """`slow` clients ask for boards that cannot be found (each runs its whole time limit); then each quick
    question is asked in turn, on its own connection, while they run. The quick answers' seconds, checked."""
    host, port = url.removeprefix("http://").split(":")
    assert host == "127.0.0.1", "the load goes to loopback only"

    async def ask(path: str, body: dict[str, Any]) -> tuple[int, bytes, float]:
        began = time.perf_counter()
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            status, text = await asyncio.wait_for(
                _answer(reader, writer, _request(host, int(port), json.dumps(body).encode(), path)), 120
            )
        finally:
            writer.close()
        return status, text, time.perf_counter() - began

    slow_calls = [asyncio.ensure_future(ask("/api/generate", {**slow_body, "seed": seed})) for seed in range(slow)]
    await asyncio.sleep(1.0)
    seconds, wrong = [], 0
    for item in quick:
        status, text, took = await ask(item.path, item.body)
        seconds.append(took)
        wrong += not item.right(status, text)
    still_running = sum(not call.done() for call in slow_calls)
    slow_answers = await asyncio.gather(*slow_calls)
    return {
        "quick": len(seconds),
        "median_ms": round(statistics.median(seconds) * 1000, 1),
        "max_ms": round(max(seconds) * 1000, 1),
        "wrong": wrong,
        "slow_still_running_after_the_quick_ones": still_running,
        "slow_statuses": sorted(status for status, _, _ in slow_answers),
        "slow_seconds": sorted(round(took, 1) for _, _, took in slow_answers),
    }


def run_beside(options: argparse.Namespace) -> dict[str, Any]:
    """The issue's case: three no-guess boards that cannot be found (20 s each), 20 quick questions beside them."""
    from cpsolve.web.models import HintRequest

    opening = (Path(__file__).resolve().parent.parent / "examples" / "best" / "intermediate_opening.txt").read_text()
    hint_body = {"position": opening, "time_limit": 10}
    counts = [item for item in quick_asks([], 0, options.seed) if item.kind == "count"][:10]
    hint = Ask("hint", "/api/hint", hint_body, _library("hint", HintRequest, hint_body))
    quick = [item for count in counts for item in (count, hint)]
    hopeless = {"rows": 30, "cols": 30, "mines": 400, "player": "casual", "time_limit": 20}
    load_before = os.getloadavg()
    server, url = start_server(options.workers, options.queue, options.long_workers)
    try:
        asyncio.run(mixed_load(url, quick[:4], [], 2, 0, 1.0, 0.0, 20))  # warm-up
        figures = asyncio.run(beside_slow(url, quick, hopeless, 3))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    figures.update({"scenario": "beside", "load_before": load_before, "load_after": os.getloadavg()})
    return figures


def library_peer(positions: list[str], rounds: int = 3) -> float:
    """The median milliseconds of one hint answered by the library in this process (read + advise + JSON)."""
    from cpsolve.answers import hints
    from cpsolve.formats.lines import TextSource
    from cpsolve.formats.puzzle import read_puzzle

    times = []
    for _ in range(rounds):
        for text in positions:
            began = time.perf_counter()
            hints.hint(read_puzzle(TextSource("position", text)), time_limit=10).json()
            times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=("mixed", "beside", "hints"), default="mixed")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--slow-clients", type=int, default=3, help="mixed: the clients asking long work")
    parser.add_argument("--seconds", type=float, default=300.0, help="how long the load lasts (at most 600)")
    parser.add_argument("--think", type=float, default=0.5, help="seconds a quick client waits between requests")
    parser.add_argument("--workers", type=int, default=2, help="the server's quick-lane solver processes")
    parser.add_argument("--long-workers", type=int, default=2, help="the server's long-lane solver processes")
    parser.add_argument("--queue", type=int, default=64, help="the server's --queue")
    parser.add_argument("--positions", type=int, default=40, help="distinct expert positions")
    parser.add_argument("--max-requests", type=int, default=1_000_000, help="requests in all, at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    options = parser.parse_args()
    if not 0 < options.seconds <= 600 or not 1 <= options.clients <= 1000:
        parser.error("--seconds must be in (0, 600] and --clients in 1..1000: the load is bounded")
    if not 0 <= options.slow_clients < options.clients:
        parser.error("--slow-clients must be from 0 to fewer than --clients")
    if options.scenario == "beside":
        print(json.dumps(run_beside(options)))
        return
    if options.scenario == "mixed":
        figures = run_mixed(options)
        if options.json:
            print(json.dumps(figures))
        else:
            print_mixed(figures)
        return

    positions = expert_positions(options.positions, options.seed)
    peer_ms = library_peer(positions)
    server, url = start_server(options.workers, options.queue)
    try:
        asyncio.run(load(url, positions[:4], 4, 2.0, 0.0, 200))  # warm-up: the solver processes' first answers
        before = resident_kib(server.pid)
        figures = asyncio.run(
            load(url, positions, options.clients, options.seconds, options.think, options.max_requests)
        )
        after = resident_kib(server.pid)
    finally:
        # SIGTERM: the server's clean stop (exit 0); Ctrl-C's SIGINT would have it say "interrupted"
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    figures.update(
        {
            "clients": options.clients,
            "think_s": options.think,
            "workers": options.workers,
            "positions": len(positions),
            "library_hint_ms": round(peer_ms, 2),
            "p50_over_library": round(figures["p50_ms"] / peer_ms, 1),
            "server_rss_mib_before": round(before / 1024, 1),
            "server_rss_mib_after": round(after / 1024, 1),
            "load_average": os.getloadavg(),
        }
    )
    if options.json:
        print(json.dumps(figures))
        return
    errors = sum(figures["errors"].values())
    print(
        f"{figures['clients']} clients (think {options.think:g} s), {options.workers} solver processes, "
        f"{figures['positions']} expert positions, {figures['seconds']} s"
    )
    print(f"requests {figures['requests']}, throughput {figures['throughput']}/s, errors {errors} {figures['errors']}")
    print(
        f"latency ms: p50 {figures['p50_ms']}, p95 {figures['p95_ms']}, p99 {figures['p99_ms']}, "
        f"max {figures['max_ms']}"
    )
    print(
        f"library, in process: {figures['library_hint_ms']} ms a hint; "
        f"HTTP p50 / library = {figures['p50_over_library']}"
    )
    print(
        f"server memory (RSS, solver processes included): {figures['server_rss_mib_before']} MiB before, "
        f"{figures['server_rss_mib_after']} MiB after"
    )
    print(f"load average: {' '.join(f'{value:.2f}' for value in figures['load_average'])}")


if __name__ == "__main__":
    main()
