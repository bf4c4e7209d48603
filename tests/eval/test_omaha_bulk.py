"""The bulk Omaha path (numba): the same high and low as the scalar evaluators, row by row, and
as the brute forces of the scalar tests (every pair of hole cards with every triple of the
board). The issue's 10^6 hands run in ``benchmarks/bench_omaha.py --check``."""

from __future__ import annotations

import numpy as np
import pytest
from test_omaha_eval import brute_force
from test_omaha_low import _strength, brute_omaha_low

from tapete.ranking.bulk import random_hands
from tapete.ranking.low import evaluate_omaha_low
from tapete.ranking.omaha import evaluate_omaha
from tapete.ranking.omaha_bulk import (
    AHEAD,
    CHUNK,
    evaluate_omaha_hilo_many,
    evaluate_omaha_low_many,
    evaluate_omaha_many,
)

LOW_CARDS = np.array([c for c in range(52) if c >> 2 <= 6 or c >> 2 == 12], np.uint8)
TWO_SUITS = np.array([c for c in range(52) if c & 3 in (0, 3)], np.uint8)


def _deals(count: int, hole: int, seed: int, deck: np.ndarray | None = None) -> np.ndarray:
    """``count`` rows of ``hole + 5`` distinct cards, from ``deck`` (all 52 by default)."""
    rows = random_hands(count, hole + 5, seed=seed)
    if deck is None:
        return rows
    rng = np.random.default_rng(seed)
    return np.array([rng.choice(deck, hole + 5, replace=False) for _ in range(count)], np.uint8)


@pytest.mark.parametrize("hole", [2, 3, 4, 5])
@pytest.mark.parametrize("board", [3, 4, 5])
def test_bulk_high_and_low_match_the_scalar_path(hole: int, board: int) -> None:
    deals = _deals(2000, hole, seed=10 * hole + board)
    holes, boards = deals[:, :hole], deals[:, hole:hole + board]
    high, low = evaluate_omaha_hilo_many(holes, boards)
    assert high.dtype == np.uint16 and low.dtype == np.uint8
    rows = deals.tolist()
    assert high.tolist() == [evaluate_omaha(r[:hole], r[hole:hole + board]) for r in rows]
    assert low.tolist() == [evaluate_omaha_low(r[:hole], r[hole:hole + board]) for r in rows]
    assert (evaluate_omaha_many(holes, boards) == high).all()
    assert (evaluate_omaha_low_many(holes, boards) == low).all()


@pytest.mark.parametrize("hole", [4, 5])
def test_bulk_matches_brute_force_on_flushes_and_lows(hole: int) -> None:
    """Deals from two suits (flushes, straight flushes, boards of three suited cards and the
    hands around them) and from the 32 low cards (lows, counterfeits, paired low boards)."""
    for deck, seed in ((TWO_SUITS, 1), (LOW_CARDS, 2), (None, 3)):
        deals = _deals(400, hole, seed=seed + hole, deck=deck)
        high, low = evaluate_omaha_hilo_many(deals[:, :hole], deals[:, hole:])
        for r, hi, lo in zip(deals.tolist(), high.tolist(), low.tolist(), strict=True):
            assert hi == brute_force(r[:hole], r[hole:]), r
            assert lo == _strength(brute_omaha_low(r[:hole], r[hole:])), r


@pytest.mark.parametrize("count",
                         [1, CHUNK - 1, CHUNK, CHUNK + 1, CHUNK + AHEAD + 1, 3 * CHUNK + 5])
def test_bulk_high_in_chunks_and_hand_by_hand(count: int) -> None:
    """Four hole cards on many boards go in chunks (rows first, prefetching, flushes last), on
    fewer than a chunk hand by hand: both give the scalar path's high, at every chunk edge and
    on flush-heavy deals."""
    for deck, seed in ((TWO_SUITS, 7), (None, 8)):
        deals = _deals(count, 4, seed=seed + count, deck=deck)
        high = evaluate_omaha_many(deals[:, :4], deals[:, 4:])
        assert high.tolist() == [evaluate_omaha(r[:4], r[4:]) for r in deals.tolist()]


def test_bulk_accepts_other_int_arrays() -> None:
    deals = random_hands(500, 9, seed=4)
    want = evaluate_omaha_many(deals[:, :4], deals[:, 4:])
    assert (evaluate_omaha_many(deals[:, :4].astype(np.int64), deals[:, 4:].tolist()) == want).all()
    assert (evaluate_omaha_many(np.asfortranarray(deals[:, :4]), deals[:, 4:]) == want).all()
    empty = np.zeros((0, 4), np.uint8)
    assert evaluate_omaha_many(empty, np.zeros((0, 5), np.uint8)).shape == (0,)


def test_bulk_rejects_bad_input() -> None:
    deals = random_hands(10, 9, seed=5)
    with pytest.raises(ValueError, match="holes"):
        evaluate_omaha_many(deals[:, :1], deals[:, 4:])
    with pytest.raises(ValueError, match="boards"):
        evaluate_omaha_many(deals[:, :4], deals[:, 4:6])
    with pytest.raises(ValueError, match="one board per hand"):
        evaluate_omaha_low_many(deals[:, :4], deals[:5, 4:])
    bad = deals.astype(np.int64)
    bad[3, 2] = 52
    with pytest.raises(ValueError, match="0..51"):
        evaluate_omaha_many(bad[:, :4], bad[:, 4:])
    with pytest.raises(ValueError, match="0..51"):
        evaluate_omaha_low_many(bad[:, :4] - 53, bad[:, 4:])
