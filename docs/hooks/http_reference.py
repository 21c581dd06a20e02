"""MkDocs hook: the HTTP API's reference, rendered from the web app's own OpenAPI description at build time.

``docs/reference/http-api.md`` holds the marker line ``<!-- http-reference -->``; this hook replaces
it with every endpoint, its fields (name, type, default, what) and its answers, read from
``create_app().openapi()``: the description ``GET /openapi.json`` serves, so the page cannot drift
from the server. The app is built, not started (no solver process runs). It needs the web extra.
"""

from __future__ import annotations

import html
from typing import Any

from mkdocs.exceptions import PluginError

PAGE = "reference/http-api.md"
MARKER = "<!-- http-reference -->"


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Fill the HTTP API page; leave every other page as it is."""
    if page.file.src_uri != PAGE:
        return markdown
    if markdown.count(MARKER) != 1:
        raise PluginError(f"{PAGE} must hold the line {MARKER} exactly once")
    try:
        from cpsolve.web.app import create_app
    except ImportError as error:
        raise PluginError(f"{PAGE} is drawn from the web app: install the web extra ({error})") from error
    return markdown.replace(MARKER, render(create_app().openapi()))


def render(spec: dict[str, Any]) -> str:
    """Every path and method of an OpenAPI description, in its order."""
    parts = []
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            parts.append(_operation(spec, path, method, operation))
    if not parts:
        raise PluginError("the web app's OpenAPI description lists no endpoint")
    return "\n".join(parts)


def _resolve(spec: dict[str, Any], schema: dict[str, Any] | None) -> dict[str, Any]:
    if schema and "$ref" in schema:
        return spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema or {}


def _type(spec: dict[str, Any], schema: dict[str, Any]) -> str:
    schema = _resolve(spec, schema)
    if "enum" in schema:
        return " \\| ".join(f"`{value!r}`".replace("'", '"') for value in schema["enum"])
    if "const" in schema:
        return f'`"{schema["const"]}"`'
    if "anyOf" in schema:
        return " \\| ".join(_type(spec, option) for option in schema["anyOf"])
    if schema.get("type") == "array":
        return f"list of {_type(spec, schema.get('items', {}))}"
    return schema.get("type") or schema.get("title", "object")


def _cell(text: Any) -> str:
    """Text in a table cell: HTML and Markdown's own characters escaped."""
    escaped = html.escape(str(text), quote=False).replace("\n", " ")
    for ch in "|*":
        escaped = escaped.replace(ch, "\\" + ch)
    return escaped


def _operation(spec: dict[str, Any], path: str, method: str, operation: dict[str, Any]) -> str:
    summary, description = operation.get("summary", ""), operation.get("description", "")
    lines = [f"## `{method.upper()} {path}`", "", f"**{summary}.** {_cell(description)}", ""]
    body = operation.get("requestBody")
    if body:
        schema = _resolve(spec, body["content"]["application/json"]["schema"])
        required = set(schema.get("required", []))
        lines += ["| field | type | default | what |", "|-------|------|---------|------|"]
        for name, field in schema.get("properties", {}).items():
            default = "required" if name in required else f"`{field.get('default', None)!r}`".replace("'", '"')
            default = default.replace("`None`", "`null`").replace("`True`", "`true`").replace("`False`", "`false`")
            lines.append(f"| `{name}` | {_type(spec, field)} | {default} | {_cell(field.get('description', ''))} |")
        lines.append("")
    answers = operation.get("responses", {})
    lines += [f"- **{code}**: {_cell(answer.get('description', ''))}" for code, answer in answers.items()]
    lines.append("")
    return "\n".join(lines)
