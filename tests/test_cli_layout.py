"""The layout and check commands end to end, and every bad input they must refuse."""

import json
import os
import subprocess
import sys

import pytest

from cpsolve.cli import app
from cpsolve.layout.greedy import is_possible


def run(runner, *args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_single_board_and_impossible(runner):
    result = run(runner, "layout", "4", "7", "3")
    assert result.exit_code == 0
    rows = result.stdout.split()
    assert len(rows) == 4 and all(len(row) == 7 for row in rows)
    assert "".join(rows).count("*") == 3 and "".join(rows).count("c") == 1
    result = run(runner, "layout", "5", "5", "23")
    assert (result.exit_code, result.stdout) == (0, "Impossible\n")


def test_json_output(runner):
    result = run(runner, "layout", "3", "3", "1", "--format", "json")
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert payload["status"] == "possible" and payload["backend"] == "greedy"
    assert payload["click"] == [1, 1] and len(payload["board"]) == 3
    assert {"rows", "cols", "mines", "seconds"} <= payload.keys()
    payload = json.loads(run(runner, "layout", "2", "2", "1", "--format", "json").stdout)
    assert payload["status"] == "impossible" and payload["board"] is None


def test_codejam_sample_end_to_end(runner, examples, tmp_path):
    sample = examples / "codejam" / "sample.in"
    result = run(runner, "layout", "--input", str(sample))
    assert result.exit_code == 0
    out = tmp_path / "sample.out"
    out.write_text(result.stdout)
    text = result.stdout.split("Case #")[1:]
    assert [("Impossible" in case) for case in text] == [True, False, True, False, False]
    judged = run(runner, "check", str(sample), str(out))
    assert judged.exit_code == 0, judged.stdout
    assert "5/5 cases accepted" in judged.stdout
    shipped = run(runner, "check", str(sample), str(examples / "codejam" / "sample.out"))
    assert shipped.exit_code == 0


def test_batch_from_stdin_with_crlf(runner):
    result = run(runner, "layout", "-i", "-", input="2\r\n1 1 0\r\n2 2 3\r\n")
    assert result.exit_code == 0
    assert result.stdout == "Case #1:\nc\nCase #2:\nc*\n**\n"


def _read_line(stream, timeout: float) -> bytes:
    """One line from a pipe, or the test fails (instead of hanging) when none comes in time."""
    import selectors

    line = b""
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        while not line.endswith(b"\n"):
            if not selector.select(timeout):
                pytest.fail(f"no complete line within {timeout} s (got {line!r})")
            chunk = os.read(stream.fileno(), 1)
            if not chunk:
                break
            line += chunk
    return line


def test_batch_streams_case_by_case():
    """Case 1 is answered while case 2 has not been written yet."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cpsolve", "layout", "--input", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        bufsize=0,
    )
    try:
        process.stdin.write(b"2\n1 1 0\n")
        process.stdin.flush()
        assert _read_line(process.stdout, 60) == b"Case #1:\n"
        assert _read_line(process.stdout, 60) == b"c\n"
        process.stdin.write(b"1 2 1\n")
        process.stdin.close()
        assert process.stdout.read() == b"Case #2:\nc*\n"
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()


@pytest.mark.parametrize(
    "args,fragment,code",
    [
        (["0", "3", "0"], "at least 1", 1),
        (["3", "0", "0"], "at least 1", 1),
        (["3", "3", "-1"], "got M=-1", 1),
        (["3", "3", "9"], "got M=9", 1),
        # not an integer where one goes: a usage error, as every command's integer arguments are
        (["3", "x", "1"], "invalid value for 'C': 'x' is not an integer", 2),
        (["3", "3.5", "1"], "invalid value for 'C': '3.5' is not an integer", 2),
    ],
)
def test_bad_single_case(runner, args, fragment, code):
    result = run(runner, "layout", *args)
    assert result.exit_code == code
    assert fragment in result.stderr and result.stderr.count("\n") == 1
    assert result.stdout == "" and "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [[], ["3", "3"], ["3", "3", "1", "1"]])
def test_a_wrong_count_of_numbers_is_a_usage_error_naming_the_other_ways(runner, args):
    """Like a missing argument to any command (exit 2); and the message names --input and --template."""
    result = run(runner, "layout", *args)
    assert result.exit_code == 2 and "expected R C M (three integers)" in result.stderr
    assert "--input FILE" in result.stderr and "--template FILE" in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


@pytest.mark.parametrize(
    "content,fragment",
    [
        (b"3\n1 1 0\n2 2 0\n", "T=3 but only 2 case lines"),
        (b"1\n1 1 0\n2 2 0\n", "line 3: more case lines than T=1"),
        (b"2\n1 1 0\nhello\n", "line 3: expected three integers"),
        (b"two\n1 1 0\n", "line 1: T is not an integer"),
        (b"2\n1 1 0\n2 2 4\n", "line 3: mines must be in 0..3"),
        (b"1\n0 5 0\n", "line 2: rows and columns must be at least 1"),
        (b"", "empty file"),
        (b"\n\n  \n", "empty file"),
        (b"1\n1 1\x00 0\n", "binary"),
        (b"\xff\xfe\x00\x01", "binary"),
    ],
)
def test_bad_batch_file(runner, tmp_path, content, fragment):
    path = tmp_path / "in.txt"
    path.write_bytes(content)
    result = run(runner, "layout", "--input", str(path))
    assert result.exit_code == 1, result.stdout
    assert fragment in result.stderr and str(path) in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_missing_file(runner, tmp_path):
    result = run(runner, "layout", "--input", str(tmp_path / "nope.in"))
    assert result.exit_code == 1 and "no such file" in result.stderr


def test_usage_errors_are_exit_2(runner):
    assert run(runner, "layout", "3", "3", "1", "--backend", "bogus").exit_code == 2
    assert run(runner, "layout", "3", "3", "1", "--format", "xml").exit_code == 2
    assert run(runner, "frobnicate").exit_code == 2


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_check_rejects_wrong_outputs(runner, tmp_path):
    cases = _write(tmp_path, "in", "3\n2 2 1\n3 3 0\n1 3 1\n")
    good = "Case #1:\nImpossible\nCase #2:\nc..\n...\n...\nCase #3:\nc.*\n"
    assert run(runner, "check", cases, _write(tmp_path, "good", good)).exit_code == 0
    crlf_padded = good.replace("\n", "  \r\n\r\n")
    assert run(runner, "check", cases, _write(tmp_path, "crlf", crlf_padded)).exit_code == 0
    wrong = {
        "Case #1:\nc.\n.*\nCase #2:\nc..\n...\n...\nCase #3:\nc.*\n": "Case #1: rejected",
        "Case #1:\nImpossible\nCase #2:\nImpossible\nCase #3:\nc.*\n": "says Impossible",
        "Case #1:\nImpossible\nCase #2:\nc..\n...\n...\n": "Case #3: rejected: missing case",
        good + "Case #4:\nImpossible\n": "extra case",
        "Case #1:\nimpossible\nCase #2:\nc..\n...\n...\nCase #3:\nc.*\n": "Case #1: rejected",
        "Case #1:\nImpossible\nCase #2:\nc..\n.x.\n...\nCase #3:\nc.*\n": "not a board",
        "Case #1:\nImpossible\nCase #2:\nc..\n...\n...\nCase #3:\n.*c\n": "covered",
    }
    for text, fragment in wrong.items():
        result = run(runner, "check", cases, _write(tmp_path, "out", text))
        assert result.exit_code == 1, text
        assert fragment in result.stdout, (text, result.stdout)


def test_check_unparseable_files(runner, tmp_path):
    cases = _write(tmp_path, "in", "1\n2 2 1\n")
    result = run(runner, "check", cases, _write(tmp_path, "out", "hello\nCase #1:\nImpossible\n"))
    assert result.exit_code == 1 and "line 1: text before the first" in result.stderr
    result = run(runner, "check", cases, _write(tmp_path, "out2", "Case #one:\nImpossible\n"))
    assert result.exit_code == 1 and "bad number" in result.stderr
    result = run(
        runner, "check", _write(tmp_path, "in2", "1\n2 2\n"), _write(tmp_path, "out3", "Case #1:\nImpossible\n")
    )
    assert result.exit_code == 1 and "line 2" in result.stderr


def test_greedy_batch_passes_the_judge_on_a_range(runner, tmp_path):
    cases = [(r, c, m) for r in range(1, 7) for c in range(1, 7) for m in range(r * c)]
    path = _write(tmp_path, "in", f"{len(cases)}\n" + "".join(f"{r} {c} {m}\n" for r, c, m in cases))
    result = run(runner, "layout", "-i", path)
    assert result.exit_code == 0
    assert result.stdout.count("Impossible") == sum(not is_possible(*case) for case in cases)
    judged = run(runner, "check", path, _write(tmp_path, "out", result.stdout))
    assert judged.exit_code == 0 and f"{len(cases)}/{len(cases)} cases accepted" in judged.stdout
