"""cpsolve: constraint programming for Minesweeper construction and play.

Modules:
    errors:  the error types, each carrying its exit code.
    outcome: the one ``Status`` of every answer, and the ``Record`` sweeps and reports share.
    symbols: the characters boards and templates are drawn with.
    board:   the ``Board`` type (mines, present cells, click) and its text form.
    grid:    the king cell graph (networkx) and the compact neighbour tables derived from it.
    reveal:  flood-fill reveal from a click and the one-click judge every printed board goes through.
    formats: the file formats, each reader beside its writer.
    layout:  the one-click layout backends (greedy, CP-SAT, MiniZinc) behind one registry.
    casual:  the casual player's rules engine and the minimum over first clicks.
    deduce:  a revealed position (or clue puzzle) as constraints: solution, exact count, backbone, probabilities.
    play:    the players (casual, subset, perfect on deduce) and the fewest cells left covered over first clicks.
    generate: no-guess boards for a player (uniform, by rejection), 3BV and openings, random games.
    sweep:   sweeps as tasks (in this process, a local Dask cluster or a remote one), the SQLite
             results store with resume, and the reports (JSON, CSV, plot) rebuilt from it.
    cli:     the ``cpsolve`` command line (typer), one module per command.

Heavy modules (numpy, networkx, ortools, dask) are imported by the modules that need them, not here,
so ``import cpsolve`` and ``cpsolve --help`` stay cheap.
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
