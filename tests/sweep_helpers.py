"""Task functions for the executor tests; module-level so Dask workers import them (tests/ is on their sys.path)."""

import os
from pathlib import Path


def square_or_die(index: int, markers: str) -> int:
    """Square `index`; the first time index 3 runs, kill the worker process running it."""
    if index == 3:
        marker = Path(markers) / "died"
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os._exit(1)
    return index * index
