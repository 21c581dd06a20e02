#!/usr/bin/env bash
# The CP-SAT model against the greedy method: default settings on R, C <= 12, the pure model
# (--dominance none) on R, C <= 8, and the three encodings alone (no phase before the model) on
# R, C <= 6, strong and textbook. Every board judged; summary tables on stdout.
# Usage: bash benchmarks/compare_cp.sh   (writes benchmarks/out/*.json and the plots in docs/)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p benchmarks/out docs
python -m cpsolve compare --rows 1-12 --cols 1-12 --backends greedy,cp --quiet \
    --json benchmarks/out/compare_12_default.json --plot docs/compare_12_default.png
python -m cpsolve compare --rows 1-8 --cols 1-8 --backends greedy,cp --dominance none --quiet \
    --json benchmarks/out/compare_8_none.json --plot docs/compare_8_none.png
python -m cpsolve compare --rows 1-6 --cols 1-6 --backends greedy,cp:levels,cp:flow,cp:cuts --quiet \
    --json benchmarks/out/compare_6_encodings.json
python -m cpsolve compare --rows 1-6 --cols 1-6 --backends greedy,cp:levels,cp:flow,cp:cuts --model textbook --quiet \
    --json benchmarks/out/compare_6_encodings_textbook.json
