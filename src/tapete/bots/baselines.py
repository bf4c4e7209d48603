"""Baseline opponents: a random player and a player who always checks or calls. Neither looks
at the cards, so both play any game ``rules.game`` describes. A third, :class:`StrengthBot`,
plays Omaha by its current hand strength alone (the measuring stick of the Omaha styles in the
duplicate matches: no ranges, no draws, no position, no pot odds)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from tapete.bots import omaha
from tapete.bots.view import Decision, SeatView, bet_or_raise
from tapete.core.actions import CALL, CHECK, FOLD, Action
from tapete.core.betting import Legal
from tapete.core.catalog import N_, t
from tapete.core.text import Text
from tapete.words import money_text

# what a bot says for an action with no amount, its reason after the colon (message ids)
_SAY = {FOLD: N_("I fold: {why}"), CHECK: N_("I check: {why}"), CALL: N_("I call: {why}")}


def _sized(view: SeatView, legal: Legal, to: int, why: Text) -> Decision:
    """A bet or raise to ``to`` and what it says."""
    c = money_text(to, view.rules)
    say = t("I bet {amount}: {why}", amount=c, why=why) if legal.is_bet else \
        t("I raise to {amount}: {why}", amount=c, why=why)
    return Decision(bet_or_raise(legal, to), say)


@dataclass(slots=True)
class RandomBot:
    """Picks uniformly among the legal kinds of action (fold, check or call, bet or raise);
    a bet or raise is uniform between the smallest and the largest legal amount."""

    rng: random.Random
    name: str = "random"

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        if legal is None:
            raise ValueError("this seat is not to act")
        # one of fold, check or call, and bet or raise: each kind equally likely
        kinds: list[Action | None] = [Action.fold()] if legal.fold else []
        kinds.append(Action.check_or_call(legal))
        if legal.min_to is not None and legal.max_to is not None:
            kinds.append(None)  # a bet or raise, its amount drawn below
        kind = kinds[self.rng.randrange(len(kinds))]
        why = t("chosen at random among the legal actions")
        if kind is None:
            assert legal.min_to is not None and legal.max_to is not None
            return _sized(view, legal, self.rng.randint(legal.min_to, legal.max_to), why)
        return Decision(kind, t(_SAY[kind.kind], why=why))

    def hand_over(self, view: SeatView) -> None:
        pass

    @property
    def learns(self) -> bool:
        return False


@dataclass(slots=True)
class CallerBot:
    """Always checks or calls, whatever it holds."""

    rng: random.Random
    name: str = "caller"

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        if legal is None:
            raise ValueError("this seat is not to act")
        if legal.check:
            return Decision(Action.check(), t("I check: {why}", why=t("I always check or call")))
        return Decision(Action.call(), t("I call: {why}", why=t("I always check or call")))

    def hand_over(self, view: SeatView) -> None:
        pass

    @property
    def learns(self) -> bool:
        return False


@dataclass(slots=True)
class StrengthBot:
    """Ranks its Omaha hand by its strength now and nothing else: before the flop by the
    hand's preflop score (:func:`tapete.bots.omaha.percentile`: raises the pot with the top
    tenth, calls with the top half, else folds); after it, by the chance that no opponent's
    six pairs of hole cards beat the hand on this board (from the share of two-card holdings
    that beat it): pot-sized bets and raises above 0.75, checks and calls above 0.4, else
    checks or folds."""

    rng: random.Random
    name: str = "strength"

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        if legal is None:
            raise ValueError("this seat is not to act")
        if view.street == 0:
            p = omaha.percentile(view.hole)
            strong, fair = p <= 0.1, p <= 0.5
        else:
            r = omaha.read(view.hole, view.board)
            pairs = len(view.hole) * (len(view.hole) - 1) // 2
            win = (1.0 - r.beaten) ** (pairs * len(view.opponents()))
            strong, fair = win >= 0.75, win >= 0.4
        why = t("I play my hand's strength now")
        if strong and legal.max_to is not None:
            return _sized(view, legal, legal.max_to, why)
        if fair or legal.check:
            kind = Action.check_or_call(legal)
            return Decision(kind, t(_SAY[kind.kind], why=why))
        return Decision(Action.fold(), t(_SAY[FOLD], why=why))

    def hand_over(self, view: SeatView) -> None:
        pass

    @property
    def learns(self) -> bool:
        return False
