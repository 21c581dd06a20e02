"""The web server's pool against the library pools it could use: the same hints, the same callers, in turn.

Each pool runs ``cpsolve.web.work.answer("hint", ...)`` on expert mid-game positions (the quick
lane's typical work, 1 to 2 ms each) for --callers coroutines at once on one asyncio loop, as
the server's event loop would, until --calls calls in all. Pools, each with --workers processes:

- ``cpsolve``: :class:`cpsolve.web.pool.SolverPool` (pipes the event loop watches itself);
- ``pebble``: Pebble's ``ProcessPool`` (``schedule`` with a timeout; a future's ``cancel`` stops a
  running call), its futures awaited through ``asyncio.wrap_future``;
- ``loky``: loky's reusable executor (cannot stop a running call);
- ``stdlib``: ``concurrent.futures.ProcessPoolExecutor`` on a forkserver (cannot stop a running call).

Reported for each: calls a second, latency p50/p99, and the CPU the server's own process spent a
call (user + system over all its threads, from ``getrusage``): what a pool costs the process that
also has to speak HTTP. The pools run in turn, --rounds times, so a busy machine weighs on each alike.

Usage:
    pip install pebble loky   # the two library pools (not cpsolve's dependencies)
    python benchmarks/serve_pools.py [--workers 2] [--callers 50] [--calls 3000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import multiprocessing
import os
import resource
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from serve_load import expert_positions  # noqa: E402

from cpsolve.web.pool import Lane, SolverPool  # noqa: E402
from cpsolve.web.work import PRELOAD, answer  # noqa: E402

Caller = Callable[[dict[str, Any]], Awaitable[Any]]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _drive(call: Caller, bodies: list[dict[str, Any]], callers: int, calls: int) -> dict[str, float]:
    latencies: list[float] = []
    sent = 0

    async def caller(number: int) -> None:
        nonlocal sent
        turn = number
        while sent < calls:
            sent += 1
            began = time.perf_counter()
            status, _, _ = await call(bodies[turn % len(bodies)])
            assert status == 200
            latencies.append(time.perf_counter() - began)
            turn += callers

    cpu, began = _cpu(), time.perf_counter()
    await asyncio.gather(*(caller(number) for number in range(callers)))
    seconds, cpu = time.perf_counter() - began, _cpu() - cpu
    ordered = sorted(latencies)
    return {
        "per_s": len(ordered) / seconds,
        "p50_ms": ordered[len(ordered) // 2] * 1000,
        "p99_ms": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000,
        "server_cpu_ms_per_call": cpu / len(ordered) * 1000,
    }


async def _present() -> bool:
    return False


async def run_cpsolve(workers: int, bodies: list[dict[str, Any]], callers: int, calls: int) -> dict[str, float]:
    pool = SolverPool([Lane("quick", workers, 10_000)], preload=PRELOAD)
    await pool.start(os.getpid)
    try:
        return await _drive(
            lambda body: pool.run("quick", answer, ("hint", body), 30, _present), bodies, callers, calls
        )
    finally:
        pool.close()


async def run_pebble(workers: int, bodies: list[dict[str, Any]], callers: int, calls: int) -> dict[str, float]:
    from pebble import ProcessPool

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    pool = ProcessPool(max_workers=workers, context=context)
    try:
        return await _drive(
            lambda body: asyncio.wrap_future(pool.schedule(answer, ("hint", body), timeout=30)), bodies, callers, calls
        )
    finally:
        pool.stop()
        pool.join()


async def run_loky(workers: int, bodies: list[dict[str, Any]], callers: int, calls: int) -> dict[str, float]:
    from loky import get_reusable_executor

    executor = get_reusable_executor(max_workers=workers)
    try:
        return await _drive(
            lambda body: asyncio.wrap_future(executor.submit(answer, "hint", body)), bodies, callers, calls
        )
    finally:
        executor.shutdown(wait=True, kill_workers=True)


async def run_stdlib(workers: int, bodies: list[dict[str, Any]], callers: int, calls: int) -> dict[str, float]:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    executor = concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        return await _drive(
            lambda body: asyncio.wrap_future(executor.submit(answer, "hint", body)), bodies, callers, calls
        )
    finally:
        executor.shutdown(wait=True)


POOLS = {"cpsolve": run_cpsolve, "pebble": run_pebble, "loky": run_loky, "stdlib": run_stdlib}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--callers", type=int, default=50)
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pools", default=",".join(POOLS))
    options = parser.parse_args()
    positions = expert_positions(40, 1)
    bodies = [{"position": text, "mines": None, "no_total": False, "seed": 0, "time_limit": 10.0} for text in positions]
    results: dict[str, list[dict[str, float]]] = {}
    for _ in range(options.rounds):
        for name in options.pools.split(","):
            try:
                figures = asyncio.run(POOLS[name](options.workers, bodies, options.callers, options.calls))
            except ImportError as missing:
                print(f"{name}: not installed ({missing.name})")
                continue
            results.setdefault(name, []).append(figures)
    print(f"{options.workers} workers, {options.callers} callers, {options.calls} hints a run, load {os.getloadavg()}")
    for name, runs in results.items():
        keys = runs[0].keys()
        shown = ", ".join(f"{key} {statistics.median(run[key] for run in runs):.2f}" for key in keys)
        print(f"{name:8} {shown}  ({len(runs)} runs)")


if __name__ == "__main__":
    main()
