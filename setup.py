"""The build steps pyproject.toml cannot state: the optional C loops, and the MiniZinc model as package data.

The extensions are optional: where they cannot be compiled, cpsolve runs the same loops in
Python. The MiniZinc model has one readable copy, ``models/one_click.mzn`` at the top of the
repository; building the package copies it into ``cpsolve/models/`` so an installed wheel finds
it through ``importlib.resources`` (``cpsolve.layout.minizinc.model_path``).
"""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildPyWithModels(build_py):
    """build_py that also copies ``models/*.mzn`` into the built package."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "cpsolve" / "models"
        target.mkdir(parents=True, exist_ok=True)
        for model in sorted(Path(__file__).parent.joinpath("models").glob("*.mzn")):
            shutil.copyfile(model, target / model.name)


# the C loops' shared headers: a change to one rebuilds the extensions that include it
HEADERS = ["cpsolve/_buffers.h", "cpsolve/_cell_states.h", "cpsolve/play/_casual_rules.h", "cpsolve/deduce/_backbone.h"]
# the deduction engine: one extension built from its units, one job each (cpsolve/deduce/_engine.h has the map)
ENGINE_UNITS = ["boxes", "count", "lookahead", "search", "module"]
ENGINE_SOURCES = [f"cpsolve/deduce/_engine_{unit}.c" for unit in ENGINE_UNITS]

setup(
    cmdclass={"build_py": BuildPyWithModels},
    ext_modules=[
        Extension("cpsolve.play._casual_engine", ["cpsolve/play/_casual_engine.c"], depends=HEADERS, optional=True),
        Extension("cpsolve.play._play_engine", ["cpsolve/play/_play_engine.c"], depends=HEADERS, optional=True),
        Extension("cpsolve._flood", ["cpsolve/_flood.c"], optional=True),
        Extension(
            "cpsolve.deduce._engine", ENGINE_SOURCES, depends=[*HEADERS, "cpsolve/deduce/_engine.h"], optional=True
        ),
    ],
)
