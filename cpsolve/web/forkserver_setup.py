"""Imported first by the solver pool's forkserver (its preload), to tie the forkserver's life to the server's.

The forkserver is the process every solver process is forked from (:mod:`cpsolve.web.pool`). On
import in the forkserver, and only there (the server names itself its parent in the environment
variable :data:`cpsolve.web.pool.FORKSERVER_PARENT`), this module:

- has the kernel kill the forkserver when the server ends, even by SIGKILL (``PR_SET_PDEATHSIG``);
  each solver process has the same tie to the forkserver, so none outlives the server;
- ignores SIGTERM, as the forkserver already ignores Ctrl-C: a service manager that signals every
  process of the server's group must not end the forkserver, and with it the work in progress,
  before the server has given that work its grace. The server ends the forkserver itself.

Nothing else imports this module; imported anywhere else it does nothing.
"""

from __future__ import annotations

import os
import signal

from cpsolve.web.pool import FORKSERVER_PARENT, end_with_parent

__all__: list[str] = []

_parent = os.environ.get(FORKSERVER_PARENT, "")
if _parent.isdigit() and int(_parent) == os.getppid():
    end_with_parent(int(_parent))
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
