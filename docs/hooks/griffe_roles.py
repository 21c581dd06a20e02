"""Griffe extension: the docstrings' Sphinx roles as mkdocstrings cross-references.

The package's docstrings name other objects the Sphinx way (``:func:`analyse```,
``:class:`~cpsolve.outcome.Record```), which reads well in the source and in ``help()``. For the
site each role becomes a link, resolved the way Python would resolve the name from where the
docstring sits (the object's own members, then its parents', imports included):

- a public object becomes an autorefs link (`` [`analyse`][cpsolve.deduce.analysis.analyse] ``),
  so ``mkdocs build --strict`` fails if the API reference does not render it;
- a private one (a name starting with ``_``) or one of the command line's internals
  (``cpsolve.cli``, whose reference is the CLI page) becomes plain code;
- a name that resolves to nothing stops the build: the docstring points at something that is
  not there.

A leading ``~`` shows only the last component, as in Sphinx.

It also reads an ``Example:`` section as ``Examples:``, as Sphinx's napoleon does (griffe would
take the singular for an admonition and render the doctest's ``>>>`` lines as quotes).
"""

from __future__ import annotations

import contextlib
import re
from functools import partial
from typing import Any

import griffe

EXAMPLE_SECTION = re.compile(r"^(\s*)Example:\s*$", re.MULTILINE)
ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`(~?)([\w.]+)`")
#: Targets rendered as code rather than linked: the command line is documented on its own page.
UNLINKED_PREFIXES = ("cpsolve.cli",)


class SphinxRoles(griffe.Extension):
    """Rewrite every role in the package's docstrings once the package is loaded."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **_: Any) -> None:
        problems: list[str] = []
        for obj in _walk(pkg):
            if obj.docstring is None:
                continue
            text = EXAMPLE_SECTION.sub(r"\1Examples:", obj.docstring.value)
            obj.docstring.value = ROLE.sub(partial(_link, obj=obj, loader=loader, problems=problems), text)
        if problems:
            raise griffe.GriffeError("unresolved references in docstrings:\n  " + "\n  ".join(problems))


def _walk(obj: griffe.Object) -> Any:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)


def _link(match: re.Match[str], obj: griffe.Object, loader: griffe.GriffeLoader, problems: list[str]) -> str:
    short, name = match.groups()
    shown = name.rsplit(".", 1)[-1] if short else name
    target = _resolve(name, obj, loader)
    if target is None:
        problems.append(f"{obj.path}: {match.group(0)}")
        return f"`{shown}`"
    if not _documented(target, loader) or target.startswith(UNLINKED_PREFIXES):
        return f"`{shown}`"
    return f"[`{shown}`][{target}]"


def _documented(path: str, loader: griffe.GriffeLoader) -> bool:
    """Whether the API reference renders `path`: it and every parent are public (``__all__``)."""
    obj = loader.modules_collection.get_member(path)
    while obj is not None and obj.parent is not None:
        if not obj.is_public:
            return False
        obj = obj.parent
    return True


def _resolve(name: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str | None:
    """The full path of `name` as seen from `obj`, or None if no such object exists."""
    head, _, rest = name.partition(".")
    candidates = [name]  # a full path (cpsolve.x.y)
    with contextlib.suppress(griffe.NameResolutionError):
        candidates.insert(0, obj.resolve(head) + (f".{rest}" if rest else ""))
    for path in candidates:
        try:
            found = loader.modules_collection.get_member(path)
        except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue
        return found.target_path if found.is_alias else found.path
    return None
