"""Builds the optional C engine of the casual player; everything else is in pyproject.toml.

The extension is optional: where it cannot be compiled, cpsolve runs the same loops in Python.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("cpsolve._casual_engine", ["cpsolve/_casual_engine.c"], optional=True)])
