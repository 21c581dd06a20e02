"""MkDocs hook: every public module of the package has its place in the API reference.

A module added to ``cpsolve/`` and forgotten in ``docs/reference/api/*.md`` would be missing from
the reference without a word; this hook stops the build instead, naming it. Public means: no path
component starting with ``_``, and outside ``cpsolve.cli`` (the command line's reference is
generated from the typer app, ``cli_reference.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

API_PAGES = "reference/api"
DIRECTIVE = re.compile(r"^::: ([\w.]+)\s*$", re.MULTILINE)
NOT_IN_API = ("cpsolve.cli",)


def on_pre_build(config: Any, **_: Any) -> None:
    """Compare the modules under ``cpsolve/`` with the ``::: module`` lines of the API pages."""
    root = Path(config["config_file_path"]).parent
    rendered = set()
    for page in (Path(config["docs_dir"]) / API_PAGES).glob("*.md"):
        rendered.update(DIRECTIVE.findall(page.read_text(encoding="utf-8")))
    missing = sorted(name for name in _public_modules(root / "cpsolve") if name not in rendered)
    if missing:
        raise PluginError(f"modules missing from docs/{API_PAGES}/*.md (add a '::: name' line): {', '.join(missing)}")


def _public_modules(package: Path) -> list[str]:
    names = []
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        if any(part.startswith("_") for part in parts) or name.startswith(NOT_IN_API):
            continue
        names.append(name)
    return names
