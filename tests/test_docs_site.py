"""The documentation site as a reader meets it: built, served on loopback, and searched in a real browser.

The build log must be clean (no notice a reader of the log has to learn to ignore), the pages must ask
nothing of another host (a page that waits on a font server that never answers runs none of its
scripts, and its search stays on "Initializing search"), and a query typed into the search box in
headless Chromium must list pages. Needs the ``docs`` extra (mkdocs, and Playwright to drive the
browser) and a Chromium on the machine (``apt-get install chromium``); each test says why it skips
where one is missing. ``.ci/run`` runs this file after installing the docs extra.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

# builds the site and searches it in Chromium: left out of the quick run, `pytest -m "not slow"`
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
#: Where Debian's chromium package puts the browser (Playwright's own download is not used).
CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
#: A headless browser that leaves the machine alone: no sandbox (root in CI), no GPU, no updates.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str]:
    """The site built from this checkout with ``mkdocs build --strict``: its folder and the build's log."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
    if not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("no mkdocs.yml beside the tests: not a checkout of the repository")
    site = tmp_path_factory.mktemp("site")
    env = {name: value for name, value in os.environ.items() if name != "NO_MKDOCS_2_WARNING"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return site, done.stdout + done.stderr


def test_the_build_log_holds_nothing_but_the_build(built):
    _, log = built
    lines = [line for line in log.splitlines() if line.strip()]
    assert "end of life" not in log and "Zensical" not in log, log
    assert "Formatting signatures requires" not in log, log
    assert lines and all(line.startswith("INFO") for line in lines), log


def test_no_page_asks_another_host_for_anything(built):
    site, _ = built
    # what a page loads by itself: stylesheets, scripts, fonts, preconnections (links a reader follows are fine)
    loads = re.compile(r"<(?:link|script)\b[^>]*?(?:href|src)=\"(https?:)?//([^\"]+)\"[^>]*>")
    outside = set()
    for page in site.rglob("*.html"):
        for match in loads.finditer(page.read_text(encoding="utf-8")):
            tag = match.group(0)
            if tag.startswith("<link") and not re.search(r'rel="(?:stylesheet|preconnect|preload|icon)"', tag):
                continue
            outside.add(match.group(2))
    assert not outside, f"pages load from other hosts: {sorted(outside)}"


def test_every_api_page_lists_functions_first_then_classes_then_constants(built):
    import griffe  # mkdocstrings' own reader (the docs extra): the kinds as the pages see them

    site, _ = built
    package = griffe.load("cpsolve", search_paths=[str(ROOT)])
    ranks_of = {griffe.Kind.FUNCTION: 0, griffe.Kind.CLASS: 1}
    checked = 0
    for page in sorted((site / "reference" / "api").glob("*/index.html")):
        ranks: list[int] = []
        # each module (h2) and its members (h3), in the order shown
        headings = re.findall(r'<h([23]) id="(cpsolve[\w.]*)" class="doc doc-heading"', page.read_text("utf-8"))
        for level, path in headings:
            if level == "2":
                ranks = []
                continue
            try:
                kind = package.get_member(path.removeprefix("cpsolve.")).kind
            except (KeyError, griffe.AliasResolutionError):
                kind = griffe.Kind.ATTRIBUTE
            ranks.append(ranks_of.get(kind, 2))
            assert ranks == sorted(ranks), f"{page.parent.name}: {path} comes after a later kind"
            checked += 1
    assert checked > 100
    layout = (site / "reference" / "api" / "layout" / "index.html").read_text(encoding="utf-8")
    first = re.search(r'<h3 id="(cpsolve\.layout\.\w+)"', layout)
    assert first and first.group(1) == "cpsolve.layout.solve"


def test_no_page_speaks_of_what_its_reader_never_saw():
    # the project's own history (the issue that asked for a figure, the aim set for it) means nothing to a reader
    unseen = re.compile(r"\bthe issue\b|issue's|\baim\b", re.IGNORECASE)
    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    found = [
        f"{page.relative_to(ROOT)}:{number}: {text.strip()}"
        for page in pages
        if page.name != "changelog.md"  # the history, quoting what was reworded
        for number, text in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1)
        if unseen.search(text)
    ]
    assert not found, "\n".join(found)


def _chromium() -> str:
    for path in (*CHROMIUM_PATHS, shutil.which("chromium") or ""):
        if path and os.access(path, os.X_OK):
            return path
    pytest.skip("no Chromium on this machine (apt-get install chromium)")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002  # the base class's name
        pass


@pytest.fixture(scope="module")
def served(built):
    """The built site on a loopback port, for the length of the module."""
    site, _ = built
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    "query, page",
    [("hint", "tasks/analyse-position/"), ("casual player", "tasks/casual-player/")],
)
def test_a_query_typed_in_the_search_box_lists_pages(served, query, page):
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (the docs extra)")
    executable = _chromium()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page_ = browser.new_page()
            asked_elsewhere: list[str] = []

            def only_loopback(route) -> None:
                # a network that never answers (a firewall that drops, not refuses): a request
                # to any other host hangs, as it did where search stayed on "Initializing search"
                if urlsplit(route.request.url).hostname == "127.0.0.1":
                    route.continue_()
                else:
                    asked_elsewhere.append(route.request.url)

            page_.route("**/*", only_loopback)
            page_.goto(served, wait_until="load", timeout=30_000)
            box = page_.locator("input[data-md-component=search-query]")
            box.click()
            box.press_sequentially(query)
            results = page_.locator(".md-search-result__item a")
            results.first.wait_for(timeout=30_000)
            meta = page_.locator(".md-search-result__meta").inner_text()
            links = [results.nth(i).get_attribute("href") or "" for i in range(results.count())]
        finally:
            browser.close()
    assert re.match(r"\d+ matching documents?", meta), meta
    assert any(page in link for link in links), links
    assert not asked_elsewhere, asked_elsewhere
