"""The command group: every command listed and loaded on demand, suggestions, and what a command imports."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from cpsolve.cli import app
from cpsolve.cli.app import COMMANDS


def test_help_lists_every_command_and_each_runs_its_own_help(runner):
    listed = runner.invoke(app, ["--help"])
    assert listed.exit_code == 0
    for name in COMMANDS:
        assert f" {name} " in listed.stdout
        own = runner.invoke(app, [name, "--help"])
        assert own.exit_code == 0 and "Usage:" in own.stdout, name


def test_a_misspelt_command_is_a_usage_error_with_a_suggestion(runner):
    result = runner.invoke(app, ["layuot", "3", "3", "1"])
    assert result.exit_code == 2 and "Did you mean 'layout'" in result.output


def test_a_command_imports_only_what_it_needs():
    """``layout R C M`` loads neither the other commands nor the deduction engine, OR-Tools or Dask."""
    probe = (
        "import sys\nfrom cpsolve.cli import main\nsys.argv = ['cpsolve', 'layout', '3', '3', '1']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    loaded = set(done.stderr.split())
    assert done.stdout.splitlines() == ["c..", "...", "..*"]
    assert "cpsolve.cli.layout" in loaded
    for heavy in (
        "cpsolve.cli.puzzle",
        "cpsolve.cli.compare",
        "cpsolve.deduce",
        "ortools",
        "dask",
        "networkx",
        "cpsolve.cli.game",
        "cpsolve.play.session",
        "textual",
    ):
        assert heavy not in loaded, heavy


def test_an_error_caused_by_ctrl_c_is_an_interruption(runner, monkeypatch):
    """Ctrl-C during an import surfaces as the import's error (OR-Tools: "initialization failed")."""

    def interrupted_import(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as error:
            raise ImportError("initialization failed") from error

    monkeypatch.setattr("cpsolve.answers.layouts.solve", interrupted_import)
    result = runner.invoke(app, ["layout", "3", "3", "1"])
    assert result.exit_code == 130 and result.stderr == "cpsolve: interrupted\n"


@pytest.mark.slow  # a real CP-SAT search in a child process
def test_ctrl_c_in_a_cp_sat_search_is_an_interruption_not_a_time_limit(tmp_path):
    """CP-SAT would catch SIGINT and end the search as if the time had run out (exit 3, "time limit");
    cpsolve stops the search itself and says it was interrupted (exit 130), at once."""
    import os
    import signal
    import time

    # an open 40x40 board, a pinned click and three fixed safe cells far apart, N = 170: just above the
    # dilation rule's bound (167, which proves N = 160 Impossible at once), the model alone searches for
    # many seconds
    rows = [["?"] * 40 for _ in range(40)]
    for (row, col), mark in {(10, 28): ".", (26, 19): ".", (33, 0): ".", (38, 33): "c"}.items():
        rows[row][col] = mark
    template = tmp_path / "open.txt"
    template.write_text("\n".join("".join(row) for row in rows) + "\n")
    command = [
        sys.executable,
        "-m",
        "cpsolve",
        "layout",
        "1430",
        "--template",
        str(template),
        "--phases",
        "none",
        "--time-limit",
        "60",
        "--stats",
        "--log",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    # CP-SAT's own log (--log) says when the search starts: interrupt then, not after a guessed delay
    for line in process.stderr:
        if line.startswith(("Starting search", "Starting deterministic search")):
            break
    time.sleep(0.5)  # into the search
    assert process.poll() is None, "the search ended before it could be interrupted"
    pressed = time.monotonic()
    os.kill(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert stderr.splitlines()[-1] == "cpsolve: interrupted" and stdout == ""
    assert time.monotonic() - pressed < 10


def test_the_game_checks_its_options_and_its_terminal_before_loading_textual():
    """``game`` fails on bad options (exit 1 or 2) and off a terminal (exit 2), Textual never loaded."""
    probe = (
        "import sys\nfrom cpsolve.cli import main\nsys.argv = ['cpsolve', 'game'] + sys.argv[1:]\n"
        "try:\n    main()\nexcept SystemExit as done:\n    print(done.code, 'textual' in sys.modules)"
    )
    for args, code in (
        (["9", "9"], 2),
        (["--level", "expert", "9", "9", "10"], 2),
        (["9", "9", "78"], 1),
        (["--level", "beginner"], 2),
        (["--no-guess", "best"], 2),
    ):
        done = subprocess.run(
            [sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
        )
        assert done.stdout.split() == [str(code), "False"], (args, done.stdout, done.stderr)
        assert done.stderr.startswith("cpsolve: ") and len(done.stderr.splitlines()) == 1


_INTERRUPT_AT = """
import builtins, sys
target = sys.argv.pop(1)
real = builtins.__import__
fired = []

def interrupting_import(name, *args, **kwargs):
    if name == target and not fired:
        fired.append(name)
        raise KeyboardInterrupt  # as a Ctrl-C in the middle of loading the command line
    return real(name, *args, **kwargs)

builtins.__import__ = interrupting_import
from cpsolve.cli import main
sys.argv = ["cpsolve", "layout", "3", "3", "1"]
main()
"""


@pytest.mark.parametrize(
    "module",
    ["typer", "typer.core", "cpsolve.cli.app", "cpsolve.cli.options", "cpsolve.interrupt", "cpsolve.layout", "numpy"],
)
def test_ctrl_c_while_the_command_line_loads_is_one_line_and_130(module):
    done = subprocess.run([sys.executable, "-c", _INTERRUPT_AT, module], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr, done.stdout) == (130, "cpsolve: interrupted\n", "")


def _layout_in_a_child(prelude: str) -> subprocess.CompletedProcess[str]:
    """``cpsolve layout 3 3 1`` run by the console script's main() in a child process, after the Python `prelude`."""
    script = (
        prelude + "import sys\nfrom cpsolve.cli import main\nsys.argv = ['cpsolve', 'layout', '3', '3', '1']\nmain()\n"
    )
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)


def test_ctrl_c_inside_typer_building_a_command_is_130_not_a_kill_by_sigint():
    """typer evaluates the commands' annotations with eval(); CPython remembers a KeyboardInterrupt that left one
    and killed the process by SIGINT at exit (-2), after cpsolve had said "interrupted"."""
    done = _layout_in_a_child(
        "import typer\nreal = typer.Option\nfired = []\n"
        "def option(*args, **kwargs):\n"
        "    if not fired:\n        fired.append(1)\n        raise KeyboardInterrupt\n"
        "    return real(*args, **kwargs)\n"
        "typer.Option = option\n"
    )
    assert (done.returncode, done.stderr, done.stdout) == (130, "cpsolve: interrupted\n", "")


def _layout_with_a_press(when: str) -> subprocess.CompletedProcess[str]:
    """``cpsolve layout 3 3 1`` in a child process, with a Ctrl-C (a KeyboardInterrupt in the main thread) at the
    moment the command has written its answer: `when` is "before" it returns or "after" it has returned."""
    return _layout_in_a_child(
        "import cpsolve.interrupt as held\nreal = held.mark_answered\n"
        "def press():\n"
        f"    if {when!r} == 'after':\n        real()\n"
        "    raise KeyboardInterrupt\n"
        "held.mark_answered = press\n"
    )


def test_ctrl_c_after_the_whole_answer_changes_nothing():
    done = _layout_with_a_press("after")
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "c..\n...\n..*\n")


def test_ctrl_c_while_the_process_exits_after_the_answer_changes_nothing():
    """A real SIGINT once the command has answered, while Python runs its exit handlers (a CI run once had one
    land in an import's clean-up there, which printed "Exception ignored ... KeyboardInterrupt"): ignored."""
    done = _layout_in_a_child(
        "import atexit, os, signal, time\n"
        "def press():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(0.2)  # Python's own handler would raise KeyboardInterrupt here\n"
        "atexit.register(press)\n"
    )
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "c..\n...\n..*\n")


def test_ctrl_c_before_the_command_ends_is_an_interruption():
    """A press after the board is written but before the command has ended: exit 130 and the line say so (what was
    written stays written: click flushes each line it echoes)."""
    done = _layout_with_a_press("before")
    assert (done.returncode, done.stderr) == (130, "cpsolve: interrupted\n")


@pytest.mark.slow  # dozens of child processes, each interrupted at another moment
def test_ctrl_c_at_any_moment_of_start_up():
    """A real SIGINT at moments spread over the start-up: 130 and one line once cpsolve's code runs; before that
    (Python itself starting) Python's own ending, with nothing of cpsolve's in it."""
    import os
    import signal
    import time

    outcomes = set()
    for step in range(24):
        process = subprocess.Popen(
            [sys.executable, "-m", "cpsolve", "layout", "3", "3", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(0.01 + step * 0.015)
        os.kill(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
        if process.returncode == 130:
            # the board, echoed line by line, may be partly or wholly out when the press lands before the end
            assert stderr == "cpsolve: interrupted\n" and "c..\n...\n..*\n".startswith(stdout), (stderr, stdout)
        elif process.returncode == 0:
            # a press that lands while Python runs an import lock's clean-up callback is swallowed by Python
            # itself ("Exception ignored in ... _get_module_lock ... KeyboardInterrupt") and the command goes on
            assert stdout == "c..\n...\n..*\n" and (stderr == "" or _swallowed_by_python(stderr)), stderr
        else:
            # nothing of cpsolve's: no line of its own, no frame in its package
            ours = "cpsolve:" in stderr or not _python_starting(stderr)
            assert process.returncode in (1, -signal.SIGINT) and not ours, (process.returncode, stderr)
        outcomes.add(process.returncode)
    assert 130 in outcomes


def _swallowed_by_python(stderr: str) -> bool:
    """Whether stderr is only Python's note of a KeyboardInterrupt it ignored in an import lock's callback."""
    return (
        stderr.startswith("Exception ignored in: <function _get_module_lock.<locals>.cb")
        and stderr.rstrip().endswith("KeyboardInterrupt:")
        and "cpsolve" not in stderr
    )


def _python_starting(stderr: str) -> bool:
    """Whether a traceback is Python's own start-up: no frame of cpsolve's but the package's import itself
    (``cpsolve/__init__.py`` and its lazy loader), before any code of the command line runs."""
    import re

    frames = re.findall(r'File "[^"]*[/\\]cpsolve[/\\]([^"]+)"', stderr)
    return set(frames) <= {"__init__.py", "lazy.py"}


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "four", "9", "10"],
        ["game", "four", "9", "10"],
        ["stats", "--random", "9", "9", "x"],
        ["layout", "four", "7", "3"],
        ["puzzle"],
        ["hint", "--bogus", "x"],
        ["casual", "--player", "nobody", "x"],
        ["generate", "9", "9", "10", "--player", "best"],
        ["compare", "--rows"],
        ["lyout", "3", "3", "1"],
        ["--bogus"],
    ],
    ids=lambda args: " ".join(args),
)
def test_every_usage_error_is_one_line_and_exit_2(args):
    """Click's own refusals (a value of the wrong type, an unknown option or choice, a missing argument) and
    cpsolve's are worded alike: one line on stderr, exit 2, no box."""
    done = subprocess.run([sys.executable, "-m", "cpsolve", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("cpsolve: ") and len(done.stderr.splitlines()) == 1, done.stderr
    assert "╭" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize("name", COMMANDS)
def test_help_at_80_columns_reads_as_prose_with_whole_choices_and_named_values(name):
    """Each command's --help at 80 columns: no line wider, paragraphs rewrapped (no hand-written breaks
    leaving short lines inside a paragraph), choice lists whole on one line, and values named (FILE, N,
    ROW,COL), never shown by their Python type."""
    done = subprocess.run(
        [sys.executable, "-m", "cpsolve", name, "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert not any(kind in done.stdout for kind in ("<str>", "<int>", "<float>", "<text>", "<integer>"))
    for line in lines:  # an option's choice list opened on its line closes on it
        named = re.match(r"^  (-\S.*?)(\s{2,}|$)", line)
        if named:
            assert named.group(1).count("<") == named.group(1).count(">"), line
    description = lines[2 : next(i for i, line in enumerate(lines) if line in ("Arguments:", "Options:"))]
    paragraphs: list[list[str]] = [[]]
    for line in description:
        if line.strip():
            paragraphs[-1].append(line)
        else:
            paragraphs.append([])
    for paragraph in paragraphs:
        for line in paragraph[:-1]:  # every line of a paragraph but its last is filled
            assert len(line) >= 60, (name, line)
