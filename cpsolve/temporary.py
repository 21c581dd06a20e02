"""The temporary folder: where cpsolve and the programs it runs keep their scratch files.

Python's ``tempfile`` module passes over a ``TMPDIR`` it cannot use and quietly takes ``/tmp``; the
programs cpsolve runs do not (MiniZinc fails, deep in its own run). So a ``TMPDIR`` that is set
but is not a writable folder is refused at once, as the environment's fault, with one line that
names it, wherever cpsolve needs the folder: the MiniZinc backend, the spooled CSV report, a
local Dask cluster, a report's fallback copy.

Example:
    >>> import tempfile
    >>> temporary_folder() == tempfile.gettempdir()
    True
"""

from __future__ import annotations

import os
import tempfile

from cpsolve.errors import InputError

__all__ = ["temporary_folder"]


def temporary_folder() -> str:
    """The folder for temporary files, once it is known to be usable.

    Returns:
        ``tempfile.gettempdir()``: ``TMPDIR`` when it is set (and usable), else the system's.

    Raises:
        InputError: ``TMPDIR`` is set and is not a writable folder, or no temporary folder is usable at all.
    """
    named = os.environ.get("TMPDIR")
    if named:
        shown = named if len(named) <= 80 else named[:77] + "..."
        if not os.path.isdir(named):
            reason = "does not exist" if not os.path.exists(named) else "is not a folder"
        elif not os.access(named, os.W_OK | os.X_OK):
            reason = "is not writable"
        else:
            reason = ""
        if reason:
            raise InputError(f"TMPDIR={shown} {reason}: set TMPDIR to a writable folder, or unset it")
    try:
        return tempfile.gettempdir()
    except (OSError, FileNotFoundError) as error:  # no candidate folder is writable
        raise InputError(f"no usable folder for temporary files ({error}): set TMPDIR to a writable folder") from None
