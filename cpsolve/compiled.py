"""The optional C extensions, loaded in one place.

cpsolve builds four small C extensions at install time (``setup.py``), each beside the Python
module that loads it: the casual player's worklist (``play._casual_engine``), the game core's
cascade and the subset and perfect players (``play._play_engine``), the judge's flood fill
(``_flood``), and the deduction engine's probabilities, look-ahead and game-tree searches
(``deduce._engine``). Each is optional: where a compiler was missing, the same code runs in Python,
and the tests hold the two to the same answers. Modules ask :func:`extension` for one and fall
back to their Python reference on None. Setting the environment variable ``CPSOLVE_PURE_PYTHON=1``
makes every extension count as not built: the whole suite runs that way too, as a machine without a
C compiler would (``CPSOLVE_PURE_PYTHON=1 python -m pytest``).

Example:
    >>> extension("_no_such_extension") is None
    True
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from types import ModuleType

__all__ = ["extension"]


@cache
def extension(name: str) -> ModuleType | None:
    """The compiled module ``cpsolve.<name>`` (`name` as ``"play._play_engine"``), or None when it was not built
    (or ``CPSOLVE_PURE_PYTHON`` is set)."""
    if os.environ.get("CPSOLVE_PURE_PYTHON"):
        return None
    try:
        return importlib.import_module(f"cpsolve.{name}")
    except ImportError:
        return None
