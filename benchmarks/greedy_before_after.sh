#!/usr/bin/env bash
# The greedy sweep on 2 jobs before the sweep package (multiprocessing pool, commit 6eea326) and after it
# (a local Dask cluster), in turns, same range. Usage: bash benchmarks/greedy_before_after.sh [ROWS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1-10}; rounds=${2:-2}
before=$(mktemp -d)
git archive 6eea326 | tar -x -C "$before"
for round in $(seq "$rounds"); do
    for side in before after; do
        if [ "$side" = before ]; then path=$before; else path=$PWD; fi
        start=$(date +%s.%N)
        (cd "$path" && PYTHONPATH="$path" python -m cpsolve compare --rows "$rows" --cols 1-50 --backends greedy --jobs 2 --quiet > /dev/null)
        echo "round $round $side: $(echo "$(date +%s.%N) - $start" | bc) s"
    done
done
rm -rf "$before"
