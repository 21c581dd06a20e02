"""``cpsolve serve`` as a process: quick questions beside slow ones, requests HTTP cannot read, memory when idle,
and stops by every signal with every solver process ending with the server.

Each test starts ``python -m cpsolve serve --port 0`` in a session of its own (so every process it
starts can be found by its session id) and talks to it over loopback.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from bruteforce_puzzle import solutions

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the processes")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: A no-guess request no board meets (30x30, 400 mines, casual player): it draws boards for its whole time limit.
HOPELESS = {"rows": 30, "cols": 30, "mines": 400, "player": "casual"}


class Server:
    """``cpsolve serve`` started in a session of its own, its address read from its first line."""

    def __init__(self, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cpsolve", "serve", "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert found, (line, self.process.stderr.read() if self.process.poll() is not None else "")
        self.port = int(found.group(1))
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _, _ = self.request("GET", "/api/health")
                assert status == 200
                break
            except OSError:
                assert time.monotonic() < deadline and self.process.poll() is None
                time.sleep(0.2)

    def request(self, method: str, path: str, body: dict | None = None, timeout: float = 120):
        """(status, headers, JSON answer) of one request on a connection of its own."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = None if body is None else json.dumps(body).encode()
            connection.request(method, path, data, {"Content-Type": "application/json"} if data else {})
            response = connection.getresponse()
            text = response.read()
            return response.status, dict(response.getheaders()), json.loads(text) if text else None
        finally:
            connection.close()

    def in_background(self, path: str, body: dict) -> dict:
        """Send a request from a thread; the dict gets its ``answer`` (or ``error``) and ``seconds``."""
        result: dict = {}

        def send():
            began = time.perf_counter()
            try:
                result["answer"] = self.request("POST", path, body)
            except (OSError, http.client.HTTPException) as error:
                result["error"] = error
            result["seconds"] = time.perf_counter() - began

        result["thread"] = threading.Thread(target=send, daemon=True)
        result["thread"].start()
        return result

    def group(self) -> list[int]:
        """The live processes of the server's session: the server, its forkserver, tracker and solvers."""
        return session_processes(self.process.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


def session_processes(session: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == session and fields[0] != "Z":  # state, ppid, pgrp, session
            found.append(int(entry.name))
    return found


def resident_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1])
        except OSError:
            continue
    return total * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def gone_within(session: int, seconds: float) -> list[int]:
    """The session's processes still alive after waiting up to `seconds` for them to end."""
    deadline = time.monotonic() + seconds
    while (left := session_processes(session)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


@pytest.fixture(scope="module")
def server():
    """One server for the tests that leave it running."""
    started = Server("--time-limit", "30")
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def stopped_server():
    """A server of the test's own, to be stopped; three long-lane processes, so the test's three requests all run."""
    started = Server("--time-limit", "30", "--long-workers", "3")
    try:
        yield started
    finally:
        started.stop()


# -- quick beside slow ----------------------------------------------------------------------------


def _three_by_three(seed: int) -> tuple[str, int]:
    """A 3x3 clue puzzle with a total and its number of solutions by brute force."""
    import random

    rng = random.Random(seed)
    mines = set(rng.sample([(r, c) for r in range(3) for c in range(3)], 2))
    clue = next(cell for cell in [(r, c) for r in range(3) for c in range(3)] if cell not in mines)
    value = sum((r, c) in mines for r in range(clue[0] - 1, clue[0] + 2) for c in range(clue[1] - 1, clue[1] + 2))
    rows = ["".join(str(value) if (r, c) == clue else "." for c in range(3)) for r in range(3)]
    unknown = {(r, c) for r in range(3) for c in range(3)} - {clue}
    return "3 3 2\n" + "\n".join(rows) + "\n", len(solutions({clue: value}, set(), unknown, 2))


@pytest.mark.slow  # three slow requests run while the quick ones are answered
def test_quick_questions_are_answered_while_three_slow_ones_still_run(server, runner):
    from cpsolve.cli import app as cli

    slow = [server.in_background("/api/generate", {**HOPELESS, "seed": seed, "time_limit": 12}) for seed in range(3)]
    time.sleep(1.0)
    opening = EXAMPLES / "best" / "intermediate_opening.txt"
    result = runner.invoke(cli, ["hint", str(opening), "--format", "json"])
    expected_hint = {key: value for key, value in json.loads(result.stdout).items() if key != "file"}
    seconds = []
    for number in range(20):
        began = time.perf_counter()
        if number % 2:
            status, _, answer = server.request("POST", "/api/hint", {"position": opening.read_text()})
            assert status == 200 and answer == expected_hint
        else:
            text, count = _three_by_three(number)
            status, _, answer = server.request("POST", "/api/puzzle", {"position": text, "count": True})
            assert status == 200 and answer["count"] == count
        seconds.append(time.perf_counter() - began)
    still_running = [item["thread"].is_alive() for item in slow]
    for item in slow:
        item["thread"].join(timeout=60)
    assert still_running == [True, True, True], "the quick questions waited for the slow ones"
    assert max(seconds) < 5, seconds  # 1 s at most on a quiet machine (docs/benchmarks.md); a margin for CI
    for item in slow:  # two ran at once, the third waited for a long-lane process: each its own 504
        status, _, answer = item["answer"]
        assert status == 504 and "not found" in answer["error"]


# -- what HTTP cannot read -------------------------------------------------------------------------


@pytest.mark.parametrize("length", ["abc", "-5", "1 2", "99999999999999999999999"])
def test_a_malformed_content_length_is_a_json_400(server, length):
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        connection.sendall(
            f"POST /api/hint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
            '{"position": "1.\\n"}'.encode()
        )
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 4") and b"content-type: application/json" in head.lower()
    answer = json.loads(body)
    assert list(answer) == ["error"] and answer["error"].startswith("the request cannot be read as HTTP")
    assert server.request("GET", "/api/health")[0] == 200  # and the server goes on


# -- memory ----------------------------------------------------------------------------------------


@pytest.mark.slow  # a heavy request, then the server idle
def test_after_a_heavy_request_the_idle_server_holds_less_than_a_gibibyte(server):
    """A 100x100 position whose exact count, certain cells and chances are asked for: the engine's work on
    it grows a solver process past a gibibyte within its time limit. Once answered, the server and all its
    processes hold less than 1 GiB, as the process is handed back what it freed or replaced."""
    start = resident_mib(server.group())
    position = "100 100 2000\n" + "\n".join(("1." * 50) if r % 2 == 0 else "." * 100 for r in range(100)) + "\n"
    body = {"position": position, "count": True, "deduce": True, "probabilities": True, "time_limit": 10}
    status, _, answer = server.request("POST", "/api/puzzle", body)
    assert status in (200, 422, 504) and (status != 200 or answer["status"] in ("solved", "unknown"))
    time.sleep(1.0)
    idle = resident_mib(server.group())
    assert idle < 1024, (start, idle)
    assert idle < start + 256, (start, idle)


# -- stops -----------------------------------------------------------------------------------------


def _stop_with(server: Server, signals: list[tuple[signal.Signals, bool]], pause: float = 0.5):
    """Send slow work, then each (signal, to the whole group?) in turn; the outcome once the server has ended."""
    session = server.process.pid
    busy = [server.in_background("/api/generate", {**HOPELESS, "seed": seed, "time_limit": 25}) for seed in range(2)]
    quick = server.in_background("/api/generate", {**HOPELESS, "seed": 9, "time_limit": 0.5})
    time.sleep(1.5)
    assert len(server.group()) >= 5  # the server, the forkserver, the resource tracker and its solvers
    began = time.perf_counter()
    for number, (sent, to_group) in enumerate(signals):
        if number:
            time.sleep(pause)
        if to_group:
            os.killpg(session, sent)
        else:
            os.kill(session, sent)
    out, err = server.process.communicate(timeout=60)
    ended = time.perf_counter() - began
    for item in [*busy, quick]:
        item["thread"].join(timeout=30)
    return busy, quick, ended, err, gone_within(session, 10)


@pytest.mark.slow  # waits out the grace
@pytest.mark.parametrize(
    "signals,code,stderr",
    [
        ([(signal.SIGINT, True)], 130, "cpsolve: interrupted\n"),  # Ctrl-C in a terminal: the whole group
        ([(signal.SIGINT, False)], 130, "cpsolve: interrupted\n"),  # kill -INT: the server alone
        ([(signal.SIGTERM, True)], 0, ""),  # a service manager stopping every process of the group
        ([(signal.SIGTERM, False)], 0, ""),
    ],
    ids=["sigint-group", "sigint", "sigterm-group", "sigterm"],
)
def test_a_stop_answers_the_work_in_progress_and_ends_every_process(stopped_server, signals, code, stderr):
    server = stopped_server
    busy, quick, ended, err, left = _stop_with(server, signals)
    assert server.process.returncode == code and err == stderr
    assert left == [], "processes outlived the server"
    status, headers, answer = quick["answer"]  # finished within the grace: its own answer
    assert status == 504 and "not found in 0.5 s" in answer["error"]
    for item in busy:  # stopped after the grace, answered in JSON
        status, headers, answer = item["answer"]
        assert status == 503 and answer == {"error": "the server is stopping; the request was not answered"}
        assert headers["content-type"] == "application/json"
        assert 4 < item["seconds"] < 15
    assert ended < 15


@pytest.mark.slow
def test_a_second_ctrl_c_stops_the_work_at_once(stopped_server):
    server = stopped_server
    busy, _, ended, err, left = _stop_with(server, [(signal.SIGINT, True), (signal.SIGINT, True)])
    assert server.process.returncode == 130 and err == "cpsolve: interrupted\n"
    assert left == [], "processes outlived the server"
    assert ended < 4  # well within the grace
    for item in busy:  # answered 503 in JSON, or the connection closed: never a plain-text 500
        if "answer" in item:
            status, _, answer = item["answer"]
            assert status == 503 and list(answer) == ["error"]


@pytest.mark.slow
def test_a_killed_server_leaves_no_process_behind(stopped_server):
    server = stopped_server
    busy, _, _, err, left = _stop_with(server, [(signal.SIGKILL, False)])
    assert server.process.returncode == -signal.SIGKILL
    assert left == [], "processes outlived the server"
    assert all("error" in item for item in busy)  # the connections closed: nobody was there to answer
    assert "Traceback" not in err
