"""The numbers that make a style, and what a bot learns of its opponents.

A :class:`Style` is only numbers (:data:`STYLES` names five); :class:`OpponentStats` is what one
seat has seen of one opponent over past hands. Both the hold'em strategy
(:mod:`tapete.bots.strategy`) and the Omaha one (:mod:`tapete.bots.omaha`) read them, so one style
is one set of numbers in every game.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["STYLES", "OpponentStats", "Style"]


@dataclass(frozen=True, slots=True)
class Style:
    """The numbers that make a style. Range widths are fractions of all starting hands."""

    name: str
    open: float  # multiplier on the opening range of each position
    limp: bool  # enter unraised pots by calling rather than raising
    three: float  # 3-bet range facing one raise
    call: float  # calling range facing one raise (on top of the 3-bets)
    four: float  # 4-bet range facing a 3-bet
    call3: float  # calling range facing a 3-bet
    jam: float  # all-in range facing a 4-bet or more
    bet_at: float  # equity (normalised to heads-up) to bet for value
    raise_at: float  # equity to raise for value
    call_margin: float  # equity above the price that a call needs
    bluff: float  # how often to bet without the goods when checked to
    bluff_raise: float  # how often to raise a draw
    sizes: tuple[float, float, float]  # small, medium, large bets as fractions of the pot
    overbet: float  # how often a very strong hand overbets or moves in
    open_size: float  # opening raise in big blinds
    adapt: bool  # read opponents' tendencies from past hands (VPIP, aggression)
    samples: int = 600  # Monte Carlo deals per equity estimate
    # how far the reads move the play (0: not at all): against loose opponents (a VPIP above
    # a typical player's) open, isolate, 3-bet and defend up to (1 + exploit) times wider;
    # weigh a wide raiser's big raise by equity; bet bigger for value into callers and
    # overbet those who call big bets as often as small ones; bluff as often as the fold
    # rates beat the price; call an aggressive bettor a little lighter; read how wide a player
    # re-raises from the hands it shows; raise as a bluff into a bettor who folds too often
    exploit: float = 0.0


STYLES: dict[str, Style] = {
    s.name: s for s in (
        Style("tag", open=1.0, limp=False, three=0.05, call=0.10, four=0.025, call3=0.06,
              jam=0.03, bet_at=0.55, raise_at=0.72, call_margin=0.0, bluff=0.28,
              bluff_raise=0.10, sizes=(0.5, 0.75, 1.0), overbet=0.25, open_size=2.5,
              adapt=True, exploit=1.5),
        Style("lag", open=1.5, limp=False, three=0.09, call=0.17, four=0.045, call3=0.10,
              jam=0.045, bet_at=0.55, raise_at=0.70, call_margin=-0.01, bluff=0.42,
              bluff_raise=0.25, sizes=(0.5, 0.75, 1.25), overbet=0.4, open_size=2.5,
              adapt=True),
        Style("nit", open=0.55, limp=False, three=0.025, call=0.05, four=0.015, call3=0.03,
              jam=0.015, bet_at=0.72, raise_at=0.86, call_margin=0.07, bluff=0.04,
              bluff_raise=0.0, sizes=(0.33, 0.5, 0.66), overbet=0.0, open_size=3.0,
              adapt=False),
        Style("station", open=1.7, limp=True, three=0.02, call=0.50, four=0.01, call3=0.35,
              jam=0.12, bet_at=0.75, raise_at=0.92, call_margin=-0.15, bluff=0.04,
              bluff_raise=0.0, sizes=(0.33, 0.5, 0.66), overbet=0.0, open_size=2.0,
              adapt=False),
        Style("maniac", open=3.2, limp=False, three=0.25, call=0.35, four=0.16, call3=0.30,
              jam=0.20, bet_at=0.40, raise_at=0.55, call_margin=-0.05, bluff=0.70,
              bluff_raise=0.40, sizes=(0.75, 1.0, 1.5), overbet=0.6, open_size=4.0,
              adapt=False),
    )
}



@dataclass(slots=True)
class OpponentStats:
    """What a seat has seen of one opponent over past hands (public actions only)."""

    hands: int = 0
    vpip: int = 0  # hands where the player put chips in voluntarily before the flop
    agg: int = 0  # bets and raises after the flop
    passive: int = 0  # checks and calls after the flop
    faced: int = 0  # times the player answered a bet after the flop
    folded: int = 0  # ... and folded
    # hands shown down: the sum of their preflop percentiles (0 = aces .. 1 = the worst) and
    # their count, by the player's strongest preflop action (a raise, a call)
    raised_pct: float = 0.0
    raised_n: int = 0
    called_pct: float = 0.0
    called_n: int = 0

    big_faced: int = 0  # times the player answered a bet of most of the pot after the flop
    big_folded: int = 0  # ... and folded
    bet_shown: int = 0  # hands shown down after betting or raising after the flop
    bet_weak: int = 0  # ... that were a weak pair, a draw or air on the final board
    # hands shown down after re-raising before the flop (a 3-bet or more): their percentiles
    reraised_pct: float = 0.0
    reraised_n: int = 0

    def bluffiness(self) -> float:
        """0: bets only good hands (as assumed a priori) .. 1: bets anything."""
        rate = (self.bet_weak + 0.2 * 6) / (self.bet_shown + 6)
        return min(1.0, max(0.0, (rate - 0.2) / 0.5))

    def raise_width(self) -> float:
        """How wide the player's first raise is, read from the hands shown after raising
        (their average percentile is half the width of the range, 0.18 a priori)."""
        return min(1.0, 2 * (self.raised_pct + 0.09 * 6) / (self.raised_n + 6))

    def reraise_width(self) -> float:
        """How wide the player's re-raises (3-bets and more) are, read from the hands shown
        after them (0.08 a priori: a player who re-raises anything shows anything)."""
        return min(1.0, 2 * (self.reraised_pct + 0.04 * 6) / (self.reraised_n + 6))

    def call_width(self) -> float:
        return min(1.0, 2 * (self.called_pct + 0.13 * 6) / (self.called_n + 6))

    def fold_rate(self) -> float:
        """How often the player folds to a bet after the flop."""
        return (self.folded + 0.4 * 10) / (self.faced + 10)

    def big_fold_rate(self) -> float:
        """How often the player folds to a bet of most of the pot (0.5 a priori: most players
        fold more to big bets; one that does not pays big value bets)."""
        return (self.big_folded + 0.5 * 10) / (self.big_faced + 10)

    def looseness(self) -> float:
        """Width of the player's ranges relative to a typical player's (1.0)."""
        v = (self.vpip + 0.25 * 20) / (self.hands + 20)
        return min(4.0, max(0.5, v / 0.25))

    def aggression(self) -> float:
        a = (self.agg + 0.3 * 10) / (self.agg + self.passive + 10)
        return min(3.0, max(0.5, a / 0.3))
