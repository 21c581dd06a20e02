"""Load on ``cpsolve serve``: many clients asking hints on expert positions, on loopback, for a bounded time.

The server is started here (``python -m cpsolve serve`` on 127.0.0.1, a free port) and stopped
at the end; the load goes to that loopback address only, and every client stops at the deadline
or after --max-requests in all, whichever comes first. Each client posts ``/api/hint`` on expert
mid-game positions (16x30, 99 mines: seeded deals played some moves by the best player's hints),
waits for the answer, thinks for --think seconds, and asks again.

Reported: requests, throughput, latency p50/p95/p99/max, errors by status (any answer but 200,
or a failed connection), the server's memory (resident, its solver processes included) before
and after, and the peer in the same run: the same hints answered by the library in this process
(``cpsolve.answers.hint``), so the HTTP path's cost reads as a ratio to the work itself.

Usage:
    python benchmarks/serve_load.py [--clients 50] [--seconds 60] [--think 0] [--workers 2] [--positions 40]

On a shared machine every figure is noisy: report ``uptime``'s load with them, and compare the
ratio to the peer rather than the milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path


def expert_positions(count: int, seed: int) -> list[str]:
    """Expert positions in the puzzle format: deal k (seed + k) played 5 + 3k mod 40 steps by the hints, unfinished."""
    from cpsolve.formats.puzzle import draw_position
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


def start_server(workers: int, queue: int) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "cpsolve", "serve", "--port", "0", "--workers", str(workers), "--queue", str(queue)],
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


def _request(host: str, port: int, body: bytes) -> bytes:
    """One keep-alive HTTP/1.1 POST of /api/hint, written once and sent as is."""
    head = (
        f"POST /api/hint HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> int:
    """Send a request and read its whole answer; its status code."""
    writer.write(request)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = next(int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:"))
    await reader.readexactly(length)
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
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load lasts (at most 600)")
    parser.add_argument("--think", type=float, default=0.0, help="seconds each client waits between requests")
    parser.add_argument("--workers", type=int, default=2, help="the server's solver processes")
    parser.add_argument("--queue", type=int, default=64, help="the server's --queue")
    parser.add_argument("--positions", type=int, default=40, help="distinct expert positions")
    parser.add_argument("--max-requests", type=int, default=1_000_000, help="requests in all, at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    options = parser.parse_args()
    if not 0 < options.seconds <= 600 or not 1 <= options.clients <= 1000:
        parser.error("--seconds must be in (0, 600] and --clients in 1..1000: the load is bounded")

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
