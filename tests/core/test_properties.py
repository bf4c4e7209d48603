"""Property tests over random hands (hypothesis) and the regressions they found.

Random tables of all three structures, 2 to 10 players, random stacks (tiny ones included),
short and missing small blinds, antes, big-blind antes, straddles, caps, both pot-limit minimums
and rake; random legal actions drawn from ``legal()``. After every step the invariants of
docs/rules.md hold; a replay of the events rebuilds the same state; illegal actions change nothing.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import STRUCTURES, Table, apply, pick_action, random_table, tables
from tapete.core import betting as bt
from tapete.core.betting import Legal
from tapete.core.cards import Deck
from tapete.core.hand import Hand, IllegalAction, Phase
from tapete.core.rules import MinRaise, Rules, Structure

SETTINGS = settings(max_examples=600, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def snapshot(h: Hand) -> tuple[object, ...]:
    return (list(h.stacks), list(h.bets), list(h.totals), list(h.folded), list(h.all_in),
            [list(b) for b in h.boards], h.street, h.phase, h.actor, h.level, h.full_level,
            h.increment, h.largest_bet, h.bets_count, list(h.acted), list(h.reopen_at),
            list(h.returned), list(h.won), h.rake, dict(h.shown), set(h.mucked), h.betting_over)


def replayed(h: Hand) -> Hand:
    return Hand.from_events(h.rules, h.starting_stacks, list(h.events), button=h.button,
                            blinds=h.blinds, antes=h.antes, dead=h.dead, straddles=h.straddles,
                            auto_showdown=h.auto_showdown)


def check_invariants(h: Hand) -> None:
    start = sum(h.starting_stacks)
    # chips conserved: in stacks, in the middle, or raked
    assert sum(h.stacks) + sum(h.totals) - sum(h.won) == start
    assert all(x >= 0 for x in h.stacks)
    assert all(x >= 0 for x in h.bets)
    assert all(x >= 0 for x in h.totals)
    for p in range(h.n):
        if h.stacks[p] == 0 and h.totals[p] > 0:
            assert h.all_in[p]
        if h.all_in[p] and h.stacks[p] > 0:  # all-in, then the uncalled part came back
            assert h.returned[p] > 0 or h.won[p] > 0
    if not h.done:
        pots = h.pots()
        assert all(pot.amount > 0 for pot in pots)
        assert sum(pot.amount for pot in pots) == sum(h.totals)
        for pot in pots:
            assert all(not h.folded[p] for p in pot.eligible)


class Street:
    """An independent model of one betting round's raise rules (TDA; the
    half-bet rule in fixed limit, several short all-ins together included): which raises were
    full, when a player who already acted may raise again, and whether a fixed-limit street
    reached its cap while more than two players could bet (it then stays capped)."""

    def __init__(self, h: Hand) -> None:
        r = h.rules
        self.rules = r
        self.fixed = r.structure is Structure.FIXED_LIMIT
        self.last_bet = r.min_raise_rule is MinRaise.LAST_BET
        preflop = h.street == 0
        self.level = max(h.blinds) if preflop else 0
        self.increment = max(self.level, r.big_blind) if preflop else r.big_blind
        self.largest = self.level
        self.full = self.level  # the total the last full bet or raise reached
        self.street = h.street
        self.acted: dict[int, tuple[int, int]] = {}  # player -> (level after, reopen step)
        self.capped = False
        self.note_cap(h)

    def note_cap(self, h: Hand) -> None:
        cap = self.rules.bet_cap
        if self.fixed and cap is not None and h.bets_count >= cap and able(h) > 2:
            self.capped = True

    def step(self) -> int:
        r = self.rules
        if self.fixed:
            return (r.fixed_bet(self.street) + 1) // 2  # half a bet or more is a full raise
        if self.last_bet and self.level > 0:
            return max(self.largest, r.big_blind)
        return self.increment

    def act(self, player: int, to: int) -> None:
        if to > self.level:
            inc = to - self.level
            if self.fixed:  # half a bet over the last full bet, by one all-in or several
                full = 2 * (to - self.full) >= self.rules.fixed_bet(self.street)
            else:
                full = inc >= self.step()
            if full:
                self.increment = max(self.increment, inc)
                self.largest = max(self.largest, to)
                self.full = to
            self.level = to
        self.acted[player] = (self.level, self.step())

    def may_raise(self, player: int) -> bool:
        if player not in self.acted:
            return True
        level, step = self.acted[player]
        return self.level - level >= step


def able(h: Hand) -> int:
    """The players still in the hand who are not all-in (heads-up for the fixed-limit cap)."""
    return sum(1 for q in range(h.n) if not h.folded[q] and not h.all_in[q])


def check_legal(h: Hand, lg: Legal, model: Street) -> None:
    p = lg.player
    rules = h.rules
    assert p == h.actor
    stack, bet = h.stacks[p], h.bets[p]
    all_in_to = bet + stack
    assert stack > 0 and not h.folded[p]
    assert model.level == h.level
    assert lg.fold == (not lg.check)
    assert lg.call == min(max(h.level - bet, 0), stack)
    assert lg.call_to == bet + lg.call
    if (lg.min_to is None) != (lg.max_to is None):
        raise AssertionError(lg)
    if lg.min_to is not None and lg.max_to is not None:
        assert lg.min_to <= lg.max_to
        assert lg.min_to > h.level
        assert lg.max_to <= all_in_to
        if rules.structure is Structure.FIXED_LIMIT:
            assert lg.min_to == lg.max_to
        if lg.min_kind == bt.MIN_ALL_IN:
            assert lg.min_to == lg.max_to == all_in_to
        if rules.structure is Structure.NO_LIMIT:
            assert lg.max_to == all_in_to
        if rules.structure is Structure.POT_LIMIT:
            pot_limit = h.level + sum(h.totals) + lg.call
            assert lg.max_to == min(pot_limit, all_in_to) or lg.max_to == lg.min_to
    # an all-in (or, where the structure limits the size, a raise) is legal whenever the
    # stack is larger than the call, except exactly where the rules forbid raising
    if stack <= h.level - bet:
        assert lg.min_to is None and lg.no_raise == bt.NO_CHIPS
        return
    others_all_in = all(h.folded[q] or h.all_in[q] or h.bets[q] + h.stacks[q] <= h.level
                        for q in range(h.n) if q != p)
    cap = rules.cap(able(h), model.capped)  # lifted heads-up, by option
    capped = cap is not None and h.bets_count >= cap
    if others_all_in:
        assert lg.no_raise == bt.NO_OPPONENT and lg.min_to is None
    elif not model.may_raise(p):
        assert lg.no_raise == bt.NO_REOPEN and lg.min_to is None
    elif capped:
        assert lg.no_raise == bt.CAPPED and lg.min_to is None
    else:
        assert lg.min_to is not None, lg
        assert lg.max_to is not None
        if rules.structure is Structure.NO_LIMIT:
            assert lg.max_to == all_in_to


def play_checked(table: Table, seed: int, *, illegal: bool = True) -> Hand:
    rng = random.Random(seed ^ 0x5EED)
    h = Hand(table.rules, table.stacks, button=table.button, deck=Deck(seed),
             auto_showdown=True)
    check_invariants(h)
    model = Street(h)
    mid = rng.randint(0, 12)
    steps = 0
    while not h.done:
        assert h.phase is Phase.BETTING, h.phase
        if h.street != model.street:
            model = Street(h)
        lg = h.legal()
        check_legal(h, lg, model)
        if illegal and rng.random() < 0.3:
            try_illegal(h, lg, rng)
        action = pick_action(rng, lg)
        apply(h, action)
        model.act(lg.player, action[1] if action[0] == "raise" else min(
            lg.call_to, model.level) if action[0] != "fold" else model.level)
        if h.street == model.street:
            model.note_cap(h)
        check_invariants(h)
        steps += 1
        if steps == mid:
            assert snapshot(replayed(h)) == snapshot(h)
    # the books balance and the replay agrees at the end
    assert sum(h.totals) == sum(h.won) + h.rake
    assert sum(h.stacks) + h.rake == sum(h.starting_stacks)
    assert snapshot(replayed(h)) == snapshot(h)
    check_odd_chips(h)
    return h


def check_odd_chips(h: Hand) -> None:
    """A split pot's odd chips go one at a time to the tied winners in seat order, starting
    left of the button (docs/rules.md §4, POT-6)."""
    first = (h.button + 1) % h.n
    for r in h.results:
        shares = dict(r.shares)
        if len(r.winners) < 2 or len(h.boards) != 1:
            continue
        order = sorted(r.winners, key=lambda p: (p - first) % h.n)
        amounts = [shares.get(p, 0) for p in order]
        base, odd = divmod(r.amount, len(order))
        assert amounts == [base + (1 if i < odd else 0) for i in range(len(order))], (r, h.button)


def try_illegal(h: Hand, lg: Legal, rng: random.Random) -> None:
    """One illegal action: it raises IllegalAction and leaves the events and state alone."""
    before = snapshot(h)
    n_events = len(h.events)
    candidates: list[tuple[str, object]] = []
    if not lg.fold:
        candidates.append(("fold", None))
    if not lg.check:
        candidates.append(("check", None))
    else:
        candidates.append(("call", None))
    if lg.min_to is None:
        candidates.append(("raise", h.level + rng.randint(1, 3 * h.rules.big_blind)))
    else:
        assert lg.max_to is not None
        if lg.min_to - 1 > h.level:
            candidates.append(("raise", rng.randint(h.level + 1, lg.min_to - 1)))
        candidates.append(("raise", lg.max_to + rng.randint(1, 50)))
        candidates.append(("raise", float(lg.min_to)))
        candidates.append(("raise", True))
    candidates.append(("raise", h.level))
    other = (lg.player + rng.randint(1, h.n - 1)) % h.n
    candidates.append(("out-of-turn", other))
    kind, arg = rng.choice(candidates)
    with pytest.raises(IllegalAction):
        if kind == "fold":
            h.fold()
        elif kind == "check":
            h.check()
        elif kind == "call":
            h.call()
        elif kind == "raise":
            h.raise_to(arg)  # type: ignore[arg-type]
        else:
            assert isinstance(arg, int)
            rng.choice((h.fold, h.check_or_call))(arg)
    assert len(h.events) == n_events
    assert snapshot(h) == before


@SETTINGS
@given(tables(Structure.NO_LIMIT))
def test_random_no_limit_hands(t: tuple[Table, int]) -> None:
    play_checked(*t)


@SETTINGS
@given(tables(Structure.POT_LIMIT))
def test_random_pot_limit_hands(t: tuple[Table, int]) -> None:
    play_checked(*t)


@SETTINGS
@given(tables(Structure.FIXED_LIMIT))
def test_random_fixed_limit_hands(t: tuple[Table, int]) -> None:
    play_checked(*t)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.sampled_from(STRUCTURES))
def test_short_stacks_and_forced_bets(seed: int, structure: Structure) -> None:
    """Most players below the blinds and antes: posts all-in, runs out at once."""
    rng = random.Random(seed)
    table = random_table(rng, structure)
    bb = table.rules.big_blind
    stacks = tuple(rng.randint(1, 3 * bb) for _ in table.stacks)
    play_checked(Table(table.rules, stacks, table.button), seed)


def test_many_seeded_hands_quickly() -> None:
    """A wider sweep than hypothesis runs, without shrinking: 6,000 seeded hands."""
    for seed in range(6000):
        rng = random.Random(seed)
        table = random_table(rng)
        play_checked(table, seed, illegal=seed % 3 == 0)


def test_books_balance_when_a_pot_is_won() -> None:
    # regression: the books check compared contributions with contributions + awards, so every
    # hand that awarded a pot raised BooksError (docs/rules.md §4: awards + returns + rake =
    # contributions)
    h = Hand(Rules(), [200, 200, 200], deck=Deck(1), auto_showdown=True)
    h.fold()
    h.fold()
    assert h.phase is Phase.DONE
    assert sum(h.stacks) == 600
    assert h.net() == [-1, 1, 0]



def test_equal_blinds_big_blind_acts_last_preflop() -> None:
    # regression: with a small blind as large as the big blind (2/2), the small blind's seat
    # was taken for the big blind, so the big blind acted first preflop. docs/rules.md §3:
    # the player after the big blind acts first; the big blind keeps the option.
    h = Hand(Rules(small_blind=2, big_blind=2), [100] * 5, button=4, deck=Deck(0))
    assert h.actor == 2
    for _ in range(4):
        h.call() if h.legal().call else h.check()
    assert h.actor == 1 and h.legal().check and h.legal().min_to == 4
    hu = Hand(Rules(small_blind=2, big_blind=2), [100] * 2, button=1, deck=Deck(0))
    assert hu.actor == 1  # heads-up the button acts first preflop


def test_big_blind_ante_is_paid_by_the_big_blind_not_the_straddle() -> None:
    # regression: the big-blind ante went to the largest blind, the straddle. A big-blind ante
    # is paid by the big blind (TDA "big blind ante"; Rules.big_blind_ante docstring).
    rules = Rules(small_blind=1, big_blind=2, straddle=4, ante=2, big_blind_ante=True)
    h = Hand(rules, [100] * 5, button=4, deck=Deck(0))
    assert h.antes == (0, 2, 0, 0, 0)
    assert h.stacks == [99, 96, 96, 100, 100]
    assert h.actor == 3 and h.legal().call == 4 and h.legal().min_to == 8
