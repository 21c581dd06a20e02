"""Run the Examples in the package's docstrings, on whichever cpsolve is installed.

Collected here rather than with pytest's --doctest-modules, which imports the checkout's files
by path and so collides with an installed (non-editable) copy of the package.
"""

import doctest
import importlib
import pkgutil

import pytest

import cpsolve

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(cpsolve.__path__, "cpsolve.")
    if not info.name.split(".")[-1].startswith("_")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


def test_the_examples_ran():
    """A walk that found no module, or no example, would make the test above pass vacuously."""
    attempted = sum(doctest.testmod(importlib.import_module(name)).attempted for name in MODULES)
    assert len(MODULES) >= 10 and attempted >= 5
