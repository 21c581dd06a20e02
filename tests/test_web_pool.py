"""The solver pool on its own: lanes that do not wait for each other, bounded queues, the memory bound and the
recycling of processes, the stop with its grace. Each test runs a real pool of forked processes.

The functions the workers run are this module's (a worker imports it by name, as it imports the
server's work).
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from cpsolve.errors import TimeLimitError
from cpsolve.web.pool import Busy, Lane, OutOfMemory, SolverPool, Stopping

pytestmark = pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="the pool's memory figures need /proc")

MIB = 1 << 20
#: What the tests' workers keep alive between calls: a leak, which only a new process hands back.
_KEPT: list[bytes] = []


def _allocate(mib: int) -> int:
    """Allocate and touch `mib` MiB, give it back, answer how much was asked."""
    block = bytearray(mib * MIB)
    block[::4096] = b"\1" * len(block[::4096])
    return len(block) // MIB


def _leak(mib: int) -> int:
    """Keep `mib` MiB alive after the call, in 1 MiB pieces that are each touched."""
    for _ in range(mib):
        _KEPT.append(os.urandom(4096) * 256)
    return len(_KEPT)


def _resident_mib(pid: int) -> float:
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / MIB


async def _present() -> bool:
    return False


def run(scenario, *lanes: Lane, **settings):
    """Run ``scenario(pool)`` on a started pool with these lanes, and close the pool after."""

    async def whole():
        pool = SolverPool(lanes, **settings)
        try:
            await pool.start(os.getpid)
            return await scenario(pool)
        finally:
            pool.close()

    return asyncio.run(whole())


def test_a_lane_full_of_long_work_does_not_make_the_quick_lane_wait():
    async def scenario(pool):
        began = time.perf_counter()
        long_calls = [asyncio.ensure_future(pool.run("long", time.sleep, (3,), 10, _present)) for _ in range(2)]
        await asyncio.sleep(0.2)
        quick = [await pool.run("quick", os.getpid, (), 10, _present) for _ in range(20)]
        quick_done = time.perf_counter() - began
        still_running = [not call.done() for call in long_calls]
        await asyncio.gather(*long_calls)
        return quick, quick_done, still_running

    quick, quick_done, still_running = run(scenario, Lane("quick", 1, 4), Lane("long", 2, 2, nice=10))
    assert len(set(quick)) == 1 and quick_done < 3  # one quick worker answered all 20 while both long ones slept
    assert still_running == [True, True]


def test_a_full_lane_refuses_at_once_and_says_when_to_try_again():
    async def scenario(pool):
        running = asyncio.ensure_future(pool.run("long", time.sleep, (2,), 10, _present))
        waiting = asyncio.ensure_future(pool.run("long", time.sleep, (0,), 10, _present))
        await asyncio.sleep(0.2)
        began = time.perf_counter()
        with pytest.raises(Busy) as refused:
            await pool.run("long", os.getpid, (), 10, _present)
        refused_after = time.perf_counter() - began
        quick = await pool.run("quick", os.getpid, (), 10, _present)
        await asyncio.gather(running, waiting)
        return refused.value, refused_after, quick, pool.taken("long")

    refusal, after, quick, left = run(scenario, Lane("quick", 1, 1), Lane("long", 1, 2, retry_after=7))
    assert refusal.retry_after == 7 and "long lane" in str(refusal) and after < 0.1
    assert quick > 0 and left == 0


def test_work_past_the_memory_bound_is_stopped_and_its_process_replaced():
    async def scenario(pool):
        (first,) = pool.pids()
        with pytest.raises(OutOfMemory) as stopped:
            await pool.run("quick", _allocate, (1024,), 30, _present)
        await asyncio.sleep(0.5)  # the replacement starts in the background
        (second,) = pool.pids()
        answered = await pool.run("quick", _allocate, (64,), 30, _present)  # within the bound: answered
        return first, second, stopped.value, answered, pool.recycled

    first, second, stopped, answered, recycled = run(scenario, Lane("quick", 1, 2), memory_mib=512)
    assert stopped.limit_mib == 512 and "512 MiB" in str(stopped)
    assert first != second and answered == 64 and recycled == 1


def test_a_process_that_keeps_memory_after_a_call_is_replaced_and_an_idle_one_is_small():
    async def scenario(pool):
        (first,) = pool.pids()
        start = _resident_mib(first)
        kept = await pool.run("quick", _leak, (300,), 60, _present)
        await asyncio.sleep(0.5)
        (second,) = pool.pids()
        after = _resident_mib(second)
        freed = await pool.run("quick", _allocate, (300,), 60, _present)  # freed before the answer: trimmed
        (third,) = pool.pids()
        return first, second, third, start, after, kept, freed, _resident_mib(third), pool.recycled

    first, second, third, start, after, kept, freed, idle, recycled = run(
        scenario, Lane("quick", 1, 2), memory_mib=2048, recycle_mib=256
    )
    assert kept == 300 and freed == 300
    assert first != second and recycled == 1  # 300 MiB kept: past 256 MiB, so replaced
    assert second == third  # 300 MiB used and given back: the process stays
    assert after < start + 64 and idle < start + 64  # each holds about what a fresh process does


def test_the_hard_limit_is_the_projects_time_limit_error():
    async def scenario(pool):
        with pytest.raises(TimeLimitError):
            await pool.run("quick", time.sleep, (30,), 0.3, _present)
        return await pool.run("quick", os.getpid, (), 10, _present)

    assert run(scenario, Lane("quick", 1, 1)) > 0


def test_a_stop_refuses_waiting_work_at_once_and_running_work_after_its_grace():
    async def scenario(pool):
        short = asyncio.ensure_future(pool.run("quick", time.sleep, (0.5,), 10, _present))
        long = asyncio.ensure_future(pool.run("long", time.sleep, (30,), 60, _present))
        waiting = asyncio.ensure_future(pool.run("long", time.sleep, (0,), 60, _present))
        await asyncio.sleep(0.2)
        began = time.perf_counter()
        pool.stop(1.5)
        outcomes = await asyncio.gather(short, long, waiting, return_exceptions=True)
        seconds = time.perf_counter() - began
        with pytest.raises(Stopping):
            await pool.run("quick", os.getpid, (), 10, _present)
        return outcomes, seconds

    (short, long, waiting), seconds = run(scenario, Lane("quick", 1, 2), Lane("long", 1, 2))
    assert short is None  # finished within the grace: its own answer
    assert isinstance(long, Stopping) and isinstance(waiting, Stopping)
    assert 1.4 < seconds < 3
