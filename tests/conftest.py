"""Shared fixtures: the brute-force oracles live in tests/bruteforce.py."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def examples() -> Path:
    """The examples/ folder of the repository."""
    return EXAMPLES


@pytest.fixture
def runner():
    """A typer CliRunner that keeps stderr apart from stdout."""
    from typer.testing import CliRunner

    return CliRunner()
