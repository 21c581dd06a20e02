"""Every reader through the command line, on damaged input: one stderr line, an exit code 0-3, no traceback.

Two parts: the named cases of issue 21 (each fed once), then a hypothesis fuzz over random bytes and
mutations of the files in examples/, each input given to every command that reads files (puzzle,
casual, play, stats, layout --input, layout --template, check on either side). Whatever the input,
a command ends with exit 0 (the input still made sense), 1 (bad input, one line naming it), 2 or 3,
prints at most one line on stderr and never a traceback, and leaves the input file as it was.

Then the kinds issue 29 found, each a property of its own: JSON lines nested deep and case numbers of
any size, one open row of thousands of cells, output paths that name an input or another output (and
--plot names), sweep ranges of any size, time limits from below a millisecond to past any backend's,
a local cluster with too few open files, and Ctrl-C at any moment of start-up. The last two run
processes, so they take fewer examples (``PROCESS_EXAMPLES``).

``FUZZ_EXAMPLES`` sets the number of examples per property (default 25: about half a minute on a shared machine);
``benchmarks/fuzz_cli.py --examples N`` runs the same properties longer.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolve.cli import app

# hundreds of command lines on random and mutated input: left out of the quick run, `pytest -m "not slow"`
pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: The example files the mutations start from.
SEEDS = sorted(
    path
    for folder in ("best", "casual", "codejam", "puzzles", "templates")
    for path in (EXAMPLES / folder).iterdir()
    if path.suffix in (".in", ".out", ".txt", ".solution")
)
#: Numbers above this in a layout batch ask for a board too large for a quick test (the layout
#: size limits are tested with the layout command).
LARGEST_LAYOUT_NUMBER = 400
ALLOWED_EXITS = {0, 1, 2, 3}


def commands(path: str) -> list[list[str]]:
    """Every command that reads `path`, with a short time limit where a command has one."""
    cj_in, cj_out = str(EXAMPLES / "codejam" / "sample.in"), str(EXAMPLES / "codejam" / "sample.out")
    text = Path(path).read_bytes()
    runs = [
        ["puzzle", path, "--time-limit", "5"],
        ["puzzle", path, "--count", "--deduce", "--probabilities", "--format", "json", "--time-limit", "5"],
        ["hint", path, "--format", "json", "--time-limit", "5"],
        ["casual", path],
        ["play", path, "--player", "perfect", "--format", "json"],
        ["play", path, "--player", "best", "--click", "1,1", "--moves", "--format", "json"],
        ["stats", path],
        ["check", path, cj_out],
        ["check", cj_in, path],
    ]
    numbers = re.findall(rb"[0-9]+", text)
    if all(len(number) <= 3 and int(number) <= LARGEST_LAYOUT_NUMBER for number in numbers):
        runs.append(["layout", "--input", path, "--time-limit", "5"])
    if len(text) < 400:
        runs.append(["layout", "2", "--template", path, "--time-limit", "5"])
    return runs


def check_every_reader(runner, folder: Path, data: bytes) -> None:
    """Feed `data` to every command that reads a file and check how each one ends."""
    path = folder / "input.txt"
    path.write_bytes(data)
    for args in commands(str(path)):
        result = runner.invoke(app, args)
        assert path.read_bytes() == data, args  # never a changed input file
        stderr = result.stderr
        assert result.exit_code in ALLOWED_EXITS, (args, result.exit_code, stderr, result.exception)
        assert "Traceback" not in stderr and "Traceback" not in result.stdout, (args, stderr)
        assert stderr.count("\n") <= 1, (args, stderr)
        if result.exit_code in (1, 2, 3) and args[0] != "check":
            assert stderr.startswith("cpsolve: ") or result.exit_code == 2, (args, stderr)
        if stderr:
            assert len(stderr) < 400, (args, stderr)  # echoed values are shortened


# --- mutations ----------------------------------------------------------------------------------

ODD_TEXT = [
    "²",
    "①",
    "٣",
    "\u00a0",
    "\r",
    "\r\n",
    "\t",
    "\ufeff",
    "9" * 30,
    "9" * 5000,
    "-1",
    "0",
    "",
    "\n\n",
    "Case #1:",
    "Impossible",
    "{",
    '{"board": ["c."]}',
    "c",
    "#",
    "*",
    "M",
    "?",
    " ",
    "Case #-1:",
    "Case #" + "1" * 4301 + ":",
    '{"case": -1, "board": ["c."]}',
    '{"board": ' + "[" * 1000 + "]" * 1000 + "}",
]


@st.composite
def mutated(draw) -> bytes:
    """An example file with a few edits: bytes flipped, inserted or deleted, lines doubled or dropped, odd text."""
    data = bytearray(draw(st.sampled_from(SEEDS)).read_bytes())
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "odd", "line", "crlf", "bom", "cr"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=3))
        elif kind == "delete" and data:
            del data[at : at + draw(st.integers(1, 5))]
        elif kind == "odd":
            data[at:at] = draw(st.sampled_from(ODD_TEXT)).encode("utf-8")
        elif kind == "line":
            lines = bytes(data).split(b"\n")
            index = draw(st.integers(0, len(lines) - 1))
            if draw(st.booleans()):
                lines.insert(index, lines[index])
            else:
                del lines[index]
            data = bytearray(b"\n".join(lines))
        elif kind == "crlf":
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
        elif kind == "bom":
            data[0:0] = b"\xef\xbb\xbf"
        elif kind == "cr":
            data = bytearray(bytes(data).replace(b"\n", b"\r"))
    return bytes(data)


#: Random bytes, and random text made of the characters the formats use (and a few they do not).
RANDOM_INPUT = st.binary(max_size=200) | st.text(alphabet="0123456789 .*Mc#?-\n\r²٣", max_size=120).map(str.encode)
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", 25))
FUZZ_SETTINGS = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ_SETTINGS
@given(data=mutated())
def test_mutated_examples(runner, tmp_path, data):
    check_every_reader(runner, tmp_path, data)


@FUZZ_SETTINGS
@given(data=RANDOM_INPUT)
def test_random_bytes_and_text(runner, tmp_path, data):
    check_every_reader(runner, tmp_path, data)


# --- the named cases of issue 21 ----------------------------------------------------------------


@pytest.mark.parametrize(
    "name, content",
    [
        ("unicode digit in a puzzle header", "2 ²\n..\n..\n"),
        ("circled digit", "① 2\n..\n..\n"),
        ("arabic-indic digits in a casual header", "٣ 3\n...\n...\n...\n"),
        ("CR-only line endings", "1\r3 4 2\r"),
        ("a 5000-digit T", "9" * 5000 + "\n3 4 2\n"),
        ("a 5000-digit header", "9" * 5000 + " 3\n...\n"),
        ("underscore digits", "1_0 1\n.\n"),
        ("a total past 2^63", "2 2 9223372036854775808\n..\n..\n"),
    ],
)
def test_named_cases(runner, tmp_path, name, content):
    check_every_reader(runner, tmp_path, content.encode("utf-8"))


def test_check_names_a_carriage_return_and_shortens_a_long_t(runner, tmp_path):
    cr_input, cr_output = tmp_path / "cr.in", tmp_path / "cr.out"
    cr_input.write_bytes(b"1\r3 4 2\r")
    cr_output.write_bytes(b"Case #1:\rc...\r....\r..**\r")
    good_input = tmp_path / "good.in"
    good_input.write_text("1\n3 4 2\n")
    for pair in ((cr_input, cr_output), (good_input, cr_output)):
        result = runner.invoke(app, ["check", *map(str, pair)])
        assert result.exit_code == 1 and "np.str_" not in result.stderr + result.stdout
        assert "carriage return (CR) inside a line: line endings must be LF or CRLF" in result.stderr
    long_t = tmp_path / "long.in"
    long_t.write_text("9" * 5000 + "\n3 4 2\n")
    result = runner.invoke(app, ["check", str(long_t), str(cr_output)])
    assert result.exit_code == 1 and "T=99999999999999999999... (5000 characters) but only 1 case line" in result.stderr
    assert len(result.stderr) < 200
    junk = tmp_path / "junk.in"
    junk.write_text("1\n3 4 " + "x" * 5000 + "\n")
    result = runner.invoke(app, ["check", str(junk), str(cr_output)])
    assert result.exit_code == 1 and len(result.stderr) < 200 and "(5000 characters)" in result.stderr


@pytest.mark.parametrize("digits", ["٣", "３", "1_0", "+3"])
def test_code_jam_numbers_are_ascii_digits(runner, tmp_path, digits):
    """int() takes '٣' (Arabic-Indic), '３' (full width), '1_0' and '+3': a Code Jam input does not."""
    path = tmp_path / "cases.in"
    path.write_text(f"1\n3 {digits} 2\n")
    result = runner.invoke(app, ["layout", "--input", str(path)])
    assert result.exit_code == 1 and f"C is not an integer: '{digits}'" in result.stderr
    path.write_text(f"{digits}\n3 4 2\n")
    result = runner.invoke(app, ["layout", "--input", str(path)])
    assert result.exit_code == 1 and "T is not an integer" in result.stderr


# --- issue 29: the kinds of input and option a second fuzz found ------------------------------------------------

PROCESS_EXAMPLES = int(os.environ.get("PROCESS_EXAMPLES", 4))
PROCESS_SETTINGS = settings(
    max_examples=PROCESS_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: The longest a run may take here: every command below ends at once, or within its time limit.
QUICK = 60.0


def check_ending(args: list[str], result, started: float) -> None:
    """How every run must end: exit 0-3, one stderr line (or click's own usage box), no traceback, in time."""
    stderr = result.stderr
    assert result.exit_code in ALLOWED_EXITS, (args, result.exit_code, stderr, result.exception)
    assert "Traceback" not in stderr + result.stdout, (args, stderr)
    if result.exit_code == 2 and stderr.startswith("Usage:"):  # click refused a value of the wrong type
        assert len(stderr) < 2000, (args, stderr)
    else:
        assert stderr.count("\n") <= 1 and len(stderr) < 600, (args, stderr)
        if result.exit_code in (1, 2):
            assert stderr.startswith("cpsolve: "), (args, stderr)
    assert time.monotonic() - started < QUICK, args


@st.composite
def json_lines(draw) -> bytes:
    """JSON lines of boards, with nesting of any depth and case numbers of any size."""
    lines = []
    for _ in range(draw(st.integers(1, 3))):
        depth = draw(st.sampled_from([1, 2, 50, 999, 1000, 3000]))
        board = draw(st.sampled_from(['["c..", "...", "..*"]', '["c."]', "[" * depth + "]" * depth, '"c.."', "null"]))
        case = draw(
            st.sampled_from(
                [
                    "",
                    '"case": -1, ',
                    '"case": 0, ',
                    '"case": 1, ',
                    f'"case": {2**63}, ',
                    '"case": ' + "1" * 4301 + ", ",
                    '"case": 9223372036854775807, ',
                ]
            )
        )
        lines.append("{" + case + '"board": ' + board + "}")
    return ("\n".join(lines) + "\n").encode()


@st.composite
def open_rows(draw) -> bytes:
    """A puzzle of one row: thousands of cells, covered or clues, with or without a total."""
    cells = draw(st.integers(1, 4000))
    alphabet = draw(st.sampled_from(["?", "?.", "?0123", "?12*", "?.1F*"]))
    seed = draw(st.integers(0, 2**32 - 1))
    import random

    rng = random.Random(seed)
    row = "".join(rng.choice(alphabet) for _ in range(cells))
    total = draw(st.sampled_from(["", f" {cells // 3}", " 0", f" {cells}"]))
    return f"1 {cells}{total}\n{row}\n".encode()


@FUZZ_SETTINGS
@given(data=json_lines())
def test_json_lines_deep_and_case_numbers(runner, tmp_path, data):
    check_every_reader(runner, tmp_path, data)


@FUZZ_SETTINGS
@given(data=open_rows())
def test_open_rows(runner, tmp_path, data):
    check_every_reader(runner, tmp_path, data)


# --- output paths -------------------------------------------------------------------------------------------------

#: How an output names a file: an input or another output spelled several ways, or a file of its own.
SPELLINGS = [
    "{input}",
    "./{input_name}",
    "sub/../{input_name}",
    "link",
    "{other}",
    "new{ext}",
    "nowhere/new{ext}",
    "/dev/full",
]
EXTENSIONS = ["", ".json", ".csv", ".png", ".svg", ".PDF", ".txt", ".db", ".pgf"]


def _workspace(folder: Path) -> dict[str, Path]:
    """A store of a small sweep, a template, a layout batch and a board file, each an input to protect."""
    from typer.testing import CliRunner

    (folder / "sub").mkdir()
    files = {
        "store": folder / "S.db",
        "template": folder / "T.txt",
        "batch": folder / "I.in",
        "boards": folder / "B.txt",
    }
    done = CliRunner().invoke(
        app,
        [
            "compare",
            "--rows",
            "1-2",
            "--cols",
            "1-2",
            "--backends",
            "greedy",
            "--store",
            str(files["store"]),
            "--quiet",
        ],
    )
    assert done.exit_code == 0, done.stderr
    files["template"].write_text("?.\n..\n")
    files["batch"].write_text("1\n2 2 0\n")
    files["boards"].write_text("3 3\n*..\n...\n...\n")
    return files


@st.composite
def writing_commands(draw) -> tuple[str, list[tuple[str, str]]]:
    """A command that writes files, the input it reads (by its key in the workspace), and its outputs' spellings."""
    command = draw(st.sampled_from(["report", "compare", "layout template", "layout batch", "stats"]))
    options = {
        "report": ["--json", "--csv", "--plot"],
        "compare": ["--store", "--json", "--csv", "--plot"],
        "layout template": ["--export-model"],
        "layout batch": ["--export-model"],
        "stats": ["--store"],
    }[command]
    chosen = draw(st.lists(st.sampled_from(options), min_size=1, unique=True))
    outputs = [
        (option, draw(st.sampled_from(SPELLINGS)).replace("{ext}", draw(st.sampled_from(EXTENSIONS))))
        for option in chosen
    ]
    return command, outputs


def check_writing_command(runner, folder: Path, command: str, outputs: list[tuple[str, str]]) -> None:
    files = _workspace(folder)
    input_key = {
        "report": "store",
        "compare": "store",
        "layout template": "template",
        "layout batch": "batch",
        "stats": "boards",
    }[command]
    source = files[input_key]
    os.symlink(source, folder / "link")
    names: list[str] = []
    args: list[str] = []
    for option, spelling in outputs:
        other = names[-1] if names else "new.out"
        name = spelling.format(input=source, input_name=source.name, other=other)
        names.append(name)
        args += [option, name]
    base = {
        "report": ["report", str(source)],
        "compare": ["compare", "--rows", "1-2", "--cols", "1-2", "--backends", "greedy", "--quiet", "--resume"],
        "layout template": ["layout", "1", "--template", str(source)],
        "layout batch": ["layout", "--input", str(source), "--backend", "cp"],
        "stats": ["stats", "--random", "4", "4", "2", "--games", "5", "--quiet"],
    }[command]
    protected = {path: path.read_bytes() for key, path in files.items() if key != "store" or command != "compare"}
    before = sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))
    previous = os.getcwd()
    os.chdir(folder)  # the spellings are relative to it
    try:
        started = time.monotonic()
        result = runner.invoke(app, [*base, *args])
    finally:
        os.chdir(previous)
    check_ending([*base, *args], result, started)
    for path, content in protected.items():  # an input is never written over
        assert path.read_bytes() == content, (base, args, path)
    if result.exit_code in (1, 2) and result.stdout == "":  # refused before any work: nothing was written
        assert sorted(str(path.relative_to(folder)) for path in folder.rglob("*")) == before, (base, args)
    elif result.exit_code == 1:  # it ran, and a report could not be written at the end (/dev/full): it says where
        assert "the report is in" in result.stderr or "rows written so far are in" in result.stderr, (base, args)


@FUZZ_SETTINGS
@given(case=writing_commands())
def test_output_paths(runner, tmp_path_factory, case):
    check_writing_command(runner, tmp_path_factory.mktemp("outputs"), *case)


# --- sweep ranges and time limits ---------------------------------------------------------------------------------

#: Range ends: small, at the limits, past them, and far past any machine integer.
RANGE_ENDS = st.sampled_from([1, 2, 3, 50, 101, 300, 10_000, 10_001, 100_000_000, 10**20]) | st.integers(1, 10**30)


@st.composite
def sweep_ranges(draw) -> list[str]:
    def span() -> str:
        low, high = draw(RANGE_ENDS), draw(RANGE_ENDS)
        return f"{min(low, high)}-{max(low, high)}" if draw(st.booleans()) else str(low)

    rows, cols = span(), span()
    mines = draw(st.sampled_from([None, "0-0", "0-1", "5-" + str(10**25)]))
    backends = draw(st.sampled_from(["greedy", "greedy,cp", "cp:levels", "minizinc"]))
    return ["--rows", rows, "--cols", cols, "--backends", backends, *([] if mines is None else ["--mines", mines])]


def check_sweep_ranges(runner, args: list[str]) -> None:
    """A sweep of ranges of any size is refused at once or, within the limits, is one of at most 64 cases."""
    from cpsolve.errors import InputError
    from cpsolve.sweep.cases import check_ranges, parse_range

    rows, cols = parse_range(args[1], "rows"), parse_range(args[3], "cols")
    mines = parse_range(args[7], "mines") if len(args) > 6 else None
    try:
        count = check_ranges(rows, cols, mines)
    except InputError:
        count = None
    if count is not None and (count > 64 or rows[1] * cols[1] > 36):
        return  # a sweep that runs, and takes long: its limits are what is tested here
    started = time.monotonic()
    result = runner.invoke(app, ["compare", *args, "--jobs", "1", "--time-limit", "5", "--quiet"])
    check_ending(args, result, started)
    if count is None:
        assert result.exit_code == 1 and time.monotonic() - started < 5, (args, result.stderr)


@FUZZ_SETTINGS
@given(args=sweep_ranges())
def test_sweep_ranges(runner, args):
    check_sweep_ranges(runner, args)


#: Limits from below a millisecond to past every backend's, and the values that are no limit at all.
TIME_LIMITS = (
    st.floats(1e-9, 1e-3)
    | st.floats(1e5, 1e300)
    | st.sampled_from([0.0, -1.0, 0.05, 2.0, 1e6, 1e6 + 1])
    | st.sampled_from(["nan", "inf", "-inf", "1e400"])
)
TIMED = [
    ["layout", "6", "6", "5"],
    ["layout", "6", "6", "5", "--backend", "cp", "--dominance", "none"],
    ["layout", "6", "6", "5", "--backend", "minizinc"],
    ["layout", "12", "12", "40", "--click", "6,6"],
    ["puzzle", str(EXAMPLES / "puzzles" / "classic_8x8.txt"), "--count", "--probabilities"],
    ["hint", str(EXAMPLES / "best" / "expert_midgame.txt")],
    ["generate", "9", "9", "10"],
    ["compare", "--rows", "2-3", "--cols", "2-3", "--jobs", "1", "--quiet"],
]


def check_time_limit(runner, command: list[str], limit) -> None:
    import math
    import shutil

    if "minizinc" in command and shutil.which("minizinc") is None:
        return
    value = float(limit)
    started = time.monotonic()
    result = runner.invoke(app, [*command, "--time-limit", str(limit)])
    check_ending(command, result, started)
    in_range = math.isfinite(value) and 0 < value <= 1_000_000
    assert (result.exit_code == 2) == (not in_range), (command, limit, result.exit_code, result.stderr)
    if in_range and value < 1:  # a short limit holds (a sub-millisecond one is never "no limit")
        assert time.monotonic() - started < 20, (command, limit)


@FUZZ_SETTINGS
@given(command=st.sampled_from(TIMED), limit=TIME_LIMITS)
def test_time_limits(runner, command, limit):
    check_time_limit(runner, command, limit)


# --- processes: a cluster that cannot start, Ctrl-C at start-up ---------------------------------------------------

ROOT = EXAMPLES.parent


def check_cluster_with_few_files(files: int, hard: int | None) -> int:
    """``stats --jobs 2`` with few open files allowed: the games, or one line; returns the exit code."""
    import subprocess
    import sys

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard or files))

    command = [
        sys.executable,
        "-m",
        "cpsolve",
        "stats",
        "--random",
        "6",
        "6",
        "4",
        "--games",
        "10",
        "--jobs",
        "2",
        "--quiet",
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180, preexec_fn=limit)
    assert done.returncode in (0, 1), (files, hard, done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr and done.stderr.count("\n") <= 1, (files, hard, done.stderr[-3000:])
    if done.returncode == 1:
        assert "open files" in done.stderr or "could not start" in done.stderr, done.stderr
    return done.returncode


@PROCESS_SETTINGS
@given(files=st.integers(16, 90), hard=st.none() | st.just(4096))
def test_a_cluster_with_few_open_files(files, hard):
    check_cluster_with_few_files(files, hard)


def check_ctrl_c_at_start_up(delay: float, command: list[str]) -> int:
    """SIGINT `delay` seconds into a run: once cpsolve's code runs, exit 130 and one line (or the answer, if it
    finished first); before, Python's own ending, with nothing of cpsolve's in it. Returns the exit code."""
    import signal
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "cpsolve", *command], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    time.sleep(delay)
    os.kill(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    code = process.returncode
    if code == 130:
        assert stderr == "cpsolve: interrupted\n", (delay, command, stderr)
    elif code in (0, 3):
        assert "Traceback" not in stderr and stderr.count("\n") <= 1, (delay, command, stderr)
    else:
        ours = "cpsolve:" in stderr or not _python_starting(stderr)
        assert code in (1, -signal.SIGINT) and not ours, (delay, command, code, stderr)
    return code


START_UP_COMMANDS = [
    ["layout", "3", "3", "1"],
    ["layout", "20", "20", "50", "--backend", "cp"],
    ["puzzle", "examples/puzzles/classic_8x8.txt"],
    ["compare", "--rows", "1-3", "--cols", "1-3", "--quiet"],
]


@PROCESS_SETTINGS
@given(delay=st.floats(0.0, 0.6), command=st.sampled_from(START_UP_COMMANDS))
def test_ctrl_c_at_start_up(delay, command):
    check_ctrl_c_at_start_up(delay, command)


def _python_starting(stderr: str) -> bool:
    """Whether a traceback is Python's own start-up: no frame of cpsolve's but the package's import itself
    (``cpsolve/__init__.py`` and its lazy loader), before any code of the command line runs."""
    import re

    frames = re.findall(r'File "[^"]*[/\\]cpsolve[/\\]([^"]+)"', stderr)
    return set(frames) <= {"__init__.py", "lazy.py"}
