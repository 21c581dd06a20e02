"""A longer run of the command-line fuzz of tests/test_fuzz_cli.py: every reader on damaged input.

The test suite runs each property on 25 examples (FUZZ_EXAMPLES); this runs as many as asked, and
prints how many inputs were fed and how each command ended.

    python benchmarks/fuzz_cli.py --examples 500 [--seed 1]

Exit 0 when every input ended as it should (exit 0-3, at most one stderr line, no traceback, the
input file unchanged); otherwise hypothesis prints the smallest failing input and the script exits 1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500, help="examples per property (mutations, random bytes)")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed")
    args = parser.parse_args()

    from hypothesis import HealthCheck, given, seed, settings
    from typer.testing import CliRunner

    import test_fuzz_cli as fuzz

    runner = CliRunner()
    endings: Counter = Counter()
    class CountingRunner:
        def invoke(self, app, args):
            result = runner.invoke(app, args)
            endings[(args[0] + (" " + args[1] if args[0] == "layout" else ""), result.exit_code)] += 1
            return result

    counting = CountingRunner()
    fed = Counter()
    folder = Path(tempfile.mkdtemp(prefix="cpsolve-fuzz-"))
    options = settings(max_examples=args.examples, deadline=None, database=None,
                       suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    strategies = {
        "mutated examples": fuzz.mutated(),
        "random bytes and text": fuzz.RANDOM_INPUT,
    }
    failed = False
    for label, strategy in strategies.items():
        @seed(args.seed)
        @options
        @given(data=strategy)
        def prop(data: bytes) -> None:
            fed[label] += 1
            fuzz.check_every_reader(counting, folder, data)

        try:
            prop()
        except Exception:  # hypothesis has printed the falsifying example
            failed = True
            import traceback

            traceback.print_exc()
    print(f"inputs: {dict(fed)}")
    for (command, code), number in sorted(endings.items()):
        print(f"  {command:<16} exit {code}: {number}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
