"""Every example script runs, so none can rot."""

import runpy
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_api_example_runs(capsys):
    runpy.run_path(str(EXAMPLES / "api_example.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert out.count(": possible in") == 3
    assert "casual player leaves" in out
    assert "clue puzzle: 2 solutions" in out
