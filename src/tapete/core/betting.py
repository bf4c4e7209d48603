"""What the player to act may do, and why: pure functions over one street's numbers.

This is the single source of truth for legal amounts. The UI slider, the bots, the server and
the CLI all read :class:`Legal`; an illegal action is refused by quoting it.
All amounts are *totals for this street* ("raise to"), never the chips added by one click.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from tapete.core.catalog import N_, t, tc
from tapete.core.money import amount_text
from tapete.core.rules import Rules, Structure
from tapete.core.text import Text

# Why the smallest raise is what it is (Final, as the enum members below: the compiled code
# reads them as constants; an enum member read as Structure.POT_LIMIT is a lookup each time).
MIN_OPEN: Final = "open"  # opening a street: the big blind (or the fixed bet)
MIN_INCREMENT: Final = "increment"  # TDA: current bet + the largest full bet or raise of the street
MIN_LAST_BET: Final = "last-bet"  # seeds' pot-limit rule: current bet + the street's largest bet
MIN_FIXED: Final = "fixed"  # fixed-limit: exactly one bet more
MIN_ALL_IN: Final = "all-in"  # the stack is short of a full raise: the only raise is all-in
# Why the largest raise is what it is.
MAX_STACK: Final = "stack"  # no-limit, or the stack is below the limit: all-in
MAX_POT: Final = "pot"  # pot-limit: the pot after calling
MAX_FIXED: Final = "fixed"
# Why there is no raise at all.
NO_CHIPS: Final = "no-chips"  # the stack does not exceed the amount to call
NO_REOPEN: Final = "no-reopen"  # a short all-in did not reopen the betting for this player
CAPPED: Final = "capped"  # fixed-limit cap reached
NO_OPPONENT: Final = "no-opponent"  # no other player could call a raise: all-in or too short


class Legal(NamedTuple):
    """The legal options of the player to act (immutable; a named tuple because one is built
    for every decision, and a tuple is several times cheaper to build than a frozen dataclass).

    ``call`` is the number of chips a call adds (0 when checking is possible); ``call_to`` the
    street total after calling. ``min_to``/``max_to`` bound a bet or raise (street totals), or
    are None when the player may not bet or raise; ``no_raise`` then says why.
    """

    player: int
    fold: bool
    check: bool
    call: int
    call_to: int
    call_all_in: bool
    min_to: int | None
    max_to: int | None
    min_kind: str
    max_kind: str
    no_raise: str
    # the numbers the explanations quote
    level: int
    increment: int
    pot_after_call: int
    stack: int
    bet: int
    cap: int
    decimals: int = 0
    currency: str = ""

    @property
    def can_raise(self) -> bool:
        return self.min_to is not None

    @property
    def is_bet(self) -> bool:
        """True when a bet (not a raise) would open the betting on this street."""
        return self.level == 0

    def _ct(self, amount: int) -> Text:
        """An amount of this table's chips in every language."""
        return amount_text(amount, self.decimals, self.currency)

    # The explanations are catalogue messages, made only when asked for (the engine builds a
    # Legal for every decision and explains it only to a player or an error).
    def explain_min(self) -> Text:
        c = self._ct
        if self.min_to is None:
            return self.explain_no_raise()
        m = self.min_to
        if self.min_kind == MIN_ALL_IN:
            return t("only all-in: your {amount} is short of a full raise",
                     amount=c(self.stack + self.bet))
        if self.min_kind == MIN_OPEN:
            return t("smallest bet: {amount}, the big blind", amount=c(m))
        if self.min_kind == MIN_FIXED:
            if self.is_bet:
                return t("fixed limit: the bet is exactly to {amount}", amount=c(m))
            return t("fixed limit: the raise is exactly to {amount}", amount=c(m))
        if self.min_kind == MIN_LAST_BET:
            return t("smallest raise: to {amount} = {level} + the largest bet this street,"
                     " {increment}", amount=c(m), level=c(self.level),
                     increment=c(self.increment))
        if self.is_bet:
            return t("smallest bet: {amount}", amount=c(m))
        return t("smallest raise: to {amount} = {level} + the largest raise this street,"
                 " {increment}", amount=c(m), level=c(self.level), increment=c(self.increment))

    def explain_max(self) -> Text:
        c = self._ct
        if self.max_to is None:
            return self.explain_no_raise()
        m = self.max_to
        if self.max_kind == MAX_POT:
            return t("largest: to {amount} = {level} + the pot after calling, {pot}",
                     amount=c(m), level=c(self.level), pot=c(self.pot_after_call))
        if self.max_kind == MAX_FIXED:
            return t("fixed limit: exactly to {amount}", amount=c(m))
        return t("largest: all-in, to {amount}", amount=c(m))

    def explain_no_raise(self) -> Text:
        if self.no_raise == CAPPED:
            return t("you cannot raise: the betting is capped at {cap} bets", cap=self.cap)
        why = _NO_RAISE.get(self.no_raise)
        return t(why) if why is not None else Text("", "")

    def summary(self) -> Text:
        """One line a player reads: "fold, call 200, raise to 400–10,000"."""
        parts: list[Text] = []
        c = self._ct
        if self.fold:
            parts.append(tc("action", "fold"))
        if self.check:
            parts.append(tc("action", "check"))
        elif self.call:
            parts.append(t("call {amount} (all-in)", amount=c(self.call)) if self.call_all_in
                         else t("call {amount}", amount=c(self.call)))
        lo, hi = self.min_to, self.max_to
        if lo is not None and hi is not None:
            if lo == hi:
                parts.append(t("bet {amount}", amount=c(lo)) if self.is_bet
                             else t("raise to {amount}", amount=c(lo)))
            elif self.is_bet:
                parts.append(t("bet {low}–{high}", low=c(lo), high=c(hi)))
            else:
                parts.append(t("raise to {low}–{high}", low=c(lo), high=c(hi)))
        return Text.join(parts, ", ")


# why there is no raise, but for a cap (message ids)
_NO_RAISE: Final = {
    NO_CHIPS: N_("you cannot raise: calling takes all your chips"),
    NO_REOPEN: N_("you cannot raise: the short all-in did not reopen the betting; call or fold"),
    NO_OPPONENT: N_("you cannot raise: no other player has chips to call a raise"),
}


_new_tuple = tuple.__new__
_POT_LIMIT: Final = Structure.POT_LIMIT
_FIXED_LIMIT: Final = Structure.FIXED_LIMIT


# ---------------------------------------------------------------------- the betting rules
# Each rule of docs/rules.md ("1. Betting structures", "2. All-in and reopening" and the
# rulings) as one pure function over a street's numbers: the engine (Hand) asks them and
# keeps no rule of its own. ``fixed`` is fixed limit; ``last_bet`` the pot-limit rule by which
# a raise adds the largest bet of the street (Rules.min_raise_rule is MinRaise.LAST_BET).


def raise_step(level: int, increment: int, largest_bet: int, big_blind: int,
               last_bet: bool) -> int:
    """What the smallest raise adds to ``level``, the street total to call (no-limit and
    pot-limit): the largest full bet or raise increment of the street (TDA Rule 45), or,
    under the pot-limit "last bet" rule once something is bet, the largest bet total of the
    street; never less than the big blind."""
    if last_bet and level > 0:
        return largest_bet if largest_bet > big_blind else big_blind
    return increment


def min_raise_to(level: int, increment: int, largest_bet: int, big_blind: int,
                 last_bet: bool) -> int:
    """The smallest legal bet or raise total (no-limit, pot-limit), before the stack limits
    it: ``level`` + :func:`raise_step` (PL-2: after a raise to 7, to 14; NL-1: 3600 + 2000)."""
    return level + raise_step(level, increment, largest_bet, big_blind, last_bet)


def fixed_raise_to(level: int, full_level: int, fixed_bet: int) -> int:
    """The one fixed-limit bet or raise total: one bet over the last full bet or raise, and
    over the street total to call (FL-5: after a short all-in to 160 that acts as a raise over
    a bet of 100, to 260)."""
    target = full_level + fixed_bet
    return target if target > level else level + fixed_bet


def pot_limit_max(level: int, pot_after_call: int) -> int:
    """The largest pot-limit bet or raise total: the street total to call plus the pot after
    calling (PL-1: 2 + 5 = 7)."""
    return level + pot_after_call


def is_full_raise(to: int, level: int, full_level: int, increment: int, largest_bet: int,
                  big_blind: int, fixed_bet: int, fixed: bool, last_bet: bool) -> bool:
    """Whether a bet or raise to ``to`` over ``level`` is a full one, which reopens the
    betting and counts towards a fixed-limit cap. No-limit (TDA 45): it adds at least the
    largest increment of the street; pot-limit "last bet": at least the largest bet; fixed
    limit: half a bet or more over the last full bet (``full_level``), so several short
    all-ins together make a raise (the rulings, FL-5 and FL-6)."""
    if fixed:
        return 2 * (to - full_level) >= fixed_bet
    inc = to - level
    if last_bet and level > 0:
        return inc >= (largest_bet if largest_bet > big_blind else big_blind)
    return inc >= increment


def reopen_step(level: int, increment: int, largest_bet: int, big_blind: int, fixed_bet: int,
                fixed: bool, last_bet: bool) -> int:
    """How far the street total must rise over ``level`` (the total a player just acted on)
    before that player may raise again: a full raise (TDA; AI-1, AI-2), or in fixed limit
    half a bet, rounded up."""
    if fixed:
        return (fixed_bet + 1) // 2
    return raise_step(level, increment, largest_bet, big_blind, last_bet)


def reaches_cap(bets: int, cap: int | None, able: int) -> bool:
    """Whether a fixed-limit street is capped for good: ``bets`` bets and raises reached
    ``cap`` while more than two players could still bet (``able``); it then stays capped
    when a fold or an all-in leaves two (the rulings, FL-4)."""
    return cap is not None and bets >= cap and able > 2


def preflop_opening(blinds: Sequence[int], straddles: Sequence[int],
                    big_blind: int) -> tuple[int, int, int]:
    """The preflop street as the forced bets open it: (the total to call, the raise increment,
    the bets made). Every player faces the largest live blind or straddle in full, even one
    posted all-in short; the increment is that amount (at least the big blind: a straddle of
    4 over 1/2 makes the smallest raise to 8); the big blind is the first bet and each
    straddle one more (the fixed-limit cap)."""
    big = max(blinds)
    count = 1 if big else 0
    top = max(straddles)
    if top:
        count += len(straddles) - list(straddles).count(0)
        if top > big:
            big = top
    return big, (big if big > big_blind else big_blind), count


def first_to_act(n: int, button: int, blinds: Sequence[int], straddles: Sequence[int],
                 preflop: bool, small_equals_big: bool = False) -> int:
    """The first player to act: after the flop, the first after the button (heads-up, the
    big blind); preflop, the player after the last straddle (the largest), else after the big
    blind (the largest of ``blinds``, which holds no straddle; among equal ones the first
    after the button, but with blinds like 1/1 the second), else after the button."""
    start = button
    if preflop:
        top = max(straddles)
        if top:
            for k in range(n):  # the largest straddle; among equal ones the last clockwise
                p = (button + 1 + k) % n
                if straddles[p] == top:
                    start = p
        elif max(blinds):
            start = big_blind_player(tuple(blinds), button, small_equals_big)
    return (start + 1) % n


def acting_order(n: int, button: int, blinds: Sequence[int], straddles: Sequence[int],
                 preflop: bool, small_equals_big: bool = False) -> list[int]:
    """Every player in acting order for a street (see :func:`first_to_act`), clockwise; the
    players who fold or are all-in are the caller's to skip. The bots' positions read it."""
    first = first_to_act(n, button, blinds, straddles, preflop, small_equals_big)
    return [(first + k) % n for k in range(n)]


@lru_cache(maxsize=512)  # pure; called for every hand with the same few blind layouts
def big_blind_player(blinds: tuple[int, ...], button: int,
                     small_equals_big: bool = False) -> int:
    """The player whose live blind the others face: the largest; among equal ones (a big
    blind and a returning player's blind), the first after the button — unless the small
    blind is as large as the big blind (1/1 blinds): then the first after the button is the
    small blind and the big blind is the next seat, who acts last preflop."""
    n = len(blinds)
    best = max(range(n), key=lambda i: (blinds[i], -((i - button - 1) % n)))
    if small_equals_big and n > 2 and best == (button + 1) % n \
            and blinds[(button + 2) % n] == blinds[best]:
        return (button + 2) % n
    return best


def options(
    rules: Rules,
    player: int,
    street: int,
    level: int,
    full_level: int,
    increment: int,
    largest_bet: int,
    bets: int,
    able: int,
    capped: bool,
    bet: int,
    stack: int,
    pot: int,
    may_raise: bool,
    opponent_can_act: bool,
    last_bet: bool,
    structure: Structure,
    decimals: int,
    currency: str,
) -> Legal:
    """Legal options for one player (the engine passes the arguments by position).

    ``level`` is the street total to call (a short all-in blind does not lower it);
    ``full_level`` the total reached by the last full bet or raise; ``increment`` the largest
    full bet or raise increment of the street (at least the big blind); ``largest_bet`` the
    largest full bet total of the street (pot-limit "last-bet" rule); ``bets`` the number of
    bets and raises so far (fixed-limit cap); ``able`` the players still in the hand who are
    not all-in, the actor included, and ``capped`` whether the street reached the cap while
    more than two of them could bet (:meth:`~tapete.core.rules.Rules.cap`); ``pot`` every chip
    already in the middle, this street's bets included; ``last_bet``: the smallest raise is by
    the largest bet, not the largest raise (``rules.min_raise_rule``, read once a hand);
    ``structure``, ``decimals`` and ``currency`` are the rules', read once a hand too (the
    rules are a Python object: each attribute read is a lookup).
    """
    to_call = level - bet
    if to_call < 0:
        to_call = 0
    call = to_call if to_call < stack else stack
    call_all_in = to_call > 0 and call == stack
    pot_after_call = pot + call
    min_to: int | None = None
    max_to: int | None = None
    min_kind = max_kind = no_raise = ""
    fixed = structure is _FIXED_LIMIT
    cap = rules.cap(able, capped) if fixed else None  # no cap
    all_in_to = bet + stack
    if stack <= to_call:
        no_raise = NO_CHIPS
    elif not opponent_can_act:
        no_raise = NO_OPPONENT
    elif not may_raise:
        no_raise = NO_REOPEN
    elif cap is not None and bets >= cap:
        no_raise = CAPPED
    elif fixed:
        target = fixed_raise_to(level, full_level, rules.fixed_bet(street))
        if all_in_to <= target:
            min_to = max_to = all_in_to
            min_kind = MIN_ALL_IN if all_in_to < target else MIN_FIXED
            max_kind = MAX_STACK if all_in_to < target else MAX_FIXED
        else:
            min_to = max_to = target
            min_kind, max_kind = MIN_FIXED, MAX_FIXED
    else:
        # raise_step, written out (this runs at every decision)
        if last_bet and level > 0:
            big_blind = rules.big_blind
            step = largest_bet if largest_bet > big_blind else big_blind
            min_kind = MIN_LAST_BET
            increment = step
        else:
            step = increment
            min_kind = MIN_OPEN if level == 0 else MIN_INCREMENT
        target = level + step
        if structure is _POT_LIMIT:
            limit = pot_limit_max(level, pot_after_call)
            max_kind = MAX_POT
            if all_in_to < limit:
                limit = all_in_to
                max_kind = MAX_STACK
        else:
            limit = all_in_to
            max_kind = MAX_STACK
        if all_in_to <= target:
            min_to = max_to = all_in_to
            if all_in_to < target:
                min_kind = MIN_ALL_IN
            max_kind = MAX_STACK
        else:
            min_to = target
            max_to = limit if limit > target else target
    # built for every decision: the tuple is made directly, fields in order (the named
    # tuple's own __new__ only adds a Python call around this)
    return _new_tuple(Legal, (
        player, to_call > 0, to_call == 0, call, bet + call, call_all_in, min_to, max_to,
        min_kind, max_kind, no_raise, level, increment, pot_after_call, stack, bet, cap or 0,
        decimals, currency,
    ))
