"""Pots from contributions: main and side pots, uncalled chips, rake and the split of each pot.

Pure functions over integers. Every pot is built from each player's *total contribution to the
hand* (blinds, antes and dead chips included), cut at each all-in level.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from tapete.core.rules import Rules


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips (after rake), the rake taken from it, and who may win it."""

    amount: int
    eligible: tuple[int, ...]
    rake: int = 0

    # written out (the dataclass keeps it): compiled, it costs a tenth of the generated one
    def __init__(self, amount: int, eligible: tuple[int, ...], rake: int = 0) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)
        object.__setattr__(self, "rake", rake)


def uncalled(contributions: Sequence[int]) -> tuple[int, int]:
    """(player, chips) of the part of the largest contribution nobody matched, or (-1, 0)."""
    top = -1
    first = second = 0
    for i, c in enumerate(contributions):
        if c > first:
            second = first
            first = c
            top = i
        elif c > second:
            second = c
    if top < 0 or first == second:
        return -1, 0
    return top, first - second


def dead_money(antes: Sequence[int], dead_blinds: Sequence[int]) -> list[int]:
    """The part of each player's contribution that is dead money, given what each posted as
    an ante and as a dead blind: the dead blinds, and the ante when only one player posts one
    (a big-blind ante, posted for the table). Dead money matches nobody's bet (see
    :func:`build_pots`)."""
    lone = len(antes) - list(antes).count(0) == 1
    return [d + a if lone else d for a, d in zip(antes, dead_blinds, strict=True)]


def build_pots(
    contributions: Sequence[int], folded: Sequence[bool], all_in: Sequence[bool],
    dead: Sequence[int] | None = None,
) -> list[Pot]:
    """Cut the contributions into pots. Call after uncalled chips have been returned.

    Levels are cut at each all-in amount of a player still in the hand; levels with the same
    eligible players are shown as one pot. Folded chips stay in the pots.

    ``dead``: the part of each contribution that is dead money (:func:`dead_money`): it
    matches nobody's bet, so the levels are cut from the rest of the contributions and the
    dead chips go to the main pot (TDA); with no other chips in, they are one pot for the
    players still in the hand.
    """
    if dead is not None:
        dead_total = sum(dead)
        if dead_total:
            rest = build_pots([c - d for c, d in zip(contributions, dead, strict=True)],
                              folded, all_in)
            if not rest:
                return [Pot(dead_total, tuple(i for i, f in enumerate(folded) if not f))]
            return [Pot(rest[0].amount + dead_total, rest[0].eligible), *rest[1:]]
    live = [i for i, f in enumerate(folded) if not f]
    top = max((contributions[i] for i in live), default=0)
    if not any(all_in[i] and contributions[i] < top for i in live):
        # the usual case, one level (nobody live is all-in for less): one pot, the same as
        # the general cut below gives, folded chips above the level included
        total = sum(c for c in contributions if c > 0)
        if not total:
            return []
        if top <= 0:
            return [Pot(total, tuple(live))]
        return [Pot(total, tuple(i for i in live if contributions[i] >= top))]
    cuts = sorted({contributions[i] for i in live if all_in[i]} | {
        max((contributions[i] for i in live), default=0)})
    pots: list[Pot] = []
    previous = 0
    for cut in cuts:
        if cut <= previous:
            continue
        amount = 0
        for c in contributions:
            if c > previous:
                amount += (c if c < cut else cut) - previous
        eligible = tuple(i for i in live if contributions[i] >= cut)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount:
            pots.append(Pot(amount, eligible))
        previous = cut
    # chips above the last live level (a folded player who put in more) join the last pot
    extra = sum(c - previous for c in contributions if c > previous)
    if extra:
        if pots:
            pots[-1] = Pot(pots[-1].amount + extra, pots[-1].eligible)
        else:
            pots.append(Pot(extra, tuple(live)))
    return pots


def take_rake(pots: list[Pot], rules: Rules, saw_flop: bool) -> list[Pot]:
    """Rake each pot by the room's percentage, rounded down, until the cap per hand is met.

    With ``rules.rake_fixed`` (a hand history's stated rake) each pot gives exactly its stated
    rake; a stated rake larger than its pot takes the rest from the next pots."""
    if rules.rake_fixed is not None:
        fixed = rules.rake_fixed
        carry = 0
        taken = []
        for i, pot in enumerate(pots):
            want = (fixed[i] if i < len(fixed) else 0) + carry
            if i == len(pots) - 1:
                want += sum(fixed[len(pots):])
            r = min(want, pot.amount)
            carry = want - r
            taken.append(Pot(pot.amount - r, pot.eligible, r))
        return taken
    if not rules.rake_bps or (rules.no_flop_no_drop and not saw_flop):
        return pots
    left = rules.rake_cap
    out = []
    for pot in pots:
        r = pot.amount * rules.rake_bps // 10_000
        if left is not None:
            r = min(r, left)
            left -= r
        out.append(Pot(pot.amount - r, pot.eligible, r))
    return out


def split(amount: int, winners: Sequence[int], order_from: int, players: int,
          had_odd: Collection[int] = ()) -> dict[int, int]:
    """Split ``amount`` among ``winners``; odd chips one at a time to the winners in seat order
    starting at player index ``order_from`` (the first seat left of the button).

    ``had_odd``: players who already took an odd chip of the same share (a high-low split's
    high half): the odd chips go first to the winners not among them, in seat order, then to
    the others, so that nobody takes two odd chips while another winner has none
    (docs/rules.md section 4)."""
    share, odd = divmod(amount, len(winners))
    ordered = sorted(winners, key=lambda p: (p - order_from) % players)
    if odd and had_odd:
        ordered = [p for p in ordered if p not in had_odd] + [p for p in ordered if p in had_odd]
    out = {p: share for p in winners}
    for p in ordered[:odd]:
        out[p] += 1
    return out
