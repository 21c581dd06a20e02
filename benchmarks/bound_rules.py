"""What each lower-bound rule proves on the structured families, and what it costs.

For every case of ``benchmarks/cp_families.py`` that the reasoning leaves open with one region, the
layer, moat, corridor and dilation rules' bounds on N (:mod:`cpsolve.layout.bounds`,
:mod:`cpsolve.layout.corridors`, :mod:`cpsolve.layout.dilation`) and the seconds each took, computed on
the reasoning alone (no separator rule first, so the figures are the rules' own). A bound above N proves the case
Impossible. Usage:

    python benchmarks/bound_rules.py                  # every family
    python benchmarks/bound_rules.py --family open

Prints one line per case (N, each rule's bound and seconds, and which rules prove it), then the
number of cases each rule proves and its worst time per family.
"""

from __future__ import annotations

import argparse
import collections
import time

from cp_families import families

from cpsolve.layout.corridors import corridor_bound
from cpsolve.layout.dilation import dilation_bound
from cpsolve.layout.layers import BEYOND_COVERS, Layers, layer_bound
from cpsolve.layout.moats import moat_bound
from cpsolve.layout.reasoning import reason

#: Each rule's bound on N from the reasoning and the terminals (0 where the layer rule finds no Z at all).
RULES = {
    "layer": lambda reasoning, terminals: layer_bound(reasoning, terminals, terminals) or 0,
    "moat": moat_bound,
    "corridor": lambda reasoning, terminals: corridor_bound(
        reasoning, terminals, terminals, Layers(reasoning, terminals), BEYOND_COVERS
    ),
    "dilation": dilation_bound,
}


def main() -> None:
    """Apply each rule to each case and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--family", default="", help="only families whose name contains this")
    args = parser.parse_args()
    proves: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    worst: dict[str, dict[str, float]] = collections.defaultdict(lambda: dict.fromkeys(RULES, 0.0))
    for family, members in families(1).items():
        if args.family not in family:
            continue
        for name, problem in members:
            reasoning = reason(problem)
            if reasoning.impossible or reasoning.board is not None or len(reasoning.regions) != 1:
                continue
            terminals = sorted(reasoning.fixed_safe)
            bounds, figures = {}, []
            for rule, bound_of in RULES.items():
                started = time.perf_counter()
                bounds[rule] = bound_of(reasoning, terminals)
                seconds = time.perf_counter() - started
                worst[family][rule] = max(worst[family][rule], seconds)
                figures.append(f"{rule} {bounds[rule]:5d} ({seconds:5.2f}s)")
            proved = [rule for rule in RULES if bounds[rule] > reasoning.safe_count]
            proves[family].update(proved)
            print(
                f"{name:34s} N={reasoning.safe_count:5d}  "
                + "  ".join(figures)
                + f"  proves: {','.join(proved) or '-'}"
            )
    print()
    print(f"{'family':16s} " + " ".join(f"{rule + ' proves':>16s} {'worst':>7s}" for rule in RULES))
    for family in worst:
        print(f"{family:16s} " + " ".join(f"{proves[family][rule]:16d} {worst[family][rule]:6.2f}s" for rule in RULES))


if __name__ == "__main__":
    main()
