"""All-in insurance and cash-out: what the player ahead can buy against the next card.

Some rooms sell insurance once the betting is over with cards to come: the player ahead pays
a premium to the house, which pays the premium times the room's odds if the next card is one
of the opponents' outs (a card that costs the leader the pot). Others offer a cash-out: the
leader takes their equity in the pot now, less a fee. Both are priced here from the cards,
exactly: outs are counted over every unseen card, equities are fractions of chips.

The odds belong to the room; :data:`TYPICAL_ODDS` is a common table (the house's edge grows
with the outs; many rooms sell no insurance above 14 outs). A quote is only analysis: the
hand's pots and books are not changed by it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tapete.core.cards import Card
from tapete.core.catalog import t
from tapete.core.game import HOLDEM, Game, best_hand
from tapete.core.text import Text

# outs -> what the house pays per chip of premium when an out comes
TYPICAL_ODDS: Mapping[int, Fraction] = {
    1: Fraction(30), 2: Fraction(16), 3: Fraction(10), 4: Fraction(8), 5: Fraction(6),
    6: Fraction(5), 7: Fraction(4), 8: Fraction(7, 2), 9: Fraction(3), 10: Fraction(5, 2),
    11: Fraction(11, 5), 12: Fraction(2), 13: Fraction(9, 5), 14: Fraction(8, 5),
}


class InsuranceError(ValueError):
    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


@dataclass(frozen=True, slots=True)
class Quote:
    """Insurance and cash-out for the player ahead, against the next card.

    ``stake`` is what the leader collects if no out comes; ``expected`` what they collect on
    average over the unseen cards (their equity in chips). ``odds`` is None when the room sells
    no insurance for this many outs (or there are none). ``premium`` buys a payout of the whole
    stake when an out comes; ``fair_premium`` is what that cover is worth at the true odds.
    """

    leader: int
    unseen: int
    outs: tuple[Card, ...]  # cards after which the leader collects less than the stake
    stake: int
    expected: Fraction
    odds: Fraction | None
    premium: int | None
    fair_premium: Fraction | None

    @property
    def fair_odds(self) -> Fraction | None:
        """What a fair house would pay per chip of premium: (unseen - outs) / outs."""
        return Fraction(self.unseen - len(self.outs), len(self.outs)) if self.outs else None

    def cash_out(self, fee_bps: int = 0) -> int:
        """The leader's equity in chips now, less the room's fee (basis points), rounded down."""
        return int(self.expected * (10_000 - fee_bps) / 10_000)


def _collected(player: int, holes: Mapping[int, Sequence[Card]], board: Sequence[Card],
               pots: Sequence[tuple[int, Sequence[int]]], game: Game) -> Fraction:
    """What ``player`` collects from ``pots`` on a complete ``board`` (splits shared evenly)."""
    strength = {p: best_hand(game, h, board) for p, h in holes.items()}
    got = Fraction(0)
    for amount, eligible in pots:
        live = [p for p in eligible if p in strength]
        if player not in live:
            continue
        best = max(strength[p] for p in live)
        if strength[player] == best:
            got += Fraction(amount, sum(1 for p in live if strength[p] == best))
    return got


def quote(holes: Mapping[int, Sequence[Card]], board: Sequence[Card],
          pots: Sequence[tuple[int, Sequence[int]]], dead: Sequence[Card] = (),
          odds: Mapping[int, Fraction] = TYPICAL_ODDS, game: Game = HOLDEM) -> Quote | None:
    """Insurance for the leader against the next card, with the live players' ``holes``
    known and ``pots`` as (amount, eligible players); None when nobody leads (a tie now, or
    no card to come). The leader is the player who would collect the most on the next card's
    average and who collects the most with no card at all (the best hand now). A high-low
    game's pots are split by two hands, so there is no one leader to insure: None."""
    if game.high_low:
        return None
    if not 3 <= len(board) <= 4:
        raise InsuranceError(t("insurance is sold on the flop or the turn"))
    seen = {*board, *dead, *(c for h in holes.values() for c in h)}
    if len(seen) != len(board) + len(dead) + sum(len(h) for h in holes.values()):
        raise InsuranceError(t("a card is dealt twice"))
    unseen = [c for c in range(52) if c not in seen]
    # the leader holds the best hand on the board as it is (five cards or more to compare)
    now = {p: best_hand(game, h, board) for p, h in holes.items()}
    top = max(now.values())
    leaders = [p for p, s in now.items() if s == top]
    if len(leaders) != 1:
        return None
    leader = leaders[0]
    stake = int(sum(a for a, eligible in pots if leader in eligible))
    outs: list[Card] = []
    total = Fraction(0)
    for c in unseen:
        got = _collected(leader, holes, (*board, c), pots, game)
        total += got
        if got < stake:
            outs.append(c)
    expected = total / len(unseen)
    rate = odds.get(len(outs)) if outs else None
    premium = None if rate is None else -(-stake // rate)  # rounded up to the chip
    # every card to come beats the leader: nothing to insure at a fair price (no premium
    # below the stake itself would do), so no fair figure
    fair = Fraction(stake * len(outs), len(unseen) - len(outs)) \
        if outs and len(outs) < len(unseen) else None
    return Quote(leader, len(unseen), tuple(outs), stake, expected, rate,
                 None if premium is None else int(premium), fair)
