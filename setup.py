"""Build tapete, compiling the rules engine to C with mypyc where the machine can.

The engine's modules are plain typed Python (``mypy --strict`` clean); mypyc turns them into C
extensions that run the same code two to three times faster. Where that cannot be done — no C
compiler, no Python headers, ``TAPETE_PURE=1`` in the environment — the same modules install as
Python and behave identically, only slower. ``tapete.compiled`` says which one is running.

Compiling takes about a minute, so the build says so first, and how to skip it. pip shows a
build's output only with ``pip install -v`` (or when the build fails): without it, what a user
sees is the README's line beside the install command, and pip's "Building wheel" spinner.
"""

from __future__ import annotations

import glob
import os
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# the engine's hot path: what a hand, a replay and a PHH file go through, action by action
COMPILED = [
    "src/tapete/core/cards.py",
    "src/tapete/core/text.py",
    "src/tapete/core/betting.py",
    "src/tapete/core/pots.py",
    "src/tapete/core/hand.py",
    "src/tapete/history/record.py",
    "src/tapete/history/phh.py",
    "src/tapete/history/replay.py",
]

# pip runs this file for the package's metadata too (egg_info, dist_info) before the build
METADATA_ONLY = {"egg_info", "dist_info", "sdist"}


class OptionalBuildExt(build_ext):
    """Compile if possible; on any failure say so and install the pure-Python modules. All or
    nothing: compiled modules need the shared runtime module mypyc builds with them."""

    def run(self) -> None:
        try:
            super().run()
            if self.extensions:
                print("tapete: the engine is compiled", file=sys.stderr, flush=True)
        except Exception as exc:  # no compiler, no headers: the Python modules still work
            for built in self.get_outputs():
                if os.path.exists(built):
                    os.remove(built)
            self.extensions = []
            print(f"tapete: the engine was not compiled ({exc}); installing pure Python",
                  file=sys.stderr)


def remove_built_in_place() -> None:
    """A pure build removes compiled modules an earlier editable build left beside the
    sources: Python would import them before the ``.py`` files."""
    for source in COMPILED:
        folder, name = os.path.split(source)
        for leftover in glob.glob(os.path.join(folder, name[:-3] + ".*.so")):
            os.remove(leftover)
    for leftover in glob.glob(os.path.join("src", "*__mypyc.*.so")):
        os.remove(leftover)


def extensions() -> list[Any]:
    if os.environ.get("TAPETE_PURE"):
        remove_built_in_place()
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("tapete: mypyc is not available; installing pure Python", file=sys.stderr)
        return []
    if not METADATA_ONLY.intersection(sys.argv[1:]):  # said once, by the build that compiles
        print("tapete: compiling the rules engine to C with mypyc (about a minute); to skip it,"
              " install with TAPETE_PURE=1 (pure Python: the same behaviour, half the speed)",
              file=sys.stderr, flush=True)
    try:
        # the engine's imports outside the compiled set (the evaluator and its numpy, loaded
        # lazily) need not be installed to build: their types are not checked here (mypy
        # --strict checks them in the test command) and may be missing
        options = ["--follow-imports=silent", "--ignore-missing-imports"]
        return list(mypycify([*options, *COMPILED], opt_level="3"))
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error: stay pure
        print(f"tapete: mypyc failed ({exc}); installing pure Python", file=sys.stderr)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
