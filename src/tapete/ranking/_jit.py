"""Typed wrappers around numba's decorators and a small seeded random generator.

numba ships no type hints; wrapping ``njit`` here keeps ``mypy --strict`` meaningful for the
kernels. Every kernel is cached on disk (``cache=True``), so only the first run compiles: next to
the source (``__pycache__``) where that folder can be written, else in the user's cache folder
(``~/.cache/numba``, or ``NUMBA_CACHE_DIR`` when set), which is where an installed, read-only
package keeps them. Where neither can be written, numba refuses ``cache=True`` outright; the
kernels are then compiled in memory, once per process, rather than failing to import.

Signed and unsigned integers are kept apart on purpose: in numba, ``int64 op uint64`` becomes
float64. Card keys, hashes and indices are int64; only the random generator's state is uint64.

:func:`prefetch` asks the CPU to start loading a cache line that a kernel will read a little
later (numba has no such call of its own): the bulk Omaha kernel issues it for hands a few rows
ahead, so their table reads overlap instead of waiting one after another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from llvmlite import binding, ir
from numba.core import cgutils, types
from numba.extending import intrinsic

F = TypeVar("F", bound=Callable[..., Any])

#: the prefetch intrinsic's name: LLVM 17 and later mangle it for opaque pointers
_PREFETCH = "llvm.prefetch.p0" if binding.llvm_version_info >= (17,) else "llvm.prefetch.p0i8"


def _compiled(fn: F, **options: Any) -> F:
    try:
        return cast(F, numba.njit(cache=True, nogil=True, **options)(fn))
    except RuntimeError:  # "no locator available": nowhere to write a cache
        return cast(F, numba.njit(nogil=True, **options)(fn))


def njit(fn: F) -> F:
    """Compile ``fn`` once, cache it on disk, release the GIL while it runs."""
    return _compiled(fn)


def njit_inline(fn: F) -> F:
    """Like :func:`njit`, but inlined into its callers (a real call in a hot loop is slow)."""
    return _compiled(fn, inline="always")


def _prefetch(typingctx: Any, arr: Any, index: Any) -> Any:
    """``prefetch(arr, index)`` in jitted code: start loading the cache line of ``arr[index]``
    (a 1-d array) without waiting for it. A hint only: it never faults, even past the end."""
    cg: Any = cgutils

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cg.get_item_pointer(context, builder, aryty, ary, [args[1]])
        i32 = ir.IntType(32)
        i8p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cg.get_or_insert_function(builder.module, fnty, _PREFETCH)
        # a read, kept in every cache level, of data
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, index), codegen


#: see :func:`_prefetch` (typed loosely: numba's intrinsic object takes the typing context)
prefetch: Any = intrinsic(_prefetch)


# The generator's state is a scalar the kernel keeps in a local variable and threads through
# these helpers: an array argument would cost a reference-count round trip on every draw.


@njit_inline
def next_u64(s: Any) -> tuple[Any, Any]:
    """splitmix64 on a uint64 state: ``(new state, 64 random bits)``."""
    s = s + np.uint64(0x9E3779B97F4A7C15)
    z = s
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return s, z ^ (z >> np.uint64(31))


@njit_inline
def below(s: Any, n: int) -> tuple[Any, int]:
    """``(new state, a random int in [0, n))`` for ``n < 2**32`` (multiply-shift; the bias is
    below 1e-8)."""
    s, z = next_u64(s)
    return s, int(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit_inline
def uniform(s: Any) -> tuple[Any, float]:
    """``(new state, a random float in [0, 1))`` with 53 random bits."""
    s, z = next_u64(s)
    return s, float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def seed_state(seed: int) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """The generator's state for a seed (any Python int)."""
    return np.array([seed & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)
