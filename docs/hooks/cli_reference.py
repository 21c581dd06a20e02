"""MkDocs hook: the command-line reference, rendered from the typer app at build time.

``docs/reference/cli.md`` holds the marker line ``<!-- cli-reference -->``; this hook replaces it
with every command's help, read from the same click command objects that print ``--help`` (so the
page cannot drift from it). mkdocs-click cannot be used: typer 0.28 vendors click as
``typer._click``, and mkdocs-click's ``isinstance(param, click.Option)`` checks then drop every
option without a word. Any command that cannot be rendered fails the build.
"""

from __future__ import annotations

import html
import inspect
from typing import Any

from mkdocs.exceptions import PluginError

PAGE = "reference/cli.md"
MARKER = "<!-- cli-reference -->"


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Fill the CLI reference page; leave every other page as it is."""
    if page.file.src_uri != PAGE:
        return markdown
    if markdown.count(MARKER) != 1:
        raise PluginError(f"{PAGE} must hold the line {MARKER} exactly once")
    return markdown.replace(MARKER, render_cli())


def render_cli() -> str:
    """The whole reference: the ``cpsolve`` group, then each command in ``--help`` order."""
    import typer.main

    from cpsolve.cli import app

    group = typer.main.get_command(app)
    ctx = group.make_context("cpsolve", [], resilient_parsing=True)
    names = group.list_commands(ctx)
    if not names:
        raise PluginError("the typer app lists no commands")
    parts = [_render_group(group, ctx, names)]
    for name in names:
        try:
            command = group.get_command(ctx, name)
            if command is None:
                raise LookupError("the group returned no command")
            parts.append(_render_command(name, command, ctx))
        except Exception as error:  # any failure names the command and stops the build
            raise PluginError(f"cannot render `cpsolve {name}` for {PAGE}: {error!r}") from error
    return "\n".join(parts)


def _render_group(group: Any, ctx: Any, names: list[str]) -> str:
    lines = ["## `cpsolve`", "", _help_text(group.help), "", "```text", f"cpsolve {_usage(group, ctx)}", "```", ""]
    lines += _params(group, ctx, "Options")
    lines += ["**Commands:**", ""]
    for name in names:
        command = group.get_command(ctx, name)
        lines.append(f"- [`{name}`](#cpsolve-{name}): {command.get_short_help_str(limit=120)}")
    lines.append("")
    return "\n".join(lines)


def _render_command(name: str, command: Any, parent: Any) -> str:
    ctx = command.make_context(name, [], parent=parent, resilient_parsing=True)
    help_text = _help_text(command.help)
    if not help_text:
        raise ValueError("the command has no help text")
    lines = [
        f"## `cpsolve {name}` {{#cpsolve-{name}}}",
        "",
        help_text,
        "",
        "```text",
        f"cpsolve {name} {_usage(command, ctx)}",
        "```",
        "",
    ]
    lines += _params(command, ctx, "Arguments", arguments=True)
    lines += _params(command, ctx, "Options")
    return "\n".join(lines)


def _usage(command: Any, ctx: Any) -> str:
    return " ".join(command.collect_usage_pieces(ctx))


def _help_text(text: str | None) -> str:
    # typer keeps the docstring as written; a bare `\b` line (click's "do not rewrap") means nothing here
    cleaned = inspect.cleandoc(text or "")
    return "\n".join(line for line in cleaned.splitlines() if line.strip() != "\b")


def _params(command: Any, ctx: Any, title: str, arguments: bool = False) -> list[str]:
    """A bullet per parameter: the names and metavar as ``--help`` prints them, then the help."""
    items = []
    for param in command.get_params(ctx):
        if (param.param_type_name == "argument") != arguments:
            continue
        record = param.get_help_record(ctx)
        if record is None:  # hidden
            continue
        names, help_text = record
        items.append(f"- `{names}`" + (f": {_escape(help_text)}" if help_text else ""))
    return [f"**{title}:**", "", *items, ""] if items else []


def _escape(text: str) -> str:
    # help texts are plain text: keep Markdown and HTML from reading `*`, `_`, `[` or `<` as markup
    text = html.escape(text, quote=False)
    for char in "\\*_[":
        text = text.replace(char, "\\" + char)
    return text
