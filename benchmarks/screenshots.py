"""The documentation's pictures of the web pages, taken again: every page at a laptop's size and a phone's.

Starts ``cpsolve serve`` on a free loopback port (``python -m cpsolve serve --port 0``), drives Debian's
Chromium with Playwright (headless; no browser is downloaded) and writes into ``docs/``:

- ``web_{page}_{size}.png`` and ``web_{page}_{size}_error.png`` for page in play, analyse, layout, api and
  size in laptop (1280x900) and phone (390x844): the page at work, and the page answering a mistake (a deal
  that cannot be dealt, a ragged row pasted, too many mines for the board, the server's description not to
  be had);
- ``web_contradiction.png`` and ``web_layout_impossible.png`` at the laptop's size.

Each page is taken whole (the API page: its first screen). The pictures are quantised to a palette and saved
optimised with Pillow (matplotlib's dependency: ``pip install -e '.[test]'``), a few tens of KB each;
``.gitignore`` ignores ``*.png`` except ``docs/*.png``, so these are the pictures kept.

Usage:
    python benchmarks/screenshots.py [--out docs] [--chromium /usr/bin/chromium] [--colors 96]
"""

from __future__ import annotations

import argparse
import io
import json
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SIZES = {"laptop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def start_server() -> tuple[subprocess.Popen[str], str]:
    """``cpsolve serve`` on a free loopback port, answering; the process and its address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cpsolve", "serve", "--port", "0", "--time-limit", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    found = re.search(r"http://127\.0\.0\.1:\d+", process.stdout.readline())
    if not found:
        process.kill()
        raise SystemExit("screenshots: cpsolve serve did not say where it listens")
    address = found.group(0)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(address + "/api/health", timeout=5) as answer:
                if json.load(answer)["status"] == "ok":
                    return process, address
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise SystemExit("screenshots: cpsolve serve did not start") from None
            time.sleep(0.2)


def idle(page) -> None:
    """Wait until the page has drawn the server's last answer."""
    page.wait_for_selector('.board[data-busy="0"]', state="attached", timeout=60_000)


def cell(page, row: int, col: int):
    return page.locator(f'#board .cell[data-row="{row}"][data-col="{col}"]')


def play(page, server: str, error: bool) -> None:
    """A no-guess beginner game a few moves in, its chances and hint shown; the error: a deal refused on it."""
    page.goto(f"{server}/?rows=9&cols=9&mines=10&start=opening&no_guess=perfect&seed=3")
    idle(page)
    page.click("#hint")
    idle(page)
    for _ in range(4):
        safe = page.eval_on_selector_all(
            '#board .cell[data-hint="safe"][data-state="covered"]',
            "cells => cells.map(c => [Number(c.dataset.row), Number(c.dataset.col)])",
        )
        cell(page, *sorted(safe)[0]).click()
        idle(page)
    page.click("#chances")
    idle(page)
    if error:
        page.select_option("#level", "custom")
        for field, value in (("#rows", 5), ("#cols", 5), ("#mines", 30)):
            page.fill(field, str(value))
        page.click("#new")
        page.wait_for_function("document.getElementById('problem').textContent !== ''")
        idle(page)
    else:
        cell(page, 9, 9).hover()


def analyse(page, server: str, error: bool) -> None:
    """An expert position with its chances and the best guess; the error: a ragged row pasted after it."""
    text = (EXAMPLES / "best" / "expert_midgame.txt").read_text()
    page.goto(f"{server}/analyse?position={quote(text)}")
    page.wait_for_selector("#board .cell[data-chance]")
    idle(page)
    if error:
        lines = text.splitlines()
        lines[3] = lines[3][:-2]  # a row two cells short
        page.fill("#text", "\n".join(lines) + "\n")
        page.click("#read")
        page.wait_for_function("document.getElementById('problem').textContent !== ''")
        idle(page)
    else:
        cell(page, 15, 30).hover()


def solve_layout(page, server: str, numbers: tuple[int, int, int], done: str) -> None:
    page.goto(f"{server}/layout")
    for field, value in zip(("#rows", "#cols", "#mines"), numbers, strict=True):
        page.fill(field, str(value))
    page.click("#solve")
    page.wait_for_function(done)
    idle(page)


def layout(page, server: str, error: bool) -> None:
    """A one-click board of 5 x 8 with 17 mines; the error: 5 mines asked of a 2 x 2 board."""
    if error:
        solve_layout(page, server, (2, 2, 5), "document.getElementById('problem').textContent !== ''")
    else:
        solve_layout(page, server, (5, 8, 17), "document.getElementById('verdict').textContent !== 'solving…'")


def api(page, server: str, error: bool) -> None:
    """The endpoints from /openapi.json; the error: that description not to be had (the request aborted)."""
    if error:
        page.route("**/openapi.json", lambda route: route.abort())
    page.goto(f"{server}/api")
    page.wait_for_selector("body[data-drawn]", state="attached")
    # the example's address as `cpsolve serve` prints it by default, not this run's free port
    page.eval_on_selector(
        "#example", "e => e.textContent = e.textContent.replace(location.origin, 'http://127.0.0.1:8000')"
    )


def contradiction(page, server: str) -> None:
    text = (EXAMPLES / "best" / "contradiction.txt").read_text()
    page.goto(f"{server}/analyse?position={quote(text)}")
    page.wait_for_selector("#board .cell.conflict")
    idle(page)


def impossible(page, server: str) -> None:
    solve_layout(page, server, (2, 2, 1), "document.getElementById('verdict').textContent === 'Impossible'")


def optimised(png: bytes, colors: int) -> bytes:
    """The picture on a palette of `colors` (screens of flat colours and text lose nothing to see), saved optimised."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    quantised = image.quantize(colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantised.save(out, format="PNG", optimize=True)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="the folder the PNGs go to (default docs/)")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the browser (default Debian's chromium)")
    parser.add_argument("--colors", type=int, default=96, help="the palette's size (default 96)")
    options = parser.parse_args()
    if not Path(options.chromium).exists():
        raise SystemExit(f"screenshots: no browser at {options.chromium} (apt-get install chromium)")
    if not options.out.is_dir():
        raise SystemExit(f"screenshots: {options.out} is not a folder")
    from playwright.sync_api import sync_playwright

    # (file name, size, what to do on the page, the whole page or its first screen)
    shots: list[tuple[str, str, Callable[[Any, str], None], bool]] = [
        (f"web_{name}_{size}{'_error' if error else ''}", size, partial(take, error=error), name != "api")
        for name, take in (("play", play), ("analyse", analyse), ("layout", layout), ("api", api))
        for size in SIZES
        for error in (False, True)
    ]
    shots += [
        ("web_contradiction", "laptop", contradiction, True),
        ("web_layout_impossible", "laptop", impossible, True),
    ]
    process, server = start_server()
    total = 0
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=options.chromium, args=CHROMIUM_ARGS)
            for name, size, take, whole in shots:
                context = browser.new_context(viewport=SIZES[size])
                page = context.new_page()
                problems: list[str] = []
                page.on("pageerror", lambda exception, problems=problems: problems.append(str(exception)))
                take(page, server)
                png = optimised(page.screenshot(full_page=whole), options.colors)
                context.close()
                if problems:
                    raise SystemExit(f"screenshots: {name}: the page failed: {problems[0]}")
                path = options.out / f"{name}.png"
                path.write_bytes(png)
                total += len(png)
                print(f"{path}: {len(png) / 1000:.0f} KB", flush=True)
            browser.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
    print(f"{len(shots)} pictures, {total / 1000:.0f} KB in all")


if __name__ == "__main__":
    main()
