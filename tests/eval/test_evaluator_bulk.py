"""The bulk path: same strengths as the scalar path, and the full seven-card enumeration."""

from __future__ import annotations

import numpy as np
import pytest

from tapete.ranking import Category, evaluate
from tapete.ranking.bulk import (
    category_counts,
    enumerate_seven,
    evaluate_many,
    random_hands,
    rank_table,
)

# docs/rules.md §6
SEVEN_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.ONE_PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


@pytest.mark.parametrize("n", [5, 6, 7])
def test_bulk_matches_scalar(n: int) -> None:
    hands = random_hands(30_000, n, seed=n)
    got = evaluate_many(hands)
    assert got.dtype == np.uint16
    assert got.tolist() == [evaluate(row) for row in hands.tolist()]


def test_bulk_accepts_other_int_arrays_and_out() -> None:
    hands = random_hands(1000, 7, seed=9)
    want = evaluate_many(hands)
    assert (evaluate_many(hands.astype(np.int64)) == want).all()
    assert (evaluate_many(hands.tolist()) == want).all()
    out = np.zeros(1000, np.uint16)
    assert evaluate_many(hands, out=out) is out and (out == want).all()
    assert (evaluate_many(np.asfortranarray(hands)) == want).all()


def test_bulk_rejects_bad_input() -> None:
    hands = random_hands(10, 7, seed=2)
    hands[4, 3] = 52
    with pytest.raises(ValueError, match="row 4"):
        evaluate_many(hands)
    hands[4, 3] = 255
    with pytest.raises(ValueError, match="row 4"):
        evaluate_many(hands)
    with pytest.raises(ValueError, match="0..51"):
        evaluate_many(np.full((2, 5), -1))
    with pytest.raises(ValueError, match="array"):
        evaluate_many(np.zeros((3, 4), np.uint8))
    with pytest.raises(ValueError, match="out"):
        evaluate_many(random_hands(3, 5), out=np.zeros(2, np.uint16))


def test_random_hands_are_distinct_and_seeded() -> None:
    hands = random_hands(20_000, 7, seed=5)
    assert (np.sort(hands, axis=1)[:, 1:] != np.sort(hands, axis=1)[:, :-1]).all()
    assert (random_hands(100, 7, seed=5) == hands[:100]).all()
    assert not (random_hands(100, 7, seed=6) == hands[:100]).all()
    # every card turns up about equally often
    counts = np.bincount(hands.ravel(), minlength=52)
    assert counts.min() > 0.9 * counts.mean()


def test_every_seven_card_hand() -> None:
    """All 133,784,560 hands (about a quarter of a second once compiled)."""
    hist = enumerate_seven()
    assert int(hist.sum()) == 133_784_560
    assert category_counts(hist) == SEVEN_CARD_COUNTS
    assert int(np.count_nonzero(hist)) == 4824  # distinct seven-card rank classes
    assert hist[0] == 0


def test_rank_hash_is_perfect_and_small() -> None:
    from tapete.ranking.tables import TABLES

    for n, patterns in ((5, 6175), (6, 18_395), (7, 49_205)):
        offsets, values = rank_table(n)
        keys = TABLES.rank_keys[n]
        slots = (keys & 63) + offsets[keys >> 6].astype(np.int64)
        assert len(np.unique(slots)) == patterns == int(np.count_nonzero(values))
        assert (values[slots] == TABLES.rank_values[n]).all()
        assert offsets.dtype == values.dtype == np.uint16
        assert len(values) < 1.2 * patterns  # packed: few empty slots


def test_a_kernel_with_nowhere_to_cache_is_compiled_in_memory() -> None:
    """numba refuses ``cache=True`` when it can write a cache neither next to the source nor in
    the user's cache folder (a read-only install run by a user without a writable home): the
    kernels must still compile, once per process, instead of failing to import. A function
    with no source file has no cache folder either."""
    from tapete.ranking._jit import njit

    space: dict[str, object] = {}
    exec(compile("def twice(x):\n    return 2 * x\n", "<no source file>", "exec"), space)
    assert njit(space["twice"])(21) == 42  # type: ignore[arg-type]


def test_the_package_imports_where_no_cache_can_be_written() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    import tapete

    env = {**os.environ, "PYTHONPATH": str(Path(tapete.__file__).parents[1])}  # these sources
    code = (
        "import numba.core.caching as c\n"
        "impl = getattr(c, 'CacheImpl', None) or c._CacheImpl\n"
        "impl._locator_classes = []  # no folder numba may write its cache in\n"
        "import tapete.eval.equity as E\n"
        "import tapete.ranking.bulk\n"
        "print(type(E._exact._cache).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "NullCache"
