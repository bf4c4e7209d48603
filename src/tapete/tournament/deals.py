"""Deals: when few players are left, the prizes still to be won shared out by agreement.

Two offers, pure functions of the stacks and the prizes of the places still to be decided
(first place first, one per player left; places that pay nothing are 0):

* :func:`icm_deal`: each player's tournament equity by the Independent Chip Model
  (:func:`tapete.eval.icm.equities`, exact), rounded to whole units by the largest remainder;
* :func:`chip_chop`: each player is sure of the smallest prize left, and the rest of the pool
  goes by chips.

Both return whole units that add up exactly to the prizes left: each amount is the exact
share rounded down or up, the units left over going one each to the largest fractions (the
first player listed on a tie). :func:`bot_accepts` is a bot's answer: yes when the offer is at
least its ICM equity less a margin. A deal is made only when every player accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tapete.core.catalog import t
from tapete.eval.icm import equities
from tapete.tournament.model import TournamentError


def _whole(exact: Sequence[Fraction], pool: int) -> list[int]:
    out = [int(x) for x in exact]  # not negative: the floor
    left = pool - sum(out)
    for i in sorted(range(len(exact)), key=lambda i: (-(exact[i] - out[i]), i))[:left]:
        out[i] += 1
    return out


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> None:
    if len(prizes) != len(stacks) or len(stacks) < 2:
        raise TournamentError(t("a deal needs two players or more and one prize for each place"
                                " left"))
    if any(s <= 0 for s in stacks) or any(p < 0 for p in prizes):
        raise TournamentError(t("a deal needs positive stacks and prizes that are not"
                                " negative"))


def icm_equity(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's exact ICM equity (what :mod:`tapete.eval.icm` says)."""
    _check(stacks, prizes)
    return equities(list(stacks), list(prizes))


def icm_deal(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The ICM deal: each player's ICM equity in whole units, adding up to ``sum(prizes)``."""
    return _whole(icm_equity(stacks, prizes), sum(prizes))


def chip_chop(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The chip chop: the smallest prize left to each, the rest by chips."""
    _check(stacks, prizes)
    floor = min(prizes)
    rest = sum(prizes) - floor * len(stacks)
    chips = sum(stacks)
    return [floor + x for x in _whole([Fraction(rest * s, chips) for s in stacks], rest)]


def bot_accepts(offer: int, equity: Fraction, margin_bps: int = 200) -> bool:
    """A bot takes a deal worth at least its ICM equity less ``margin_bps`` of it (basis
    points: 200 is 2 %)."""
    return offer * 10_000 >= equity * (10_000 - margin_bps)


def offer(kind: str, stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The deal of ``kind`` ("icm" or "chip")."""
    if kind == "icm":
        return icm_deal(stacks, prizes)
    if kind == "chip":
        return chip_chop(stacks, prizes)
    raise TournamentError(t("a deal is an ICM deal or a chip chop"))
