"""Every shell example on the documentation pages runs and prints what the page shows.

As ``test_examples.py`` does for ``examples/``, so no page can rot. What runs: every fenced block
of language ``console`` in ``docs/**/*.md`` and in ``README.md``. In a block, a line starting with ``$ `` is a command
and the lines after it, up to the next command, are what it prints (stdout and stderr as a
terminal interleaves them). Two commands are understood:

- ``$ cpsolve ARGS``: run in this process through typer's CliRunner, with the shell's quoting and
  ``*`` globs, in a fresh temporary folder that links the repository's ``examples/`` (so paths
  like ``examples/codejam/sample.in`` resolve as from the repository root, and a file a command
  writes, such as a sweep's store, lands there and not in the tree);
- ``$ echo $?``: prints the previous command's exit code. A command that exits with anything but
  0 must be followed by it, so no page shows a failure as if it were a success.

Output is compared exactly, with one normalisation: ``...`` in the page's output stands for any
text (doctest's ELLIPSIS), for figures that differ from run to run, such as timings. A block right
after the line ``<!-- docs-test: skip REASON -->`` is not run (a long run, a cluster); the reason
is required. One right after ``<!-- docs-test: needs TOOL -->`` is skipped where the executable
TOOL is not installed (``minizinc``), as the MiniZinc tests are; ``needs compiled`` marks output only the
compiled engine gives (the best player's games: the Python engine searches endgames of at most 16 covered
cells), skipped under ``CPSOLVE_PURE_PYTHON=1``.

Python examples are fenced ``pycon`` blocks (``>>>`` prompts and their output): each page's are
run as one doctest, in order, with ELLIPSIS. Blocks of other languages (``bash`` for installation
steps, ``python`` for a sketch) are never run.
"""

from __future__ import annotations

import doctest
import glob
import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# every command line the documentation shows: left out of the quick run, `pytest -m "not slow"`
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FENCE = re.compile(r"^(`{3,})console\s*$")
SKIP = re.compile(r"^<!-- docs-test: skip (\S.*?) -->$")
NEEDS = re.compile(r"^<!-- docs-test: needs (\S+) -->$")


@dataclass
class Step:
    command: str
    expected: list[str] = field(default_factory=list)


@dataclass
class Block:
    page: str
    line: int
    steps: list[Step]
    skip: str | None
    needs: str | None = None


def read_blocks(path: Path) -> list[Block]:
    """The ``console`` blocks of one page, each as its commands and their expected output."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        before = lines[i - 1].strip() if i > 0 else ""
        skip, needs = SKIP.match(before), NEEDS.match(before)
        start, steps = i + 1, []
        i += 1
        while i < len(lines) and lines[i].strip() != fence.group(1):
            if lines[i].startswith("$ "):
                steps.append(Step(lines[i][2:].strip()))
            elif not steps:
                raise ValueError(f"{path}:{i + 1}: output before any command")
            else:
                steps[-1].expected.append(lines[i])
            i += 1
        blocks.append(
            Block(
                str(path.relative_to(ROOT)),
                start,
                steps,
                skip.group(1) if skip else None,
                needs.group(1) if needs else None,
            )
        )
        i += 1
    return blocks


PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
BLOCKS = [block for page in PAGES for block in read_blocks(page)]


def run_block(block: Block, runner) -> None:
    from cpsolve.cli import app

    last_exit = 0
    for step in block.steps:
        words = shlex.split(step.command)
        if words == ["echo", "$?"]:
            output, last_exit = f"{last_exit}\n", 0
        elif words[0] == "cpsolve":
            if last_exit != 0:
                pytest.fail(f"{block.page}:{block.line}: exit {last_exit} not shown (add `$ echo $?`)")
            args = [expanded for word in words[1:] for expanded in _glob(word)]
            result = runner.invoke(app, args)
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            output, last_exit = result.output, result.exit_code
        else:
            pytest.fail(f"{block.page}:{block.line}: only `cpsolve ...` and `echo $?` run here: {step.command!r}")
        expected = "".join(line + "\n" for line in step.expected)
        if not doctest.OutputChecker().check_output(expected, output, doctest.ELLIPSIS):
            assert output == expected, f"{block.page}:{block.line}: $ {step.command}"
    if last_exit != 0:
        pytest.fail(f"{block.page}:{block.line}: the last command exited {last_exit} (add `$ echo $?`)")


def _glob(word: str) -> list[str]:
    return sorted(glob.glob(word)) or [word] if "*" in word else [word]


PYCON_FENCE = re.compile(r"^(`{3,})pycon\s*$")


def read_pycon(path: Path) -> str:
    """A page's ``pycon`` blocks, joined into one doctest text."""
    lines, text, inside = path.read_text(encoding="utf-8").splitlines(), [], None
    for line in lines:
        if inside is None:
            fence = PYCON_FENCE.match(line)
            inside = fence.group(1) if fence else None
        elif line.strip() == inside:
            inside = None
            text.append("")
        else:
            text.append(line)
    return "\n".join(text)


PYCON_PAGES = [page for page in PAGES if read_pycon(page).strip()]


@pytest.mark.parametrize("page", PYCON_PAGES, ids=[str(p.relative_to(ROOT)) for p in PYCON_PAGES])
def test_docs_python_examples(page):
    test = doctest.DocTestParser().get_doctest(read_pycon(page), {}, str(page.relative_to(ROOT)), str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{b.page}:{b.line}" for b in BLOCKS])
def test_docs_example(block, runner, monkeypatch, tmp_path):
    if block.skip:
        pytest.skip(f"marked on the page: {block.skip}")
    if block.needs == "compiled":
        from cpsolve.compiled import extension

        if extension("deduce._engine") is None:
            pytest.skip("the page shows the compiled engine's games; the Python engine's endgame search is smaller")
    elif block.needs and shutil.which(block.needs) is None:
        pytest.skip(f"needs {block.needs}, which is not installed")
    _work_in(tmp_path, monkeypatch)
    run_block(block, runner)


def _work_in(folder: Path, monkeypatch) -> None:
    (folder / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(folder)


def test_the_examples_are_found():
    """A parser that found no block would make the test above pass vacuously."""
    ran = [block for block in BLOCKS if not block.skip]
    assert len(ran) >= 20 and all(block.steps for block in BLOCKS)
    pages = {block.page for block in ran}
    for page in ("getting-started.md", "tasks/one-click-board.md", "tasks/judge-code-jam.md", "tasks/casual-player.md"):
        assert f"docs/{page}" in pages
    assert "README.md" in pages
    assert DOCS / "models" / "deduction.md" in PYCON_PAGES


def test_a_wrong_output_fails(runner, monkeypatch, tmp_path):
    """The comparison can fail: a changed line, an unshown exit code."""
    _work_in(tmp_path, monkeypatch)
    with pytest.raises(AssertionError):
        run_block(Block("x", 1, [Step("cpsolve layout 2 2 3", ["c.", "*."])], None), runner)
    with pytest.raises(pytest.fail.Exception):
        run_block(Block("x", 1, [Step("cpsolve layout 0 2 3", ["..."])], None), runner)
