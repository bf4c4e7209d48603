"""tapete: Texas Hold'em dealt and refereed exactly by the rules.

The rules engine (cards, betting, pots, the hand, PHH reading and replay) is typed Python that
the build compiles to C with mypyc where it can (see setup.py); :func:`compiled` says which runs.
``TAPETE_PURE=1`` in the environment runs the Python sources even where compiled modules are
installed: for a debugger, a profiler, or checking that both behave the same.
"""

from __future__ import annotations

import os

__version__ = "0.1.0"


def compiled() -> bool:
    """True when the rules engine runs as mypyc-compiled C extensions, False for pure Python."""
    from tapete.core import hand

    return not (hand.__file__ or "").endswith(".py")


def build_kind() -> str:
    """How the engine runs, for benchmarks and bug reports."""
    return "compiled (mypyc)" if compiled() else "pure Python"


if os.environ.get("TAPETE_PURE"):
    import importlib.abc
    import importlib.machinery
    import importlib.util
    import sys
    from collections.abc import Sequence
    from types import ModuleType

    class _PythonSources(importlib.abc.MetaPathFinder):
        """Finds tapete's modules as ``.py`` files before any compiled module beside them."""

        def find_spec(self, name: str, path: Sequence[str] | None,
                      target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
            if not name.startswith("tapete.") or not path:
                return None
            leaf = name.rpartition(".")[2] + ".py"
            for folder in path:
                source = os.path.join(folder, leaf)
                if os.path.isfile(source):
                    return importlib.util.spec_from_file_location(name, source)
            return None

    sys.meta_path.insert(0, _PythonSources())
