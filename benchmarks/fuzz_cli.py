"""A longer run of the command-line fuzz of tests/test_fuzz_cli.py: every reader on damaged input, and the kinds
of input and option issue 29 found.

The test suite runs each property on 25 examples (FUZZ_EXAMPLES; those that start processes on 4); this runs as
many as asked, and prints how many inputs each property was fed and how each command ended.

    python benchmarks/fuzz_cli.py --examples 500 [--process-examples 40] [--seed 1] [--only NAME ...]

Exit 0 when every input ended as it should (exit 0-3, at most one stderr line, no traceback, no input file
changed, a refusal before anything was written, a time limit that holds, 130 and one line after Ctrl-C);
otherwise hypothesis prints the smallest failing input and the script exits 1.
"""

from __future__ import annotations

import argparse
import atexit
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=500, help="examples per property run in this process")
    parser.add_argument(
        "--process-examples",
        type=int,
        default=None,
        help="examples per property that starts processes (default: a tenth of --examples)",
    )
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed")
    parser.add_argument("--only", nargs="*", default=None, help="run only the properties whose label holds a word")
    args = parser.parse_args()

    import test_fuzz_cli as fuzz
    from hypothesis import HealthCheck, given, seed, settings
    from hypothesis import strategies as st
    from typer.testing import CliRunner

    runner = CliRunner()
    endings: Counter = Counter()

    def label_of(command: list[str]) -> str:
        if command[0] == "layout":
            return "layout " + next((part for part in command[1:] if part.startswith("--")), "R C M")
        return command[0]

    class CountingRunner:
        def invoke(self, app, command):
            result = runner.invoke(app, command)
            endings[(label_of(command), result.exit_code)] += 1
            return result

    counting = CountingRunner()
    fed: Counter = Counter()
    folder = Path(tempfile.mkdtemp(prefix="cpsolve-fuzz-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # the inputs written are scratch
    process_examples = args.process_examples or max(4, args.examples // 10)

    def readers(data: bytes) -> None:
        fuzz.check_every_reader(counting, folder, data)

    def outputs(case) -> None:
        fuzz.check_writing_command(counting, Path(tempfile.mkdtemp(dir=folder)), *case)

    def cluster(case) -> None:
        endings[("stats --jobs 2, few files", fuzz.check_cluster_with_few_files(*case))] += 1

    def ctrl_c(case) -> None:
        delay, command = case
        endings[(f"Ctrl-C {label_of(command)}", fuzz.check_ctrl_c_at_start_up(delay, command))] += 1

    properties = {
        "mutated examples": (fuzz.mutated(), readers, args.examples),
        "random bytes and text": (fuzz.RANDOM_INPUT, readers, args.examples),
        "JSON lines, deep and case numbers": (fuzz.json_lines(), readers, args.examples),
        "open rows": (fuzz.open_rows(), readers, args.examples),
        "output paths": (fuzz.writing_commands(), outputs, args.examples),
        "sweep ranges": (fuzz.sweep_ranges(), lambda case: fuzz.check_sweep_ranges(counting, case), args.examples),
        "time limits": (
            st.tuples(st.sampled_from(fuzz.TIMED), fuzz.TIME_LIMITS),
            lambda case: fuzz.check_time_limit(counting, *case),
            args.examples,
        ),
        "cluster with few open files": (
            st.tuples(st.integers(16, 90), st.none() | st.just(4096)),
            cluster,
            process_examples,
        ),
        "Ctrl-C at start-up": (
            st.tuples(st.floats(0.0, 0.6), st.sampled_from(fuzz.START_UP_COMMANDS)),
            ctrl_c,
            process_examples,
        ),
    }
    failed = False
    for label, (strategy, check, examples) in properties.items():
        if args.only and not any(word.lower() in label.lower() for word in args.only):
            continue
        options = settings(
            max_examples=examples,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        )

        def make(label=label, check=check, strategy=strategy, options=options):
            @seed(args.seed)
            @options
            @given(case=strategy)
            def prop(case) -> None:
                fed[label] += 1
                check(case)

            return prop

        try:
            make()()
        except Exception:  # hypothesis has printed the falsifying example
            failed = True
            import traceback

            traceback.print_exc()
    print(f"inputs: {dict(fed)}")
    for (command, code), number in sorted(endings.items(), key=lambda item: (item[0][0], str(item[0][1]))):
        print(f"  {command:<28} exit {code}: {number}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
