"""Boards for games: dealing them, no-guess generation, board statistics, and random games for win rates.

Modules:
    deal:        what defines a random game (:class:`GameSettings`), the start rules, a uniform board.
    no_guess:    boards a player wins without guessing, dealt uniformly by rejection.
    board_stats: a board's openings and 3BV.
    win_rates:   one random game as a plain function of (settings, index), and the win rate's summary.
"""

from cpsolve.generate.board_stats import openings_and_3bv
from cpsolve.generate.deal import GameSettings, allowed_cells, draw_board
from cpsolve.generate.no_guess import ENUMERATION_LIMIT, Dealt, any_board_qualifies, generate_boards
from cpsolve.generate.win_rates import play_game, summarise_games, summarise_records, wilson_interval

__all__ = [
    "GameSettings",
    "Dealt",
    "openings_and_3bv",
    "allowed_cells",
    "draw_board",
    "ENUMERATION_LIMIT",
    "any_board_qualifies",
    "generate_boards",
    "play_game",
    "wilson_interval",
    "summarise_games",
    "summarise_records",
]
