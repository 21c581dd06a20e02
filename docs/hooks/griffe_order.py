"""Griffe extension: each module's API page leads with its functions, then its classes, then its constants.

mkdocstrings lists a module's members in the order of its ``__all__`` (``members_order`` in
mkdocs.yml) with ``group_by_category`` off, since grouping by category would put every constant
first. This extension reorders each module's ``__all__``, as the site reads it (the code is left
alone), by kind: the functions people call first, then the classes (the types those functions
take and return), then everything else (constants, type aliases); within each kind the order of
``__all__`` is kept, so a module puts its main function first by naming it first there.
"""

from __future__ import annotations

from typing import Any

import griffe

#: The order of the kinds on a page; a member of any other kind (an attribute) comes after these.
KIND_ORDER = (griffe.Kind.FUNCTION, griffe.Kind.CLASS)


class ExportOrder(griffe.Extension):
    """Reorder every module's exports, once the package is loaded."""

    def on_package(self, *, pkg: griffe.Module, **_: Any) -> None:
        for module in _modules(pkg):
            if module.exports:
                module.exports = sorted(module.exports, key=lambda name: _rank(module, name))


def _modules(module: griffe.Module) -> Any:
    yield module
    for member in module.members.values():
        if not member.is_alias and member.is_module:
            yield from _modules(member)  # type: ignore[arg-type]  # is_module: it is a Module


def _rank(module: griffe.Module, name: Any) -> int:
    """Where a name goes: its kind's place in KIND_ORDER (sorted() keeps __all__'s order within)."""
    try:
        kind = module.get_member(str(name)).kind
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return len(KIND_ORDER)
    return KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER)
