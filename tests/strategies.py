"""Random tables and random legal play, shared by the property and differential tests.

Everything here is driven by a ``random.Random`` so that a failing hand is reproduced from its
seed; the hypothesis tests draw the seed (and the table) and let hypothesis shrink them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import strategies as st

from tapete.core.automation import Automation
from tapete.core.betting import Legal
from tapete.core.cards import Deck
from tapete.core.game import GAMES, HOLDEM
from tapete.core.hand import Hand
from tapete.core.rules import MinRaise, OddChip, Rules, Structure
from tapete.core.setup import HandSetup

STRUCTURES = (Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT)


@dataclass(frozen=True)
class Table:
    """A random table: rules, stacks and the button (player index)."""

    rules: Rules
    stacks: tuple[int, ...]
    button: int


def random_stack(rng: random.Random, big_blind: int) -> int:
    """Tiny (below the blinds), short, medium or deep stacks."""
    kind = rng.random()
    if kind < 0.12:
        return rng.randint(1, 2 * big_blind)
    if kind < 0.35:
        return rng.randint(2 * big_blind, 20 * big_blind)
    if kind < 0.75:
        return rng.randint(20 * big_blind, 120 * big_blind)
    return rng.randint(120 * big_blind, 400 * big_blind)


def random_rules(
    rng: random.Random,
    structure: Structure | None = None,
    *,
    players: int = 6,
    antes: bool = True,
    straddles: bool = True,
    options: bool = True,
) -> Rules:
    """Random room rules. ``options`` also varies caps, the pot-limit minimum and the rake."""
    s = structure if structure is not None else rng.choice(STRUCTURES)
    bb = rng.choice((2, 2, 10, 20, 50, 100, rng.randint(1, 300)))
    sb = rng.choice((bb // 2, bb // 2, rng.randint(0, bb)))
    ante = 0
    bb_ante = False
    if antes and rng.random() < 0.25:
        ante = rng.randint(1, bb)
        bb_ante = rng.random() < 0.3
    straddle = 0
    if straddles and s is not Structure.FIXED_LIMIT and players > 2 and rng.random() < 0.15:
        straddle = rng.choice((2 * bb, 2 * bb, rng.randint(bb, 3 * bb)))
    kw: dict[str, object] = {}
    if options:
        if s is Structure.FIXED_LIMIT and rng.random() < 0.3:
            kw["bet_cap"] = rng.choice((None, 2, 3, 5, 6))
            kw["cap_heads_up"] = rng.random() < 0.5
        if s is Structure.POT_LIMIT:
            kw["min_raise"] = rng.choice((MinRaise.LAST_BET, MinRaise.LAST_RAISE))
        if rng.random() < 0.1:
            kw["rake_bps"] = rng.choice((500, 1000, 250))
            kw["rake_cap"] = rng.choice((None, 3 * bb))
    return Rules(structure=s, small_blind=sb, big_blind=bb, ante=ante, big_blind_ante=bb_ante,
                 straddle=straddle, **kw)  # type: ignore[arg-type]


def random_table(rng: random.Random, structure: Structure | None = None,
                 players: tuple[int, int] = (2, 10), **kw: bool) -> Table:
    n = rng.randint(*players)
    rules = random_rules(rng, structure, players=n, **kw)
    stacks = tuple(random_stack(rng, rules.big_blind) for _ in range(n))
    return Table(rules, stacks, rng.randrange(n))


def pick_action(rng: random.Random, lg: Legal) -> tuple[str, int | None]:
    """A random legal action: ("fold"|"check"|"call", None) or ("raise", to)."""
    x = rng.random()
    if lg.fold and x < 0.12:
        return "fold", None
    if lg.min_to is not None and lg.max_to is not None and x > 0.62:
        y = rng.random()
        if y < 0.35:
            to = lg.min_to
        elif y < 0.55:
            to = lg.max_to
        else:
            to = rng.randint(lg.min_to, lg.max_to)
        return "raise", to
    return ("check", None) if lg.check else ("call", None)


def apply(hand: Hand, action: tuple[str, int | None]) -> None:
    kind, to = action
    if kind == "fold":
        hand.fold()
    elif kind == "check":
        hand.check()
    elif kind == "call":
        hand.call()
    else:
        assert to is not None
        hand.raise_to(to)


@st.composite
def tables(draw: st.DrawFn, structure: Structure | None = None) -> tuple[Table, int]:
    """A random table and a seed for the deck and the actions."""
    seed = draw(st.integers(0, 2**32 - 1))
    s = draw(st.sampled_from(STRUCTURES)) if structure is None else structure
    table = random_table(random.Random(seed), s)
    return table, seed


# ---------------------------------------------------------------- rules and setups
@st.composite
def rules_st(draw: st.DrawFn) -> Rules:
    """Any rules a table may have: every field of :class:`Rules` drawn (the game too)."""
    structure = draw(st.sampled_from(list(Structure)))
    bb = draw(st.integers(1, 400))
    game = draw(st.sampled_from(list(GAMES.values())))
    return Rules(
        structure=structure, small_blind=draw(st.integers(0, bb)), big_blind=bb,
        ante=draw(st.integers(0, bb)), big_blind_ante=draw(st.booleans()),
        straddle=draw(st.sampled_from([0, bb, 2 * bb])),
        small_bet=draw(st.sampled_from([0, bb])), big_bet=draw(st.sampled_from([0, 2 * bb])),
        bet_cap=draw(st.sampled_from([None, 2, 4, 7])), cap_heads_up=draw(st.booleans()),
        min_raise=draw(st.sampled_from([None, *MinRaise])),
        odd_chip=draw(st.sampled_from(list(OddChip))),
        rake_bps=draw(st.integers(0, 10_000)), rake_cap=draw(st.sampled_from([None, 0, 3 * bb])),
        no_flop_no_drop=draw(st.booleans()), decimals=draw(st.integers(0, 3)),
        currency=draw(st.sampled_from(["", "$", "€"])),
        extra=tuple(draw(st.lists(st.tuples(st.text(max_size=5), st.text(max_size=5)),
                                  max_size=2))),
        rake_fixed=draw(st.sampled_from([None, (), (1, 0, 2)])),
        hand_cap=draw(st.sampled_from([None, 40 * bb])), game=game,
        bounty_72=draw(st.sampled_from([0, bb])) if game == HOLDEM else 0)


@st.composite
def setup_st(draw: st.DrawFn) -> HandSetup:
    """Any hand's setup: random rules (:func:`rules_st`) and every per-hand option: blinds,
    straddles, antes, dead blinds, a bomb pot, a double board."""
    rules = draw(rules_st())
    double_board = draw(st.booleans())
    game = rules.game
    most = (52 - 2 * game.board_cards) // game.hole_cards if double_board else game.max_players
    n = draw(st.integers(2, min(9, most)))
    bb = rules.big_blind
    amounts = st.lists(st.sampled_from([0, 0, 0, rules.small_blind, bb]), min_size=n, max_size=n)
    bomb = draw(st.sampled_from([0, 0, 1, bb, 5 * bb]))
    blinds = draw(amounts)
    straddles = [0] * n
    for p in draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True)):
        straddles[p] = draw(st.sampled_from([bb, 2 * bb, 4 * bb]))
        blinds[p] = 0
    antes = draw(amounts)
    if bomb:  # a bomb pot's ante is every forced bet but the dead blinds
        blinds, straddles, antes = [0] * n, [0] * n, [0] * n
    return HandSetup(
        rules, tuple(draw(st.lists(st.integers(1, 1000 * bb), min_size=n, max_size=n))),
        draw(st.integers(0, n - 1)), tuple(blinds), tuple(straddles), tuple(antes),
        tuple(draw(amounts)), tuple(draw(st.lists(st.text(max_size=8), min_size=n, max_size=n))),
        tuple(draw(st.lists(st.integers(0, 22), min_size=n, max_size=n))),
        draw(st.text(max_size=12)), bomb, double_board)


_PLAYED = Automation.DEAL | Automation.SHOW  # the run-out is chosen (once, twice...)
Choice = tuple[str, int | None]  # ("fold" | "check" | "call" | "raise", to) or ("runs", n)


def play_setup(setup: HandSetup, seed: int) -> tuple[Hand, list[Choice]]:
    """A hand dealt from ``Deck(seed)`` and played to its end with random legal actions, the
    board run once or more times (as the deck allows) when betting ends early, the showdown
    by the rules; and the choices made, for :func:`follow_setup`."""
    rng = random.Random(seed)
    hand = Hand(setup.rules, setup.stacks, deck=Deck(seed), automations=_PLAYED,
                **setup.hand_args())
    choices: list[Choice] = []
    while not hand.done:
        if hand.needs_runs():
            game = hand.rules.game
            left = 52 - hand.n * game.hole_cards - len(hand.boards[0])
            due = game.board_cards - len(hand.boards[0])
            choice: Choice = ("runs", rng.randint(1, max(1, min(3, left // due))))
        else:
            choice = pick_action(rng, hand.legal())
        choices.append(choice)
        _take(hand, choice)
    return hand, choices


def follow_setup(setup: HandSetup, seed: int, choices: list[Choice]) -> Hand:
    """The hand of ``setup`` dealt from ``Deck(seed)`` with ``choices`` made in order."""
    hand = Hand(setup.rules, setup.stacks, deck=Deck(seed), automations=_PLAYED,
                **setup.hand_args())
    for choice in choices:
        _take(hand, choice)
    return hand


def _take(hand: Hand, choice: Choice) -> None:
    if choice[0] == "runs":
        assert choice[1] is not None
        hand.set_runs(choice[1])
    else:
        apply(hand, choice)
