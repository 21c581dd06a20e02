"""Two variants of the best player on the same games: the paired difference of their win rates.

Game k is the one ``cpsolve stats --random R C M --player best --first ROW,COL --start RULE --seed S``
plays (:func:`cpsolve.generate.win_rates.play_game`: the board from ``default_rng([S, k])``, the
player's ties from ``default_rng([S, k, 1])``), played once with variant A and once with variant B.
A variant sets fields of :class:`cpsolve.play.best.BestSettings` (``"blend=0.3,endgame_solutions=0"``; empty:
the default player). Both variants see the same boards and the same tie streams, so most games end the
same way; the difference of the two rates is estimated with its 95% interval from the *discordant*
games (won by one variant and lost by the other): with b games won by B only and a by A only among
n, the difference is (b - a) / n and its standard error sqrt(b + a - (b - a)^2 / n) / n.

Games run in worker processes (``--jobs``, 2 by default: the machine has two cores), in blocks that
alternate between the variants so both see the same load; ms/game is each game's own time (its
worker's clock). Every game's outcome is kept in a cache (``--cache``, one file per variant) keyed by
the variant, the settings and a fingerprint of the player's source and built extensions (by default
under benchmarks/out/paired, which git ignores), so a
variant is played once per version of the code: a later run with more games plays only the new
ones, and a second comparison against the same A replays nothing of A.

Usage:
    nice -n 10 python benchmarks/best_paired.py --games 20000 --b "blend=0.3" [--a ""] [--jobs 2]
        [--rows 16 --cols 30 --mines 99 --first 1,1 --start safe --seed 0] [--from K] [--cache DIR]
        [--no-cache]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import math
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
#: Games per task: small enough to balance two workers, large enough that the task's cost is noise.
BLOCK = 200


def parse_variant(text: str) -> dict[str, object]:
    """``"NAME=VALUE,NAME=VALUE"`` (values as Python literals) as a dict, checked against the settings.

    Raises:
        SystemExit: A name that is not a field of :class:`cpsolve.play.best.BestSettings`, or a value it refuses.
    """
    from dataclasses import fields

    from cpsolve.errors import CpsolveError
    from cpsolve.play.best import BestSettings

    known = {field.name for field in fields(BestSettings)}
    out: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in _top_level(text))):
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in known:
            raise SystemExit(f"{name!r} is not a setting of the best player; use one of {', '.join(sorted(known))}")
        try:
            out[name] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            raise SystemExit(f"{name}: {value.strip()!r} is not a Python literal") from None
    try:
        BestSettings(**out)  # type: ignore[arg-type]
    except CpsolveError as error:
        raise SystemExit(str(error)) from None
    return dict(sorted(out.items()))


def _top_level(text: str) -> list[str]:
    """`text` split at the commas outside brackets (``"a=(1,2),b=3"``: ``["a=(1,2)", "b=3"]``)."""
    parts, depth, start = [], 0, 0
    for k, char in enumerate(text):
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    return [*parts, text[start:]]


def fingerprint() -> str:
    """A hash of the player's code: every Python and C source of the package and its built extensions."""
    digest = hashlib.sha256()
    package = ROOT / "cpsolve"
    for path in sorted(package.rglob("*")):
        if path.suffix in {".py", ".c", ".h", ".so"} and path.is_file():
            digest.update(str(path.relative_to(package)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def play(task: tuple) -> tuple[str, list[tuple[int, int, float, int]]]:
    """One block of games with one variant: (label, [(index, won, seconds, guesses), ...])."""
    label, variant, settings_fields, indices = task
    from cpsolve.generate import GameSettings
    from cpsolve.generate.win_rates import play_game
    from cpsolve.play.best import BestSettings

    strategy = BestSettings(**variant)
    settings = GameSettings(*settings_fields)
    out = []
    for k in indices:
        record = play_game(settings, k, strategy)
        out.append((k, int(record.answer["won"]), record.seconds, int(record.answer["guesses"])))
    return label, out


class Results:
    """One variant's games: won (-1: not played), seconds and guesses by game index, kept in a file."""

    def __init__(self, path: Path | None, games: int) -> None:
        self.path = path
        self.won = np.full(games, -1, dtype=np.int8)
        self.seconds = np.zeros(games)
        self.guesses = np.zeros(games, dtype=np.int32)
        if path is not None and path.exists():
            with np.load(path) as stored:
                n = min(games, len(stored["won"]))
                self.won[:n], self.seconds[:n], self.guesses[:n] = (
                    stored["won"][:n],
                    stored["seconds"][:n],
                    stored["guesses"][:n],
                )

    def save(self) -> None:
        if self.path is None:
            return
        keep = self.won
        if self.path.exists():  # never forget games a longer earlier run played
            with np.load(self.path) as stored:
                if len(stored["won"]) > len(keep):
                    won, seconds, guesses = stored["won"].copy(), stored["seconds"].copy(), stored["guesses"].copy()
                    n = len(keep)
                    won[:n], seconds[:n], guesses[:n] = self.won, self.seconds, self.guesses
                    np.savez(self.path, won=won, seconds=seconds, guesses=guesses)
                    return
        np.savez(self.path, won=keep, seconds=self.seconds, guesses=self.guesses)


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float, int, int]:
    """B minus A: the difference of rates, its 95% half-width, games won by B only, by A only."""
    n = len(a)
    better, worse = int(((a == 0) & (b == 1)).sum()), int(((a == 1) & (b == 0)).sum())
    diff = (better - worse) / n
    half = 1.959964 * math.sqrt(max(better + worse - (better - worse) ** 2 / n, 0.0)) / n
    return diff, half, better, worse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--a", default="", help="variant A: NAME=VALUE,... of cpsolve.play.best.BestSettings (default: none)"
    )
    parser.add_argument("--b", default="", help="variant B, the same way")
    parser.add_argument("--games", type=int, default=20_000, help="games 0..N-1 (with --from: FROM..N-1)")
    parser.add_argument("--from", dest="start", type=int, default=0, help="the first game's index")
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--cols", type=int, default=30)
    parser.add_argument("--mines", type=int, default=99)
    parser.add_argument("--first", default="1,1", help="1-based first click ROW,COL")
    parser.add_argument("--start", dest="rule", default="safe", help="safe (classic) or opening (modern)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--cache",
        default=str(ROOT / "benchmarks" / "out" / "paired"),
        help="the outcomes' folder (default benchmarks/out/paired, which git ignores)",
    )
    parser.add_argument("--no-cache", action="store_true", help="play every game again and keep nothing")
    parser.add_argument(
        "--a-code",
        help="take A's outcomes from the cache of this code fingerprint (a change that left A's player as it "
        "was); the first --check games of A are replayed with this code and must agree",
    )
    parser.add_argument("--check", type=int, default=200, help="games replayed to check --a-code")
    args = parser.parse_args()
    if not 0 <= args.start < args.games:
        parser.error(f"--from {args.start} leaves no game below --games {args.games} (games K..N-1 are played)")
    from cpsolve.deduce import engine

    if not engine.compiled():
        raise SystemExit("the compiled engine (cpsolve.deduce._engine) is not built: pip install -e .")
    row, col = (int(x) - 1 for x in args.first.split(","))
    settings = (args.rows, args.cols, args.mines, "best", True, (row, col), args.rule, args.seed)
    variants = {"A": parse_variant(args.a), "B": parse_variant(args.b)}
    same = variants["A"] == variants["B"]  # then A alone is played (to fill the cache, or time it)
    code = fingerprint()
    results: dict[str, Results] = {}
    for label, variant in variants.items():
        path = None
        if not args.no_cache:
            key = json.dumps([settings, variant, args.a_code if label == "A" and args.a_code else code], default=str)
            folder = Path(args.cache)
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{hashlib.sha256(key.encode()).hexdigest()[:20]}.npz"
        results[label] = results["A"] if same and label == "B" else Results(path, args.games)
    if args.a_code:  # the stored A must be the player this code plays
        check = list(range(args.start, min(args.start + args.check, args.games)))
        known = [k for k in check if results["A"].won[k] >= 0]
        with Pool(args.jobs) as pool:
            parts = pool.map(play, [("A", variants["A"], settings, known[i :: args.jobs]) for i in range(args.jobs)])
        replayed = {k: (won, guesses) for _, part in parts for k, won, _, guesses in part}
        stored = {k: (int(results["A"].won[k]), int(results["A"].guesses[k])) for k in known}
        if replayed != stored:
            differ = sum(replayed[k] != stored[k] for k in known)
            raise SystemExit(
                f"A replayed differs from the stored A of code {args.a_code} in {differ} of {len(known)} games"
            )
        print(f"A of code {args.a_code}: {len(known)} games replayed the same (won and guesses)", flush=True)
    games = range(args.start, args.games)
    tasks = []
    for i in range(args.start, args.games, BLOCK):
        block = list(games[i - args.start : i - args.start + BLOCK])
        for label in ("A",) if same else ("A", "B"):
            todo = [k for k in block if results[label].won[k] < 0]
            if todo:
                tasks.append((label, variants[label], settings, todo))
    played = sum(len(t[3]) for t in tasks)
    names = {label: variant or "default" for label, variant in variants.items()}
    print(f"code {code}; A {names['A']}; B {names['B']}; {played} games to play", flush=True)
    began, last = time.perf_counter(), time.perf_counter()
    if tasks:
        with Pool(args.jobs) as pool:
            for label, part in pool.imap_unordered(play, tasks):
                r = results[label]
                for k, won, seconds, guesses in part:
                    r.won[k], r.seconds[k], r.guesses[k] = won, seconds, guesses
                if time.perf_counter() - last > 60:
                    last = time.perf_counter()
                    for r in set(results.values()):
                        r.save()
                    done = sum(int((x.won[args.start :] >= 0).sum()) for x in set(results.values()))
                    print(f"  {done} games done, {time.perf_counter() - began:.0f} s", flush=True)
    for r in set(results.values()):
        r.save()
    a, b = results["A"].won[args.start :], results["B"].won[args.start :]
    n = len(a)
    diff, half, better, worse = paired(a, b)
    print(f"games {args.start}..{args.games - 1}: {n}")
    for label, won in (("A", a), ("B", b)):
        r = results[label]
        ms = 1000 * r.seconds[args.start :].mean()
        rate = won.mean()
        se = 1.959964 * math.sqrt(rate * (1 - rate) / n)
        print(
            f"{label}: won {int(won.sum())} = {100 * rate:.2f}% (+- {100 * se:.2f}), "
            f"{r.guesses[args.start :].mean():.3f} guesses/game, {ms:.2f} ms/game"
        )
    print(
        f"B - A: {100 * diff:+.3f} +- {100 * half:.3f} points; {better + worse} games differ "
        f"(B only {better}, A only {worse}); wall {time.perf_counter() - began:.0f} s"
    )


if __name__ == "__main__":
    main()
