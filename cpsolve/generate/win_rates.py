"""Random games and their win rates: one game as a plain function of (settings, index), and the summary.

Random games are a plain function of (settings, game index) (:func:`play_game`), each seeded by
``numpy.random.default_rng([seed, index])``, so results do not depend on how games are split
among workers.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict

import numpy as np

from cpsolve.board import Board
from cpsolve.generate.board_stats import openings_and_3bv
from cpsolve.generate.deal import GameSettings, draw_board
from cpsolve.outcome import Record, Status
from cpsolve.play.best import DEFAULT, BestSettings
from cpsolve.play.best_games import play_best
from cpsolve.play.game import Game

__all__ = ["play_game", "wilson_interval", "summarise_games", "summarise_records"]


def play_game(settings: GameSettings, index: int, strategy: BestSettings = DEFAULT) -> Record:
    """Game `index` of a random series: draw its board, play it, say whether the player won.

    A plain function of its arguments (the board comes from ``default_rng([seed, index])``), so
    sweeps may run games in any order and on any worker.

    Args:
        settings: The series.
        index: The game's number in it.
        strategy: How the best player guesses (for the other players it is not read).

    Returns:
        A Record with ``answer = {"won", "3bv", "openings", "cleared"}``, and ``"guesses"`` for
        the best player (which breaks ties with ``default_rng([seed, index, 1])``).
    """
    settings.check()  # a sweep checks its settings once; a program calling this may not have
    rng = np.random.default_rng([settings.seed, index])
    began = time.perf_counter()
    mines = draw_board(settings, rng)
    if settings.player == "best":  # the guessing player: its ties from a stream of its own
        ties = np.random.default_rng([settings.seed, index, 1])
        game = play_best(mines, settings.click, ties, settings=strategy)
        won, cleared, extra = game.won, game.cleared, {"guesses": game.guesses}
    else:
        board = Board(mines, None, np.ones(mines.shape, dtype=bool))
        end = Game(board, settings.player, settings.use_total).play(settings.click)
        won, cleared, extra = end.won, end.cleared, {}
    seconds = time.perf_counter() - began
    openings, bbbv = openings_and_3bv(mines)
    case = {**asdict(settings), "index": index}
    answer = {"won": won, "3bv": bbbv, "openings": openings, "cleared": cleared, **extra}
    return Record("game", case, settings.player, Status.POSSIBLE, seconds, answer)


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a rate of wins out of games."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise_games(settings: GameSettings, games: int) -> dict:
    """Play games 0..games-1 (:func:`play_game`) and sum them up.

    Returns:
        A JSON-able dict: the settings, ``games``, ``won``, ``rate`` with its 95% Wilson
        ``interval``, and the mean and standard deviation of 3BV.
    """
    records = [play_game(settings, index) for index in range(games)]
    return summarise_records(settings, records)


def summarise_records(settings: GameSettings, records: list[Record]) -> dict:
    """The summary of :func:`summarise_games` from records already played (in any order)."""
    won = sum(record.answer["won"] for record in records)
    values = np.array([record.answer["3bv"] for record in records], dtype=float)
    low, high = wilson_interval(won, len(records))
    row, col = settings.click
    return {
        "rows": settings.rows,
        "cols": settings.cols,
        "mines": settings.mines,
        "first": [row + 1, col + 1],
        "start": settings.start,
        "player": settings.player,
        "total": settings.use_total,
        "seed": settings.seed,
        "games": len(records),
        "won": int(won),
        "rate": won / len(records) if records else 0.0,
        "interval": [low, high],
        "3bv_mean": float(values.mean()) if len(values) else 0.0,
        "3bv_sd": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
        **(_guessing_summary(records) if settings.player == "best" else {}),
    }


def _guessing_summary(records: list[Record]) -> dict:
    """The guessing player's extras: mean guesses and seconds per game (the seconds vary from run
    to run, so the other players' summaries, compared digit for digit, leave them out)."""
    if not records:
        return {"guesses_mean": 0.0, "seconds_per_game": 0.0}
    return {
        "guesses_mean": float(np.mean([record.answer["guesses"] for record in records])),
        "seconds_per_game": float(np.mean([record.seconds for record in records])),
    }
