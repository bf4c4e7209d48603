"""Hand ranges in the usual notation: ``"TT+, AKs, A5s-A2s, KQo, 76s, AhKh, QQ:0.5"``.

A range is a set of two-card combos, each with a weight (how often the player holds it, 0..1;
1 unless written ``TOKEN:WEIGHT``). Tokens, separated by commas or spaces:

* ``AhKh`` one exact combo; ``random`` (or ``any``) all 1,326 combos;
* ``TT`` a pair (6 combos), ``TT+`` that pair and every higher one, ``TT-77`` a span of pairs;
* ``AKs`` suited (4), ``AKo`` offsuit (12), ``AK`` both (16);
* ``KTs+`` the top card kept and the kicker raised up to just below it: KTs, KJs, KQs;
* ``A5s-A2s`` a span of kickers under the same top card.

A token given twice keeps its last weight. Parsing never looks at the board: combos that hit
known cards are dropped later with :meth:`Range.without`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import numpy.typing as npt

from tapete.core.cards import RANKS, SUITS, CardError, format_card, parse_cards

Combo = tuple[int, int]


class RangeError(ValueError):
    """A range that cannot be read, or one that no combo can satisfy."""


#: every two-card combo, higher card first, strongest-looking first.
ALL_COMBOS: tuple[Combo, ...] = tuple(
    (a, b) for a in range(51, -1, -1) for b in range(a - 1, -1, -1)
)

_PAIR_SPAN = re.compile(r"^([2-9TJQKA])\1-([2-9TJQKA])\2$")
_PAIR = re.compile(r"^([2-9TJQKA])\1(\+?)$")
_TWO = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)(\+?)$")
_TWO_SPAN = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)-([2-9TJQKA])([2-9TJQKA])([so]?)$")


def _combos(hi: int, lo: int, kind: str) -> list[Combo]:
    """Combos of two ranks; ``kind`` is "s", "o" or "" (both); a pair when hi == lo."""
    out: list[Combo] = []
    for s1 in range(4):
        for s2 in range(4):
            a, b = hi * 4 + s1, lo * 4 + s2
            if hi == lo and s2 <= s1:
                continue
            if (kind == "s" and s1 != s2) or (kind == "o" and s1 == s2):
                continue
            out.append((max(a, b), min(a, b)))
    return out


def _rank(ch: str) -> int:
    return RANKS.index(ch)


def _token_combos(token: str) -> list[Combo]:
    t = token.strip()
    if t.lower() in ("random", "any", "xx"):
        return list(ALL_COMBOS)
    if len(t) == 4 and t[1].lower() in SUITS and t[3].lower() in SUITS:
        try:
            a, b = parse_cards(t)
        except CardError as exc:
            raise RangeError(f"{token!r}: {exc}") from None
        return [(max(a, b), min(a, b))]
    tu = _normalise(t)
    if m := _PAIR_SPAN.match(tu):
        r1, r2 = sorted((_rank(m[1]), _rank(m[2])))
        return [c for r in range(r1, r2 + 1) for c in _combos(r, r, "")]
    if m := _PAIR.match(tu):
        r = _rank(m[1])
        top = 12 if m[2] else r
        return [c for x in range(r, top + 1) for c in _combos(x, x, "")]
    if m := _TWO.match(tu):
        hi, lo = sorted((_rank(m[1]), _rank(m[2])), reverse=True)
        if hi == lo:
            raise RangeError(f"{token!r}: a pair is neither suited nor offsuit")
        if m[4]:
            return [c for k in range(lo, hi) for c in _combos(hi, k, m[3])]
        return _combos(hi, lo, m[3])
    if m := _TWO_SPAN.match(tu):
        h1, l1 = sorted((_rank(m[1]), _rank(m[2])), reverse=True)
        h2, l2 = sorted((_rank(m[4]), _rank(m[5])), reverse=True)
        if h1 != h2 or m[3] != m[6] or h1 == l1 or h2 == l2:
            raise RangeError(
                f"{token!r}: a span keeps its top card and suitedness, like 'A5s-A2s' or 'KTo-K7o'"
            )
        lo1, lo2 = sorted((l1, l2))
        return [c for k in range(lo1, lo2 + 1) for c in _combos(h1, k, m[3])]
    raise RangeError(
        f"cannot read {token!r} as part of a range (try 'AhKh', 'TT+', 'AKs', 'A5s-A2s', 'KQo')"
    )


def _normalise(t: str) -> str:
    """Ranks upper case, the s/o marks lower case, "10" as "T"."""
    t = t.replace("10", "T")
    return "".join(ch.lower() if ch in "SOso" else ch.upper() for ch in t)


@dataclass(frozen=True)
class Range:
    """A weighted set of combos, as parsed from ``text``. Parsed ranges are cached by text, so
    reading the same range again (a bot each decision) costs a dictionary lookup."""

    text: str
    combos: tuple[Combo, ...]
    weights: tuple[float, ...]

    @staticmethod
    def parse(text: str) -> Range:
        """Read a range; raises :class:`RangeError` with a one-line reason."""
        return _parse(text.strip())

    @staticmethod
    def of_hand(cards: Sequence[int]) -> Range:
        """The range of one known hand."""
        if len(cards) != 2 or cards[0] == cards[1]:
            raise RangeError("a hand has two different cards")
        a, b = cards
        return _of_hand(max(a, b), min(a, b))

    @property
    def is_hand(self) -> bool:
        """True for a single known combo."""
        return len(self.combos) == 1

    @cached_property
    def is_random(self) -> bool:
        """True when every combo is in the range with the same weight (any two cards)."""
        return len(self.combos) == len(ALL_COMBOS) and len(set(self.weights)) == 1

    @cached_property
    def _hash(self) -> int:
        return hash((self.text, self.combos, self.weights))

    def __hash__(self) -> int:
        """Hashed once: ranges key the caches that keep bots' equity calls cheap."""
        return self._hash

    def __len__(self) -> int:
        return len(self.combos)

    @cached_property
    def arrays(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """``(combos, cumulative weights)`` as numpy arrays, built once, for the kernels."""
        combos = np.array(self.combos, np.int64).reshape(-1, 2)
        cum = np.cumsum(np.array(self.weights, np.float64))
        return combos, cum

    def without(self, cards: Iterable[int]) -> Range:
        """The combos that do not use any of ``cards`` (the board, dead cards)."""
        gone = set(cards)
        keep = [
            (c, w)
            for c, w in zip(self.combos, self.weights, strict=True)
            if c[0] not in gone and c[1] not in gone
        ]
        return Range(self.text, tuple(c for c, _ in keep), tuple(w for _, w in keep))


@lru_cache(maxsize=1326)
def _of_hand(hi: int, lo: int) -> Range:
    return Range(format_card(hi) + format_card(lo), ((hi, lo),), (1.0,))


@lru_cache(maxsize=512)
def _parse(text: str) -> Range:
    if not text:
        raise RangeError("an empty range")
    weights: dict[Combo, float] = {}
    for token in re.split(r"[,\s]+", text):
        if not token:
            continue
        body, _, wtext = token.partition(":")
        weight = 1.0
        if wtext:
            try:
                weight = float(wtext.rstrip("%")) / (100.0 if wtext.endswith("%") else 1.0)
            except ValueError:
                raise RangeError(f"{token!r}: the weight after ':' must be a number") from None
            if not 0.0 <= weight <= 1.0:
                raise RangeError(f"{token!r}: a weight is between 0 and 1 (or 0% and 100%)")
        for combo in _token_combos(body):
            weights[combo] = weight
    kept = sorted((c for c, w in weights.items() if w > 0), reverse=True)
    if not kept:
        raise RangeError(f"the range {text!r} holds no combo")
    return Range(text, tuple(kept), tuple(weights[c] for c in kept))


def parse_range(text: str) -> Range:
    """``parse_range("TT+, AKs")``: the same as :meth:`Range.parse`."""
    return Range.parse(text)


@lru_cache(maxsize=1024)
def hand_or_range(text: str) -> Range:
    """A player's cards as typed: an exact hand ("AhKh", "Ah Kh") or a range ("QQ+,AKs")."""
    t = text.strip()
    compact = t.replace(" ", "")
    if len(compact) == 4 and compact[1].lower() in SUITS and compact[3].lower() in SUITS:
        try:
            return Range.of_hand(parse_cards(compact))
        except CardError as exc:
            raise RangeError(str(exc)) from None
    return Range.parse(t)
