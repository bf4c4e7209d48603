"""Payouts: the prize of each place, whole units that add up exactly to the prize pool.

The standard table (:func:`standard_shares`) pays by field size: up to 4 entries the winner
takes all, 5 to 7 pay two places (65/35), 8 to 10 three (50/30/20); larger fields pay 15 %
of the entries (four places at least), the place k's share proportional to 1/k. A custom
table gives each paid place's share in basis points. Shares become amounts by the largest
remainder: each place gets the whole part of its share and the units left over go one each
to the places with the largest fractions (the higher place first on a tie), so the amounts add
up to the pool and never grow down the list.

Players who finish tied (knocked out in the same hand with the same starting stack, TDA) share
the prizes of the places they take: :func:`split`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tapete.core.catalog import t
from tapete.tournament.model import TournamentError


def standard_shares(entries: int) -> list[Fraction]:
    """Each paid place's share of the pool, first place first, by field size."""
    if entries < 1:
        raise TournamentError(t("a tournament needs at least one entry"))
    if entries <= 4:
        return [Fraction(1)]
    if entries <= 7:
        return [Fraction(65, 100), Fraction(35, 100)]
    if entries <= 10:
        return [Fraction(50, 100), Fraction(30, 100), Fraction(20, 100)]
    paid = max(4, entries * 15 // 100)
    weights = [Fraction(1, k) for k in range(1, paid + 1)]
    total = sum(weights, Fraction(0))
    return [w / total for w in weights]


def allocate(pool: int, shares: Sequence[Fraction]) -> list[int]:
    """``pool`` cut by ``shares`` (adding up to 1): whole units, largest remainder, summing
    exactly to ``pool``, never growing down the list."""
    if pool < 0:
        raise TournamentError(t("the prize pool cannot be negative"))
    if sum(shares, Fraction(0)) != 1:
        raise TournamentError(t("the shares of the prize pool must add up to all of it"))
    exact = [pool * s for s in shares]
    out = [int(x) for x in exact]  # shares are not negative: int() is the floor
    left = pool - sum(out)
    by_fraction = sorted(range(len(exact)), key=lambda i: (-(exact[i] - out[i]), i))
    for i in by_fraction[:left]:
        out[i] += 1
    return sorted(out, reverse=True)


def prizes(pool: int, entries: int, custom: Sequence[int] | None = None) -> list[int]:
    """The prize of each paid place: the standard table for ``entries``, or ``custom`` shares
    in basis points (first place first, adding up to 10,000)."""
    if custom is not None:
        return allocate(pool, [Fraction(x, 10_000) for x in custom])
    return allocate(pool, standard_shares(entries))


def split(prize_list: Sequence[int], first_place: int, players: int) -> list[int]:
    """What each of ``players`` players tied for the places from ``first_place`` (from 0)
    takes: those places' prizes shared evenly, the odd units one each to the first of them
    (in the order the caller lists them)."""
    pool = sum(prize_list[first_place:first_place + players])
    each, odd = divmod(pool, players)
    return [each + (1 if i < odd else 0) for i in range(players)]
