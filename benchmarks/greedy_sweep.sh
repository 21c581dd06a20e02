#!/usr/bin/env bash
# All 1,625,625 cases with R, C <= 50 on the greedy backend, every board judged, on every core.
# Usage: bash benchmarks/greedy_sweep.sh   (prints the summary table; writes benchmarks/out/greedy_sweep.json)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p benchmarks/out
/usr/bin/time -v python -m cpsolve compare --rows 1-50 --cols 1-50 --backends greedy --quiet \
    --json benchmarks/out/greedy_sweep.json 2> >(grep -E "Elapsed|Maximum resident" >&2)
