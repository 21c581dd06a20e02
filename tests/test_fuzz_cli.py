"""Every reader through the command line, on damaged input: one stderr line, an exit code 0-3, no traceback.

Two parts: the named cases of issue 21 (each fed once), then a hypothesis fuzz over random bytes and
mutations of the files in examples/, each input given to every command that reads files (puzzle,
casual, play, stats, layout --input, layout --template, check on either side). Whatever the input,
a command ends with exit 0 (the input still made sense), 1 (bad input, one line naming it), 2 or 3,
prints at most one line on stderr and never a traceback, and leaves the input file as it was.

``FUZZ_EXAMPLES`` sets the number of examples per property (default 25: about half a minute on a shared machine);
``benchmarks/fuzz_cli.py --examples N`` runs the same properties longer.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolve.cli import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: The example files the mutations start from.
SEEDS = sorted(path for folder in ("best", "casual", "codejam", "puzzles", "templates") for path in (EXAMPLES / folder).iterdir()
               if path.suffix in (".in", ".out", ".txt", ".solution"))
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

ODD_TEXT = ["²", "①", "٣", "\u00a0", "\r", "\r\n", "\t", "\ufeff", "9" * 30, "9" * 5000, "-1", "0", "", "\n\n",
            "Case #1:", "Impossible", "{", '{"board": ["c."]}', "c", "#", "*", "M", "?", " "]


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
            del data[at:at + draw(st.integers(1, 5))]
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
FUZZ_SETTINGS = settings(max_examples=FUZZ_EXAMPLES, deadline=None,
                         suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


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
