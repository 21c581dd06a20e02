"""The one loader behind the packages' lazy names: a name is imported from its module on first use.

``import cpsolve`` and ``cpsolve --help`` must stay cheap, so the packages that hand names on
(:mod:`cpsolve`, :mod:`cpsolve.formats`, :mod:`cpsolve.play`) do not import the modules that
define them; each sets its module ``__getattr__`` (PEP 562) to :func:`loader` of a table from
name to defining module.

Example:
    >>> find = loader("example", {"sqrt": "math"})
    >>> find("sqrt")(9.0)
    3.0
"""

from __future__ import annotations

import importlib

#: typing.TYPE_CHECKING without importing typing: this module is imported with ``cpsolve`` itself, on the way
#: to the command line's main(), and a Ctrl-C before main() holds it is Python's traceback (mypy reads any
#: TYPE_CHECKING as true)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

__all__ = ["loader"]


def loader(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports each of `names` from its module when first asked.

    Args:
        package: The package's name, for the error on an unknown name.
        names: Each name and the module that defines it (``{"analyse": "cpsolve.deduce"}``).
    """

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__
