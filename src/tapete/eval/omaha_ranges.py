"""Omaha ranges in the notation players write in forums and hand reviews: ``"AAxx"``,
``"AAKKds"``, ``"KQJTss, JT98ds"``.

There is no standard for Omaha ranges as there is for hold'em's ``"TT+, AKs"``. Tools differ
(ProPokerTools' generic syntax writes ``AA`` for "at least two aces" and ``$ds`` for double
suited; Flopzilla Omaha and PokerCruncher have their own), and the common ground, the way
players write hands to each other, is small. This module reads that common subset and nothing
more:

* a hand class is exactly one rank symbol per card (four in Omaha, five in five-card Omaha):
  ``A K Q J T 9 .. 2`` in either case, and ``x`` for any card. The named ranks must all be in
  the hand; an ``x`` may be any card, a named rank included, so ``AAxx`` is every hand with at
  least two aces (``AAAx`` too) and ``xxxx`` every hand;
* optionally followed by the suits the hand must have, as players use them: ``ds`` double
  suited (two cards of one suit and two of another; with five cards, plus one more of a third
  or either), ``ss`` single suited (exactly one suit with two cards, the others all different),
  ``r`` rainbow (four suits, four-card hands only). No suffix: any suits;
* or an exact hand, ``AsAdKsKd``; ``random`` (or ``any``) is every hand;
* items separated by commas (or spaces), a hand in two items counted once.

Not supported, on purpose: which rank a suit goes with (``AsKs`` inside a class, PPT's
``(AK)s``), spans and plus signs (``KK+``, ``JT98-6543``), weights and PPT's ``$`` macros; they
mean different things in different tools. A range is a list of hands (tuples of card numbers);
equity samples them (:func:`tapete.eval.omaha.omaha_equity`).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from itertools import combinations

from tapete.core.cards import CardError, parse_cards
from tapete.core.catalog import t
from tapete.core.text import Text
from tapete.eval.equity import EquityError

__all__ = ["SUIT_PATTERNS", "OmahaError", "omaha_range", "range_size"]

Hand = tuple[int, ...]

#: suffix -> the allowed suit counts, largest first, per hand size
SUIT_PATTERNS: dict[str, dict[int, tuple[tuple[int, ...], ...]]] = {
    "ds": {4: ((2, 2),), 5: ((2, 2, 1), (3, 2))},
    "ss": {4: ((2, 1, 1),), 5: ((2, 1, 1, 1),)},
    "r": {4: ((1, 1, 1, 1),)},
}
_RANKS = "23456789TJQKA"
_CLASS = re.compile(r"^([2-9TJQKAX]{4,5})(DS|SS|R)?$", re.IGNORECASE)


class OmahaError(EquityError):
    """Omaha hands or ranges that cannot be dealt: ``message`` says why in English and Spanish
    (``str(exc)`` is the English)."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message



def _class_hands(symbols: str, suits: str | None) -> frozenset[Hand]:
    return _class_hands_cached(symbols.upper(), suits.lower() if suits else None)


@lru_cache(maxsize=256)
def _class_hands_cached(symbols: str, suits: str | None) -> frozenset[Hand]:
    size = len(symbols)
    named = Counter(_RANKS.index(ch) for ch in symbols if ch != "X")
    if any(n > 4 for n in named.values()):
        return frozenset()
    patterns = SUIT_PATTERNS[suits].get(size) if suits else None
    out: set[Hand] = set()
    # the named cards first (every choice of suits for each named rank), then any cards
    per_rank = [list(combinations(range(4 * r, 4 * r + 4), n)) for r, n in named.items()]
    picks: list[Hand] = [()]
    for options in per_rank:
        picks = [p + o for p in picks for o in options]
    free = size - sum(named.values())
    for p in picks:
        # highest card first: the named cards, sorted, with the free ones from a falling deck
        rest = [c for c in range(51, -1, -1) if c not in p]
        for extra in combinations(rest, free):
            hand = tuple(sorted(p + extra, reverse=True)) if p else extra
            if patterns is not None:
                counts = tuple(sorted(Counter(c & 3 for c in hand).values(), reverse=True))
                if counts not in patterns:
                    continue
            out.add(hand)
    return frozenset(out)


def range_size(text: str) -> int | None:
    """The cards a hand of the range ``text`` has: 4 or 5, 0 when every item is ``random``
    (any size), None when ``text`` is not in this notation or mixes sizes."""
    try:
        sizes = {_item_size(item) for item in _items(text)} - {0}
    except CardError:
        return None
    if not _items(text) or len(sizes) > 1 or not sizes <= {4, 5}:
        return None
    return sizes.pop() if sizes else 0


def _items(text: str) -> list[str]:
    return text.replace(",", " ").split()


def _item_size(item: str) -> int:
    """The cards a hand of this item has (0 for ``random``); CardError if it is no item."""
    if item.lower() in ("random", "any"):
        return 0
    m = _CLASS.match(item)
    if m and not (m.group(2) and m.group(2).lower() == "r" and len(m.group(1)) == 5):
        return len(m.group(1))
    return len(parse_cards(item))


def omaha_range(text: str, size: int) -> list[Hand]:
    """The hands of ``size`` cards (4 or 5) that ``text`` names, each once, highest card first
    in each hand, in a fixed order. Raises :class:`OmahaError` (both
    languages) when an item is not of this notation or is another size."""
    hands: set[Hand] = set()
    everything = False  # random (or all x) is in the range: every hand is
    items = _items(text)
    if not items:
        raise OmahaError(t("an empty Omaha range"))
    for item in items:
        try:
            n = _item_size(item)
        except CardError:
            raise OmahaError(t("{item} is not an Omaha hand or class (write AAxx, KQJTds, "
                               "JT98ss, AsAdKsKd or random)", item=repr(item))) from None
        if n not in (0, size):
            raise OmahaError(t("{item} is a hand of {n} cards, not {size}", item=repr(item),
                               n=n, size=size))
        m = _CLASS.match(item)
        if n == 0 or (m and set(m.group(1).upper()) == {"X"} and not m.group(2)):
            everything = True
        elif m:
            hands.update(_class_hands(m.group(1), m.group(2)))
        else:
            cards = parse_cards(item)
            hands.add(tuple(sorted(cards, reverse=True)))
    if everything:
        return list(_every_hand(size))
    if not hands:
        raise OmahaError(t("no hand is in the Omaha range {text}", text=repr(text)))
    return sorted(hands, reverse=True)


@lru_cache(maxsize=2)
def _every_hand(size: int) -> tuple[Hand, ...]:
    """Every hand of ``size`` cards, highest card first, in :func:`omaha_range`'s order."""
    return tuple(combinations(range(51, -1, -1), size))
