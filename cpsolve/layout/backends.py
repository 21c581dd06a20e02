"""The layout backends by name: each one's solve function, and the fakes tests register beside them.

Example:
    >>> from cpsolve.layout import LayoutProblem, SolveOptions
    >>> backend_function("greedy")(LayoutProblem(3, 3, 1), SolveOptions()).board.to_rows()
    ['c..', '...', '..*']
"""

from __future__ import annotations

from dataclasses import replace

from cpsolve.errors import UsageError
from cpsolve.layout import (
    BACKENDS,
    MODEL_VARIANTS,
    NO_PHASES,
    BackendFunction,
    Dominance,
    LayoutProblem,
    LayoutResult,
    SolveOptions,
)

__all__ = ["backend_function", "register_backend"]


# Each backend's module is imported when that backend first solves: OR-Tools takes a third of a second
# to import and starts threads, MiniZinc's runner brings tempfile and the package's resources, and a
# command that asks for one backend pays for no other.


def _greedy(problem: LayoutProblem, options: SolveOptions) -> LayoutResult:
    """The greedy backend (:func:`cpsolve.layout.greedy.solve`)."""
    from cpsolve.layout import greedy

    return greedy.solve(problem, options)


def _cp(problem: LayoutProblem, options: SolveOptions) -> LayoutResult:
    """The cp backend (:func:`cpsolve.layout.cpsat.solve`)."""
    from cpsolve.layout import cpsat

    return cpsat.solve(problem, options)


def _minizinc(problem: LayoutProblem, options: SolveOptions) -> LayoutResult:
    """The minizinc backend (:func:`cpsolve.layout.minizinc.solve`)."""
    from cpsolve.layout import minizinc

    return minizinc.solve(problem, options)


def _model_variant(encoding: str) -> BackendFunction:
    """The cp backend with no phase before the model, dominance none and `encoding` (see MODEL_VARIANTS)."""

    def solve_model(problem: LayoutProblem, options: SolveOptions) -> LayoutResult:
        alone = replace(options, encoding=encoding, dominance=Dominance.NONE.value, phases=NO_PHASES)
        return _cp(problem, alone)

    return solve_model


#: Each backend's solve function, by name (:data:`cpsolve.layout.BACKENDS`, then :data:`cpsolve.layout.MODEL_VARIANTS`).
_FUNCTIONS: dict[str, BackendFunction] = {
    "greedy": _greedy,
    "cp": _cp,
    "minizinc": _minizinc,
    **{name: _model_variant(encoding) for name, encoding in MODEL_VARIANTS.items()},
}
#: Backends registered at run time (the tests' fakes).
_registered: dict[str, BackendFunction] = {}


def register_backend(name: str, function: BackendFunction) -> None:
    """Register a backend function under a name (tests use this to add fakes)."""
    _registered[name] = function


def backend_function(name: str) -> BackendFunction:
    """The solve function of a backend by its name.

    Raises:
        UsageError: No backend has that name.
    """
    function = _registered.get(name) or _FUNCTIONS.get(name)
    if function is None:
        raise UsageError(f"unknown backend {name!r}; choose from {', '.join([*BACKENDS, *MODEL_VARIANTS])}")
    return function
