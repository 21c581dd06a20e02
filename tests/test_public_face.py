"""`import cpsolve`: the main functions by name, each loaded on first use."""

from __future__ import annotations

import subprocess
import sys

import pytest

import cpsolve


@pytest.mark.parametrize("name", [name for name in cpsolve.__all__ if name != "__version__"])
def test_every_public_name_is_the_defining_modules_object(name):
    obj = getattr(cpsolve, name)
    module = sys.modules[cpsolve._NAMES[name]]
    assert getattr(module, name) is obj
    assert name in dir(cpsolve)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        cpsolve.nothing  # noqa: B018


def test_importing_the_package_loads_no_heavy_module():
    code = "import sys, cpsolve; print(sorted(m for m in ('numpy', 'networkx', 'ortools') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
