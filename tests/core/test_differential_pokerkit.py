"""Differential test: tapete against PokerKit (a test dependency only) on random hands.

Random no-limit, fixed-limit and pot-limit hands (pot-limit with ``min_raise="last-raise"``,
PokerKit's pot-limit minimum) with 2 to 9 players, random blinds, antes and stacks (tiny ones
included). Both engines get the same cards (PokerKit is dealt the cards tapete's deck dealt). At
every decision the legal options must agree: whether folding is allowed, the amount to check or
call, the smallest and largest raise-to. At the end the finishing stacks must agree.

Where PokerKit departs from the rules tapete follows (docs/rules.md, cited below as "rules §N",
and the PokerStars rulings of tests/data/pokerstars), the case is recognised, counted and
excluded; any other disagreement fails. The departures (each with the rule that decides it):

D1  Fixed-limit cap. PokerKit's stock fixed-limit hold'em allows 4 raises on every street on
    top of the big blind, i.e. 5 bets preflop. rules §1 (PokerStars, Robert's Rules): 4 bets a
    street, the big blind counting as the first preflop. Here PokerKit's streets are built with
    the cap tapete uses (preflop ``cap - bets already posted``), so every decision is compared;
    ``test_d1_stock_pokerkit_caps_preflop_at_five_bets`` pins the stock behaviour.
D2  Pot-limit minimum. PokerKit's pot-limit minimum raise is the TDA increment. Tapete's default
    is the room's "last-bet" rule (after a raise to 7 the smallest raise is to 14: rules PL-2);
    the random hands use ``min_raise="last-raise"``; ``test_d2_...`` pins the difference.
D3  Short big blind (or straddle). A big blind posted all-in for less than the blind: PokerKit
    makes the others face the short amount (and raise from it). rules §1 and the PokerStars
    ruling in hhp_mtt_nlhe_blind_posts_allin_side_pot.txt / posts-allin (big blind all-in
    short, the next player calls the full blind): the others face the full big blind. Preflop
    decisions of such hands are excluded once they differ; the hand is dropped when the call
    amounts diverge.
D4  Straddle minimum raise. PokerKit: straddle + big blind. rules §1: twice the straddle (the
    straddle is the live bet being raised; TDA 45). Preflop decisions of straddled hands whose
    minimum differs; play continues with amounts legal in both.
D5  Folding when checking is free: tapete refuses it; PokerKit allows it (with a warning) in
    cash-game mode, refuses it in tournament mode. The test uses tournament mode: no exclusion.
D6  Odd chips. PokerKit gives the whole remainder of a split pot to the first winner, and
    splits pots won by the same players as one; rules §4 (POT-6): one chip at a time to the tied
    winners in seat order from the left of the button, pot by pot. Where the stacks differ, the
    test checks that only the odd chips moved and that tapete's split follows the rule.
D7  (none: tapete and PokerKit agree that a raise needs an opponent who could put in more than
    the current bet — seed 000: Chuck cannot raise "because Andy has no chips left to call or
    raise".)
D8  A big-blind ante posted by a short big blind: tapete posts the blind first and the ante
    from what is left (TDA: the blind has priority); PokerKit posts the ante first. Hands where
    this changes an amount are dropped.
D9  Heads-up with a small blind equal to the big blind: PokerKit lets the big blind act first
    preflop; rules §3: heads-up the button posts the small blind and acts first
    preflop. Such hands are dropped.
D10 Fixed-limit short all-in raises (Robert's Rules, "half-bet rule", which tapete follows for
    fixed limit): an all-in of less than half a bet is not a raise, and a player who has not
    acted may "complete" it to the full bet (BB 100, all-in to 124: the next raise is to 200;
    PokerKit: to 224); an all-in of half a bet or more is a full raise and reopens the betting
    (a $15 all-in on a $20 round is raised to $35). PokerKit applies the no-limit full-raise
    rule. Decisions on a fixed-limit street after such an all-in are excluded.
D11 A short all-in before any full bet or raise of the street: PokerKit's "last raise" is 0
    until someone makes a full one, so any such all-in counts as a full raise and reopens the
    betting for the players who already acted (preflop: BB 100, three limp, all-in to 109,
    everyone calls, PokerKit lets the limpers raise; postflop: check, all-in bet of 1 at BB 2,
    call, PokerKit lets the checker raise). rules §2 (TDA, AI-1; Robert's Rules:
    "a player who has already acted and is not facing a full-size wager may not subsequently
    raise an all-in bet that is less than the minimum bet"): tapete offers call or fold.
    Excluded decisions.
D12 A player all-in for part of the ante. PokerKit puts every ante in one pot that the short
    player can win. rules §4 (levels cut at each all-in amount, antes included) and Robert's
    Rules: an equal part of every other ante goes to the main pot, the rest and all later bets
    to a side pot the short player cannot win. Hands whose stacks differ this way are dropped
    from the stack comparison (their decisions were compared).
D13 Every other player is all-in for no more than a player's bet (say the big blind): PokerKit
    still asks that player to act, with check as the only option; rules §3: a street
    closes when at most one player can still act and the bets are matched, so tapete asks
    nothing. The test answers PokerKit's check (counted) and goes on.
D14 Three or more short all-ins that together make a full raise: once the running sum of short
    all-ins reaches a full raise PokerKit clears it (without reopening anything), so a further
    short all-in leaves the players who acted before them unable to raise (A bets 100, all-ins
    to 150, 200 and 230: PokerKit lets A only call). rules §2 (TDA; AI-2; Robert's Rules:
    "multiple all-in wagers, each too small to qualify as a raise, still act as a raise and
    reopen the betting if the resulting wager size to a player qualifies as a raise"): A faces
    130 more, a full raise, and may raise. Excluded decisions.

Size: 10,000 hands by default (``TAPETE_DIFF_HANDS`` changes it), about 75 s of CPU, split
over the machine's CPUs (about a minute on the 2-core machine). Longer runs:
``python benchmarks/bench_engine.py --hands 0 --pokerkit-hands 0 --diff 50000`` (seeds 0 to
44,999 were run this way once: every disagreement was one of the above).
"""

from __future__ import annotations

import os
import random
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from tapete.core.cards import Deck, format_card
from tapete.core.hand import Hand
from tapete.core.rules import MinRaise, Rules, Structure

pk = pytest.importorskip("pokerkit")

N_HANDS = int(os.environ.get("TAPETE_DIFF_HANDS", "10000"))

_AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.CARD_BURNING,
    pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)
_PK_CARD = {c: next(iter(pk.Card.parse(format_card(c)))) for c in range(52)}
_PK_STRUCTURE = {
    Structure.NO_LIMIT: pk.BettingStructure.NO_LIMIT,
    Structure.POT_LIMIT: pk.BettingStructure.POT_LIMIT,
    Structure.FIXED_LIMIT: pk.BettingStructure.FIXED_LIMIT,
}


class Divergence(Exception):
    """A known departure (D1..D8) that makes the rest of the hand incomparable."""


@dataclass
class Tally:
    hands: int = 0
    compared: int = 0
    decisions: int = 0
    excluded: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)


def pokerkit_forced(rules: Rules, n: int) -> tuple[object, tuple[int, ...]]:
    """The antes and the blinds (and straddle) of ``rules`` as PokerKit's states take them."""
    blinds: tuple[int, ...] = (rules.small_blind, rules.big_blind)
    if rules.straddle and n > 2:
        blinds += (rules.straddle,)
    antes: object = 0
    if rules.ante:
        antes = {1: rules.ante} if rules.big_blind_ante else rules.ante  # 1: the big blind
    return antes, blinds


def pokerkit_state(rules: Rules, stacks: tuple[int, ...], *, stock_cap: bool = False) -> Any:
    """PokerKit's state for tapete's rules; players in the same order (0 = left of the button,
    heads-up 0 = big blind), button last."""
    n = len(stacks)
    fl = rules.structure is Structure.FIXED_LIMIT
    cap = rules.cap(n)
    if fl:
        small, big = rules.small_bet, rules.big_bet
    else:
        small = big = rules.big_blind
    if stock_cap:
        pre_cap: int | None = 4
        post_cap: int | None = 4
    elif cap is None:
        pre_cap = post_cap = None
    else:
        posted = 1 + (1 if rules.straddle and n > 2 else 0)
        pre_cap, post_cap = cap - posted, cap
    streets = (
        pk.Street(False, (False, False), 0, False, pk.Opening.POSITION, small, pre_cap),
        pk.Street(True, (), 3, False, pk.Opening.POSITION, small, post_cap),
        pk.Street(True, (), 1, False, pk.Opening.POSITION, big, post_cap),
        pk.Street(True, (), 1, False, pk.Opening.POSITION, big, post_cap),
    )
    antes, blinds = pokerkit_forced(rules, n)
    return pk.State(_AUTOMATIONS, pk.Deck.STANDARD, (pk.StandardHighHand,), streets,
                    _PK_STRUCTURE[rules.structure], False, antes, blinds, 0, stacks, n,
                    mode=pk.Mode.TOURNAMENT)


def random_table(rng: random.Random) -> tuple[Rules, tuple[int, ...]]:
    s = rng.choice((Structure.NO_LIMIT, Structure.FIXED_LIMIT, Structure.POT_LIMIT))
    n = rng.randint(2, 9)
    bb = rng.choice((2, 2, 10, 20, 100, rng.randint(1, 200)))
    sb = rng.choice((bb // 2, bb // 2, bb // 2, rng.randint(0, bb)))
    ante = rng.randint(1, bb) if rng.random() < 0.2 else 0
    bb_ante = bool(ante) and rng.random() < 0.3
    straddle = 2 * bb if s is not Structure.FIXED_LIMIT and n > 2 and rng.random() < 0.1 else 0
    kw: dict[str, object] = {}
    if s is Structure.POT_LIMIT:
        kw["min_raise"] = MinRaise.LAST_RAISE
    if s is Structure.FIXED_LIMIT and rng.random() < 0.2:
        kw["bet_cap"] = rng.choice((None, 3, 5))
    rules = Rules(structure=s, small_blind=sb, big_blind=bb, ante=ante, big_blind_ante=bb_ante,
                  straddle=straddle, **kw)  # type: ignore[arg-type]
    return rules, random_stacks(rng, n, bb, ante)


def random_stacks(rng: random.Random, n: int, bb: int, ante: int) -> tuple[int, ...]:
    """Stacks of every depth: a few shorter than the blinds and ante, some short, most deep."""
    stacks = []
    for _ in range(n):
        x = rng.random()
        if x < 0.08:
            stacks.append(rng.randint(1, 2 * bb + ante))
        elif x < 0.3:
            stacks.append(rng.randint(2 * bb, 25 * bb))
        else:
            stacks.append(rng.randint(25 * bb, 250 * bb))
    return tuple(stacks)


def short_blind(h: Hand) -> bool:
    """True when a big blind or straddle was posted short (all-in for less, or nothing left
    after the ante)."""
    big = max(h.blinds)
    posted = [0] * h.n
    for e in h.events:
        if type(e).__name__ == "Posted" and getattr(e, "kind", "") != "ante":
            posted[getattr(e, "player", 0)] += getattr(e, "amount", 0)
    return any(h.blinds[p] >= h.rules.big_blind and posted[p] < h.blinds[p]
               for p in range(h.n)) and big > 0


def fl_short_all_in(h: Hand) -> bool:
    """True when this street saw an all-in bet or raise of other than a full fixed bet."""
    step = h.rules.fixed_bet(h.street)
    level = max(h.blinds) if h.street == 0 else 0
    seen = False
    for e in h.events:
        name = type(e).__name__
        if name == "BoardDealt":
            level, seen = 0, False
        elif name == "Acted" and getattr(e, "to", 0) > level:
            if getattr(e, "all_in", False) and getattr(e, "to", 0) - level != step:
                seen = True
            level = getattr(e, "to", 0)
    return seen


def straddle_short_raise(h: Hand) -> bool:
    """True when a preflop raise over the straddle added at least the big blind but less than
    the straddle: PokerKit counts it as a full raise (D4), tapete does not."""
    level = max(h.blinds)
    for e in h.events:
        if type(e).__name__ == "BoardDealt":
            return False
        if type(e).__name__ == "Acted" and getattr(e, "to", 0) > level:
            inc = getattr(e, "to", 0) - level
            if h.rules.big_blind <= inc < h.rules.straddle:
                return True
            level = getattr(e, "to", 0)
    return False


def pokerkit_no_raise(state: Any) -> str:
    try:
        state._verify_completion_betting_or_raising()
    except ValueError as e:
        return str(e)
    return ""


def cumulative_reopen(h: Hand, p: int) -> bool:
    """True when ``p`` acted on this street and the bet has since grown by at least a full
    raise through several short all-ins (no-limit and pot-limit "last-raise" rules)."""
    acts = []
    for e in h.events:
        if type(e).__name__ == "BoardDealt":
            acts = []
        elif type(e).__name__ == "Acted":
            acts.append(e)
    last = max((i for i, e in enumerate(acts) if getattr(e, "player", -1) == p), default=None)
    if last is None:
        return False
    since = acts[last + 1:]
    raises = [e for e in since if getattr(e, "action", "") in ("bet", "raise")]
    return len(raises) >= 2 and all(getattr(e, "all_in", False) for e in raises) \
        and h.level - getattr(acts[last], "to", 0) >= h.increment


def classify(h: Hand, ours: tuple[object, ...], theirs: tuple[object, ...],
             state: Any) -> str:
    """Name the known departure that explains a disagreement, or fail."""
    rules = h.rules
    p = h.actor
    assert p is not None
    bb = rules.big_blind
    short_bb = h.street == 0 and short_blind(h)
    if short_bb:
        return "D3 short big blind or straddle"
    if rules.structure is Structure.FIXED_LIMIT and fl_short_all_in(h):
        return "D10 fixed-limit short all-in (half-bet rule)"
    if ours[:2] == theirs[:2] and ours[2] is None and theirs[2] is not None \
            and h.legal().no_raise == "no-reopen" \
            and h.full_level == (max(h.blinds) if h.street == 0 else 0):
        return "D11 short all-in before any full bet reopens in PokerKit"
    if rules.straddle and h.street == 0 and ours[:2] == theirs[:2]:
        all_in_to = h.bets[p] + h.stacks[p]
        first_raise = (ours[2] in (h.level + rules.straddle, all_in_to)
                       and theirs[2] in (h.level + bb, all_in_to) and ours[3] == theirs[3])
        if first_raise or straddle_short_raise(h):
            return "D4 straddle minimum raise"
    if ours[:2] == theirs[:2] and ours[2] is not None and theirs[2] is None:
        why = pokerkit_no_raise(state)
        # D14: short all-ins since the player acted add up to a full raise; PokerKit forgets
        # the ones it already counted
        if "non-full all-in" in why and cumulative_reopen(h, p):
            return "D14 cumulative short all-ins reopen"
    raise AssertionError(
        f"tapete and PokerKit disagree: tapete {ours}, PokerKit {theirs}; rules "
        f"{h.rules.describe()} {h.rules.structure}, stacks {h.starting_stacks}, "
        f"events {h.events}")


def play_one(seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    rules, stacks = random_table(rng)
    play_against(rng, seed, rules, stacks, pokerkit_state(rules, stacks), tally)


def play_against(rng: random.Random, seed: int, rules: Rules, stacks: tuple[int, ...], s: Any,
                 tally: Tally) -> Hand | None:
    """One hand of ``rules`` (any game) dealt from ``Deck(seed)``, played by tapete and by
    PokerKit's state ``s`` with the same random legal actions (``rng``), compared at every
    decision and at the end. The hand when it was compared to the end, else None."""
    n = len(stacks)
    deck = Deck(seed)
    cards = deck.cards()
    h = Hand(rules, stacks, button=n - 1, deck=deck, auto_showdown=True)
    tally.hands += 1
    # D8: a short big blind paying a big-blind ante
    if rules.big_blind_ante and h.blinds != () and \
            any(tuple(s.bets)[i] != h.bets[i] for i in range(n)):
        tally.dropped["D8 big-blind ante from a short big blind"] += 1
        return None
    # tapete deals every hand, then the board, no burns
    dealt = rules.game.hole_cards * n
    board = list(cards[dealt:dealt + 5])
    try:
        while True:
            while s.can_deal_hole():
                i = s.hole_dealee_index
                hole = h.hole[i]
                assert hole is not None
                s.deal_hole([_PK_CARD[c] for c in hole])
            while s.can_deal_board():
                k = 3 if len(board) == 5 else 1
                s.deal_board([_PK_CARD[c] for c in board[:k]])
                del board[:k]
            pk_actor = s.actor_index
            if pk_actor is not None and pk_actor != h.actor \
                    and s.checking_or_calling_amount == 0 \
                    and s.min_completion_betting_or_raising_to_amount is None:
                # D13: PokerKit asks for a check nobody can answer
                assert all(h.folded[q] or h.all_in[q] for q in range(n) if q != pk_actor)
                tally.excluded["D13 a check with nobody left to act"] += 1
                s.check_or_call()
                continue
            if h.done:
                break
            if s.actor_index != h.actor:
                if short_blind(h):
                    raise Divergence("D3 short big blind or straddle")
                if n == 2 and rules.small_blind == rules.big_blind:
                    raise Divergence("D9 heads-up with equal blinds")
                raise AssertionError(f"actor: tapete {h.actor}, PokerKit "
                                     f"{s.actor_index}; {h.events}")
            lg = h.legal()
            ours = (lg.fold, lg.call, lg.min_to, lg.max_to)
            theirs = (s.can_fold(), s.checking_or_calling_amount,
                      s.min_completion_betting_or_raising_to_amount,
                      s.max_completion_betting_or_raising_to_amount)
            tally.decisions += 1
            lo: int | None = lg.min_to
            hi: int | None = lg.max_to
            if ours != theirs:
                why = classify(h, ours, theirs, s)
                tally.excluded[why] += 1
                if ours[:2] != theirs[:2]:
                    raise Divergence(why)
                if lo is not None and theirs[2] is not None and hi is not None \
                        and theirs[3] is not None:
                    lo, hi = max(lo, int(theirs[2])), min(hi, int(theirs[3]))  # type: ignore
                    if lo > hi:
                        lo = hi = None
                else:
                    lo = hi = None
            x = rng.random()
            if lg.fold and x < 0.12:
                h.fold()
                s.fold()
            elif lo is not None and hi is not None and x > 0.6:
                y = rng.random()
                to = lo if y < 0.35 else hi if y < 0.55 else rng.randint(lo, hi)
                h.raise_to(to)
                s.complete_bet_or_raise_to(to)
            else:
                h.check_or_call()
                s.check_or_call()
    except Divergence as d:
        tally.dropped[str(d)] += 1
        return None
    assert not s.status, "PokerKit's hand is not over"
    theirs_stacks = list(s.stacks)
    if theirs_stacks != list(h.stacks) and any(
            type(e).__name__ == "Posted" and getattr(e, "kind", "") == "ante"
            and getattr(e, "all_in", False) and getattr(e, "amount", 0) < rules.ante
            for e in h.events):
        tally.dropped["D12 all-in for part of the ante"] += 1
        return None
    if theirs_stacks != list(h.stacks) and odd_chips_only(h, s):
        theirs_stacks = list(h.stacks)
        tally.excluded["D6 odd chips"] += 1
    assert theirs_stacks == list(h.stacks), (
        f"finishing stacks: tapete {h.stacks}, PokerKit {list(s.stacks)}; "
        f"{rules.describe()} {rules.structure}; start {stacks}; {h.events}")
    tally.compared += 1
    return h


def odd_chips_only(h: Hand, s: Any) -> bool:
    """True when the stacks differ only by how split pots' odd chips went (D6): the same
    winners get the same total, nobody is off by more than the odd chips there were, and
    tapete gave each split pot's odd chips one at a time from the left of the button."""
    theirs = [0] * h.n
    for op in s.operations:
        if type(op).__name__ == "ChipsPushing":
            for i, a in enumerate(op.amounts):
                theirs[i] += a
    ours = list(h.won)
    for i in range(h.n):  # an uncalled bet PokerKit pushes back is our Returned event
        ours[i] += h.returned[i] if theirs[i] and not h.won[i] else 0
    # PokerKit may give one winner up to (winners - 1) odd chips of each split pot
    slack = sum(len(r.winners) - 1 for r in h.results if len(r.winners) > 1)
    if not slack or sum(theirs) != sum(ours):
        return False
    winners = {p for r in h.results for p in r.winners}
    if any(a and i not in winners and not h.returned[i] for i, a in enumerate(theirs)):
        return False
    if any(abs(a - b) > slack for a, b in zip(theirs, ours, strict=True)):
        return False
    first = (h.button + 1) % h.n
    for r in h.results:
        if len(r.winners) > 1:
            shares = dict(r.shares)
            order = sorted(r.winners, key=lambda p: (p - first) % h.n)
            base, odd = divmod(r.amount, len(order))
            if [shares[p] for p in order] != [base + (k < odd) for k in range(len(order))]:
                return False
    return True


def run(first: int, count: int) -> Tally:
    tally = Tally()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(first, first + count):
            play_one(seed, tally)
    return tally


def _run_chunk(bounds: tuple[int, int]) -> Tally:
    return run(*bounds)


def run_parallel(count: int) -> Tally:
    """Seeds 0..count-1, split over the CPUs (PokerKit is the slow side: ~75 s of CPU for
    10,000 hands on this machine)."""
    workers = min(os.cpu_count() or 1, 4)
    if workers < 2 or count < 1000:
        return run(0, count)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    step = -(-count // (4 * workers))
    chunks = [(a, min(step, count - a)) for a in range(0, count, step)]
    total = Tally()
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        for t in pool.map(_run_chunk, chunks):
            total.hands += t.hands
            total.compared += t.compared
            total.decisions += t.decisions
            total.excluded.update(t.excluded)
            total.dropped.update(t.dropped)
    return total


def test_differential_random_hands() -> None:
    t0 = time.perf_counter()
    tally = run_parallel(N_HANDS)
    elapsed = time.perf_counter() - t0
    print(f"\n{tally.hands} hands ({tally.compared} compared to the end, "
          f"{tally.decisions} decisions) in {elapsed:.1f} s; excluded decisions "
          f"{dict(tally.excluded)}; dropped hands {dict(tally.dropped)}")
    assert tally.hands == N_HANDS
    assert tally.compared >= 0.9 * N_HANDS


def test_d1_stock_pokerkit_caps_preflop_at_five_bets() -> None:
    rules = Rules(structure=Structure.FIXED_LIMIT, small_blind=1, big_blind=2)
    s = pokerkit_state(rules, (1000,) * 3, stock_cap=True)
    h = Hand(rules, (1000,) * 3, deck=Deck(0))
    for _ in range(2):
        s.deal_hole(2)
    s.deal_hole(2)
    for to in (4, 6, 8):
        h.raise_to(to)
        s.complete_bet_or_raise_to(to)
    assert h.legal().min_to is None  # 4 bets: the big blind and 3 raises
    assert s.min_completion_betting_or_raising_to_amount == 10  # PokerKit: a 5th


def test_d2_pot_limit_minimum_last_bet_differs_from_pokerkit() -> None:
    rules = Rules(structure=Structure.POT_LIMIT, small_blind=1, big_blind=2)
    s = pokerkit_state(rules, (200,) * 3)
    h = Hand(rules, (200,) * 3, deck=Deck(0))
    for _ in range(3):
        s.deal_hole(2)
    h.raise_to(7)
    s.complete_bet_or_raise_to(7)
    assert h.legal().min_to == 14  # rules PL-2
    assert s.min_completion_betting_or_raising_to_amount == 12  # TDA increment


def test_d3_short_big_blind_next_player_faces_full_blind() -> None:
    rules = Rules(small_blind=10, big_blind=20)
    stacks = (1000, 11, 1000, 1000)
    h = Hand(rules, stacks, button=3, deck=Deck(0))
    s = pokerkit_state(rules, stacks)
    for _ in range(4):
        s.deal_hole(2)
    assert h.legal().call == 20  # PokerStars: big blind all-in for 11 at 10/20, the next calls 20
    assert s.checking_or_calling_amount == 11


def test_d4_straddle_minimum_raise() -> None:
    rules = Rules(small_blind=1, big_blind=2, straddle=4)
    h = Hand(rules, (200,) * 4, button=3, deck=Deck(0))
    s = pokerkit_state(rules, (200,) * 4)
    for _ in range(4):
        s.deal_hole(2)
    assert h.legal().min_to == 8  # rules §1: twice the straddle
    assert s.min_completion_betting_or_raising_to_amount == 6


def test_d11_short_all_in_bet_does_not_reopen_for_a_checker() -> None:
    rules = Rules(small_blind=1, big_blind=2)
    stacks = (200, 200, 3)
    h = Hand(rules, stacks, button=2, deck=Deck(0))
    s = pokerkit_state(rules, stacks)
    for _ in range(3):
        s.deal_hole(2)
    for act in ("call", "call", "check"):  # button, small blind, big blind
        getattr(h, act)()
        s.check_or_call()
    s.deal_board(3)
    h.check()  # small blind
    s.check_or_call()
    h.check()  # big blind
    s.check_or_call()
    h.raise_to(1)  # the button's last chip: a bet below the big blind
    s.complete_bet_or_raise_to(1)
    assert h.actor == s.actor_index == 0
    assert h.legal().min_to is None and h.legal().no_raise == "no-reopen"  # rules §2
    assert s.min_completion_betting_or_raising_to_amount is not None  # PokerKit reopens


def test_d13_pokerkit_asks_for_a_check_nobody_can_answer() -> None:
    rules = Rules(small_blind=57, big_blind=115)
    stacks = (56, 3773, 15439, 103)  # the small blind is all-in short
    h = Hand(rules, stacks, button=3, deck=Deck(0))
    s = pokerkit_state(rules, stacks)
    for _ in range(4):
        s.deal_hole(2)
    h.fold()  # under the gun
    s.fold()
    h.call()  # the button calls all-in for 103, less than the big blind
    s.check_or_call()
    assert h.actor is None  # the big blind has nobody to bet against: no decision (rules §3)
    assert s.actor_index == 1 and s.checking_or_calling_amount == 0
    assert s.min_completion_betting_or_raising_to_amount is None


def test_d14_three_short_all_ins_reopen_for_the_bettor() -> None:
    rules = Rules(small_blind=50, big_blind=100)
    stacks = (5100, 250, 300, 330, 5100)  # A (small blind), B (big blind), C, D, E (button)
    h = Hand(rules, stacks, button=4, deck=Deck(0))
    s = pokerkit_state(rules, stacks)
    for _ in range(5):
        s.deal_hole(2)
    for _ in range(5):  # C, D, E and A call, B checks
        h.check_or_call()
        s.check_or_call()
    s.deal_board(3)
    for to in (100, 150, 200, 230):  # A bets 100; B, C and D all-in for 150, 200, 230
        h.raise_to(to)
        s.complete_bet_or_raise_to(to)
    h.call()  # E calls
    s.check_or_call()
    assert h.actor == s.actor_index == 0
    assert h.legal().min_to == 330  # rules §2, AI-2: A faces 130 more, a full raise
    assert s.min_completion_betting_or_raising_to_amount is None  # PokerKit: call or fold
