"""Tournament equity: what a stack is worth in prize money, by the Independent Chip Model.

In a tournament chips are not money: the prizes are. The Independent Chip Model (Malmuth and
Harville) prices a stack by the chance of finishing in each paid place: a player finishes first
with probability stack / all chips, and each next place is drawn the same way among the players
left. Everything here is exact: prizes are integers of the smallest unit, equities are
:class:`~fractions.Fraction` values whose sum is exactly the prizes' (the books check, as every
hand's does); only a display rounds them.

``equities`` prices the stacks between hands (``sampled_equities`` estimates fields too large
to sum exactly, such as a multi-table tournament's); ``after_hand`` also places the players a hand
knocked out (they finish below everyone left; of two knocked out in the same hand, the one who
started it with more chips finishes higher, TDA); ``expected`` averages over a hand's possible
outcomes, which is how a call is weighed against a fold.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from math import comb
from typing import Any

from tapete.core.catalog import t
from tapete.core.text import Text

# the exact sum runs over every set of players who could fill the paid places ahead of a
# player, about a quarter of a millisecond each (18 players, 6 paid: 12,616 sets, 3 s):
# beyond this many it would take seconds, so it is refused with a clear message (and
# ``tapete icm`` and the replayer switch to :func:`sampled_equities`)
MAX_STATES = 8_000


class IcmError(ValueError):
    """Stacks or prizes that cannot be priced: the message says why, in both languages."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


def _check(stacks: Sequence[object], prizes: Sequence[object], positive: bool) -> None:
    if len(stacks) < 1:
        raise IcmError(t("at least one player is needed"))
    for s in stacks:
        if type(s) is not int or s < 0 or (positive and s == 0):
            raise IcmError(t("stacks are whole, positive numbers of chips, not {value}",
                             value=repr(s)))
    for p in prizes:
        if type(p) is not int or p < 0:
            raise IcmError(t(
                "prizes are whole, non-negative amounts of the smallest unit, not {value}",
                value=repr(p)))
    if len(prizes) > len(stacks):
        raise IcmError(t(
            "{prizes} prizes for {players} players: give only the places still to be decided",
            prizes=len(prizes), players=len(stacks)))


def parse_prizes(text: str) -> tuple[list[int], int]:
    """"50 30 20" or "500.00, 300.00" -> the prizes as integers of their smallest unit, and
    that unit's decimals (2 here). A comma between digits is refused: "1,500" and "500,00"
    mean different things in English and Spanish, so decimals take a point.

    Prizes go first place first, so they never grow down the list ("50 30 20", "100 100 0";
    equal prizes are fine). Prizes that do ("20 30 50") are refused, not sorted: the order is
    the meaning (which place pays what), a list that climbs is as likely mistyped as reversed,
    and a sorted list would price a tournament nobody described. The callers (``tapete icm``,
    ``tapete replay --prizes``, the web replayer's ``/api/icm``) have one channel back, the
    error, so a note that the list was sorted would be lost; the message shows the order to
    type instead."""
    shown = text.strip()[:60]
    bad = t("prizes are numbers with a point for decimals: {prizes}", prizes=shown)
    if re.search(r"\d,\d", text):
        raise IcmError(bad)
    parts = text.replace(",", " ").replace(";", " ").split()
    if not parts or len(parts) > 1000:
        raise IcmError(t("give the prizes, first place first: 50 30 20"))
    try:
        values = [Decimal(x) for x in parts]
    except InvalidOperation:
        raise IcmError(bad) from None
    if any(not v.is_finite() or v > 10**15 for v in values):
        raise IcmError(bad)
    negative = next((x for x, v in zip(parts, values, strict=True) if v < 0), None)
    if negative is not None:
        raise IcmError(t("a prize cannot be negative: {prize}", prize=negative[:30]))
    digits = [max(0, -int(v.as_tuple().exponent)) for v in values]
    if max(digits) > 6:
        raise IcmError(bad)
    for place, (a, b) in enumerate(itertools.pairwise(values), 2):
        if b > a:
            order = " ".join(x for _, x in sorted(zip(values, parts, strict=True),
                                                  key=lambda vt: vt[0], reverse=True))[:60]
            raise IcmError(t(
                "prizes go first place first, largest to smallest, but place {place} pays more"
                " than place {above}: did you mean {order}?",
                place=place, above=place - 1, order=order))
    decimals = max(digits)
    return [int(v.scaleb(decimals)) for v in values], decimals


def equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's share of ``prizes`` (first place first) by the Independent Chip Model.

    >>> [str(x) for x in equities([5000, 3000, 2000], [50, 30, 20])]
    ['1075/28', '131/4', '202/7']
    """
    _check(stacks, prizes, positive=True)
    paid = len(prizes)
    while paid and not prizes[paid - 1]:
        paid -= 1  # unpaid places change nobody's equity
    n = len(stacks)
    if not exact_is_practical(n, paid):
        raise IcmError(t("{players} players and {paid} paid places are too many to price"
                         " exactly: use sampled_equities", players=n, paid=paid))
    total = sum(stacks)
    equity = [Fraction(0)] * n
    # the sets of players who took the places so far, with their probability and their chips
    level: dict[int, tuple[Fraction, int]] = {0: (Fraction(1), 0)}
    for place in range(paid):
        prize = prizes[place]
        following: dict[int, tuple[Fraction, int]] = {}
        for taken, (chance, used) in level.items():
            left = total - used
            for j in range(n):
                bit = 1 << j
                if taken & bit:
                    continue
                p = chance * Fraction(stacks[j], left)
                equity[j] += p * prize
                if place + 1 < paid:
                    key = taken | bit
                    before = following.get(key)
                    following[key] = (p, used + stacks[j]) if before is None else (
                        before[0] + p, before[1])
        level = following
    if sum(equity) != sum(prizes[:paid]):
        raise ArithmeticError("ICM equities do not add up to the prizes")  # a bug, not input
    return equity


def exact_is_practical(players: int, paid: int) -> bool:
    """Whether :func:`equities` can price this many players and paid places exactly."""
    return sum(comb(players, k) for k in range(paid)) <= MAX_STATES


def sampled_equities(stacks: Sequence[int], prizes: Sequence[int], samples: int = 20_000,
                     seed: int = 0) -> list[Fraction]:
    """:func:`equities` estimated from ``samples`` finishing orders drawn by the same model,
    for fields too large to sum exactly (a multi-table tournament). A Malmuth-Harville order
    is the order in which independent exponential clocks of rates ``stacks`` ring, so one
    sort draws a whole order. The estimate is the exact average of the prizes the drawn
    orders pay (a Fraction of whole prizes), so its sum is still exactly the prizes'."""
    import numpy as np

    _check(stacks, prizes, positive=True)
    if samples < 1:
        raise IcmError(t("at least one sample is needed"))
    paid = len(prizes)
    while paid and not prizes[paid - 1]:
        paid -= 1
    n = len(stacks)
    totals = [0] * n
    if paid:
        rng = np.random.default_rng(seed)
        rates = np.asarray(stacks, dtype=np.float64)
        pay = np.asarray(prizes[:paid], dtype=np.int64)
        won = np.zeros(n, dtype=np.int64)
        chunk = max(1, 4_000_000 // n)
        done = 0
        while done < samples:
            k = min(chunk, samples - done)
            clocks = rng.exponential(size=(k, n)) / rates
            order = np.argpartition(clocks, paid - 1, axis=1)[:, :paid] if paid < n else \
                np.arange(n)[None, :].repeat(k, axis=0)
            # the paid places in finishing order within each sample
            firsts = np.take_along_axis(clocks, order, axis=1).argsort(axis=1)
            ranked = np.take_along_axis(order, firsts, axis=1)
            np.add.at(won, ranked.ravel(), np.tile(pay, k))
            done += k
        totals = [int(x) for x in won]
    return [Fraction(x, samples) for x in totals]


def after_hand(start: Sequence[int], end: Sequence[int], prizes: Sequence[int]
               ) -> list[Fraction]:
    """Equities once a hand is over: players it knocked out (``end`` 0) take the lowest of the
    places being decided, the one who started the hand with more chips placed higher, equal
    starting stacks sharing their places' prizes; the others are priced on what is left."""
    if len(start) != len(end):
        raise IcmError(t("one stack before and after the hand per player"))
    _check(start, prizes, positive=True)
    _check(end, [], positive=False)
    n = len(start)
    places = list(prizes) + [0] * (n - len(prizes))
    out = [Fraction(0)] * n
    busted = sorted((p for p in range(n) if end[p] == 0), key=lambda p: -start[p])
    alive = [p for p in range(n) if end[p] > 0]
    place = len(alive)  # the best place left to the busted players (0-based)
    i = 0
    while i < len(busted):
        same = [p for p in busted[i:] if start[p] == start[busted[i]]]
        pool = sum(places[place:place + len(same)])
        for p in same:
            out[p] = Fraction(pool, len(same))
        place += len(same)
        i += len(same)
    if alive:
        for p, x in zip(alive, equities([end[p] for p in alive], places[:len(alive)]),
                        strict=True):
            out[p] = x
    return out


def expected(outcomes: Sequence[tuple[Fraction, Sequence[int]]], start: Sequence[int],
             prizes: Sequence[int]) -> list[Fraction]:
    """Equities averaged over a hand's outcomes: (probability, stacks after the hand) pairs
    whose probabilities add up to 1, each priced by :func:`after_hand` from ``start``."""
    if sum(p for p, _ in outcomes) != 1:
        raise IcmError(t("the outcomes' probabilities must add up to 1"))
    out = [Fraction(0)] * len(start)
    for chance, end in outcomes:
        for i, x in enumerate(after_hand(start, end, prizes)):
            out[i] += chance * x
    return out


def decimal_text(x: Fraction, decimals: int, sign: bool = False) -> str:
    """An exact amount of the prizes' unit (``decimals`` digits), shown to the cent or to
    the finer unit, as a decimal number, never a float: "38.39"."""
    shown = max(decimals, 2)
    s = str(Decimal(round(x * 10 ** (shown - decimals))).scaleb(-shown))
    return ("+" + s) if sign and x > 0 else s


def icm_table(start: Sequence[int], end: Sequence[int], prizes_text: str) -> dict[str, Any]:
    """Each player's tournament equity before and after a hand, and the change, as decimal
    strings of the prizes' money (what the replayer and ``tapete replay --prizes`` show)."""
    prizes, decimals = parse_prizes(prizes_text)
    before = after_hand(start, start, prizes)
    after = after_hand(start, end, prizes)
    return {"prizes": [str(Decimal(p).scaleb(-decimals)) for p in prizes],
            "players": [{"before": decimal_text(b, decimals), "after": decimal_text(a, decimals),
                         "change": decimal_text(a - b, decimals, sign=True)}
                        for b, a in zip(before, after, strict=True)]}
