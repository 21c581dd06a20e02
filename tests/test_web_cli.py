"""``cpsolve serve`` as a command: its checks, the web extra loaded only by it, loopback, a clean stop on Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

PROBE = (
    "import sys\nfrom cpsolve.cli import main\nsys.argv = ['cpsolve'] + sys.argv[1:]\n"
    "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
    "loaded = ' '.join(name for name in ('fastapi', 'uvicorn', 'starlette', 'cpsolve.web') if name in sys.modules)\n"
    "print('probe:', code, loaded, file=sys.stderr)"
)


def probe(*args, block_web=False):
    """Run the command in a fresh interpreter: (exit code, web modules loaded, stderr)."""
    code = PROBE if not block_web else "import sys\nsys.modules['fastapi'] = None\n" + PROBE
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )
    *lines, last = done.stderr.splitlines(keepends=True)
    words = last.split()
    assert words[0] == "probe:", done.stderr
    return int(words[1]), words[2:], "".join(lines)


def test_help_and_the_other_commands_do_not_load_the_web_extra():
    for args in (["--help"], ["serve", "--help"], ["layout", "3", "3", "1"]):
        code, loaded, _ = probe(*args)
        assert code == 0 and loaded == [], (args, loaded)


@pytest.mark.parametrize(
    "args,message,exit_code",
    [
        (["--port", "70000"], "--port must be from 0 to 65535, got 70000", 1),
        (["--workers", "0"], "--workers must be from 1 to 256, got 0", 1),
        # a usage error, as in every command
        (["--time-limit", "0"], "--time-limit must be a number of seconds above 0 and at most 1000000, got 0", 2),
        (["--queue", "0"], "--queue must be from 1 to 100000, got 0", 1),
        (["--long-workers", "0"], "--long-workers must be from 1 to 256, got 0", 1),
        (["--long-queue", "0"], "--long-queue must be from 1 to 100000, got 0", 1),
        (["--memory-limit", "100"], "--memory-limit must be from 256 to 1048576 MiB, got 100", 1),
    ],
)
def test_bad_options_are_one_line_before_anything_is_loaded(args, message, exit_code):
    code, loaded, stderr = probe("serve", *args)
    assert code == exit_code and loaded == [] and stderr == f"cpsolve: {message}\n"


def test_without_the_web_extra_the_command_says_how_to_get_it():
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    code, _, stderr = probe("serve", "--port", "0", block_web=True)
    assert code == 2 and stderr.startswith("cpsolve: cpsolve serve needs the web extra") and "cpsolve[web]" in stderr


def test_a_port_in_use_is_one_line():
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, _, stderr = probe("serve", "--port", str(port))
    assert code == 1 and len(stderr.splitlines()) == 1
    assert stderr.startswith(f"cpsolve: cannot listen on 127.0.0.1 port {port}: ")


def _descendants(pid):
    found, pending = set(), [pid]
    while pending:
        current = pending.pop()
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                children = [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                continue
            found.update(children)
            pending.extend(children)
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the solver processes")
def test_serve_binds_loopback_prints_its_address_and_stops_cleanly_on_ctrl_c():
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    process = subprocess.Popen(
        [sys.executable, "-m", "cpsolve", "serve", "--port", "0", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert re.fullmatch(
            r"cpsolve serve: http://127\.0\.0\.1:\d+ \(open to this machine only\); Ctrl-C stops it\n", line
        )
        address = re.search(r"http://\S+", line).group(0)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(address + "/api/health", timeout=5) as answer:
                    assert json.load(answer)["status"] == "ok"
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.2)
        solvers = _descendants(process.pid)
        assert len(solvers) >= 3  # the forkserver and two solver processes
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130 and err == "cpsolve: interrupted\n" and out == ""
    time.sleep(0.5)
    left = [pid for pid in solvers if os.path.exists(f"/proc/{pid}") and "zombie" not in _state(pid)]
    assert left == [], "solver processes outlived the server"


def _state(pid):
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].splitlines()[0].lower()
    except (OSError, IndexError):
        return "zombie"
