"""Order agreement with other evaluators (test dependencies only; tapete never imports them).

Two hands compare the same way under tapete and a peer, ties included, for every pair of the
hands below: that is checked at once by sorting on tapete's strength and requiring the peer's
values to be constant within each strength and strictly increasing between strengths.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from tapete.cli.bench import order_agrees
from tapete.ranking.bulk import evaluate_many, random_hands

RANKS = "23456789TJQKA"
SUITS = "cdhs"
MILLION = 1_000_000


def assert_same_order(ours: npt.ArrayLike, theirs: npt.ArrayLike, higher_is_better: bool) -> None:
    assert order_agrees(ours, theirs, higher_is_better), "the peer orders some hands differently"


def name(c: int) -> str:
    return RANKS[c >> 2] + SUITS[c & 3]


def test_eval7_million_seven_card_hands() -> None:
    eval7 = pytest.importorskip("eval7")
    hands = random_hands(MILLION, 7, seed=101)
    cards = [eval7.Card(name(c)) for c in range(52)]
    ev = eval7.evaluate
    theirs = [ev([cards[c] for c in row]) for row in hands.tolist()]
    assert_same_order(evaluate_many(hands), theirs, higher_is_better=True)


def test_phevaluator_million_seven_card_hands() -> None:
    ph = pytest.importorskip("phevaluator")
    assert ph.Card("2d").id_ == 1 and ph.Card("As").id_ == 51  # its card ids are ours
    hands = random_hands(MILLION, 7, seed=102)
    ev = ph.evaluate_cards
    theirs = [ev(*row) for row in hands.tolist()]
    assert_same_order(evaluate_many(hands), theirs, higher_is_better=False)


def test_treys_million_hands() -> None:
    """treys ranks seven cards by trying all 21 fives (~10 us a hand), so its million is
    900,000 five-card hands plus 100,000 seven-card hands."""
    treys = pytest.importorskip("treys")
    cards = [treys.Card.new(name(c)) for c in range(52)]
    ev = treys.Evaluator()
    for n, count in ((5, 900_000), (7, 100_000)):
        hands = random_hands(count, n, seed=103 + n)
        rank = ev.hand_size_map[n]  # what Evaluator.evaluate dispatches to
        theirs = [rank([cards[c] for c in row]) for row in hands.tolist()]
        assert_same_order(evaluate_many(hands), theirs, higher_is_better=False)


def test_pokerfast_batch_million_hands() -> None:
    """OMPEval through pokerfast's batch call: the same bytes (its suit order differs, which
    only renames suits)."""
    pf = pytest.importorskip("pokerfast.equity")
    if not pf.available():
        pytest.skip("pokerfast without its compiled OMPEval")
    import ctypes

    lib = pf._load()
    for n in (5, 6, 7):
        hands = np.ascontiguousarray(random_hands(MILLION, n, seed=110 + n))
        out = np.empty(MILLION, np.uint16)
        rc = lib.pf_evaluate(
            hands.ctypes.data_as(ctypes.c_char_p), MILLION, n,
            out.ctypes.data_as(ctypes.POINTER(ctypes.c_uint16)),
        )  # fmt: skip
        assert rc == 0
        assert_same_order(evaluate_many(hands), out, higher_is_better=True)
