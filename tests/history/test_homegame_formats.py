"""The home-game options in the hand histories: a bomb pot, a double board, the 7-2 bounty and
its payments, run it twice or three times, straddles. Each hand is written as PHH and as
PokerStars text, read back with tapete's readers and replayed: the same events (so the same
stacks and awards) as the engine's hand. A property plays random home games: every chip is
kept, and PHH gives each hand back."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from replayed import play

from strategies import apply, pick_action
from tapete.core import events as ev
from tapete.core.automation import Automation
from tapete.core.cards import parse_cards
from tapete.core.game import HOLDEM, OMAHA
from tapete.core.hand import Hand, Phase
from tapete.core.rules import Rules, Structure
from tapete.history import phh
from tapete.history import pokerstars as ps
from tapete.history.formats import read_any, replay_read
from tapete.history.record import HandRecord
from tapete.history.replay import replay

NAMES = ["Ana", "Bea", "Cy", "Dee", "Eli"]
BOUNTY = Rules(bounty_72=5)


def deal(hand: Hand, *holes: str) -> None:
    while (need := hand.needs_cards()) is not None and need[0] == "hole":
        hand.deal_hole(need[1], parse_cards(holes[need[1]]))


def board(hand: Hand, *cards: str) -> None:
    for c in cards:
        hand.deal_board(parse_cards(c))


def check_down(hand: Hand) -> None:
    while hand.phase is Phase.BETTING:
        hand.check()


# ---------------------------------------------------------------------------- the hands

def bomb_double_side_pot() -> Hand:
    """docs/rules.md DB-2 at a bounty table: a double-board bomb pot with a side pot."""
    hand = Hand(BOUNTY, [200, 5, 200], button=2, bomb=10, double_board=True, names=NAMES[:3])
    deal(hand, "AhAd", "KhKd", "QhQd")
    board(hand, "KcQs2d", "As6c4s")
    hand.raise_to(20)
    hand.call()
    board(hand, "3c", "8c")
    check_down(hand)
    board(hand, "9h", "Js")
    check_down(hand)
    hand.settle()
    return hand


def bomb_short_heads_up() -> Hand:
    """docs/rules.md BP-3, in cents: the short stack's bomb ante leaves 2 to return."""
    rules = Rules(small_blind=50, big_blind=100, decimals=2, currency="$")
    hand = Hand(rules, [20000, 800], button=1, bomb=1000, names=NAMES[:2])
    deal(hand, "AhKd", "7c2d")
    board(hand, "2c3h4s", "9d", "Js")
    hand.settle()
    return hand


def omaha_bomb_double() -> Hand:
    """A pot-limit Omaha double-board bomb pot, bet on the flop and checked down."""
    hand = Hand(Rules(Structure.POT_LIMIT, game=OMAHA), [100] * 4, button=3, bomb=5,
                double_board=True, names=NAMES[:4])
    deal(hand, "AhAdKhKd", "QhQdJhJd", "ThTd9h9d", "8h8d7h7d")
    board(hand, "2c3c4c", "2s3s4s")
    hand.raise_to(20)
    for _ in range(3):
        hand.call()
    board(hand, "5d", "6s")
    check_down(hand)
    board(hand, "Kc", "Ks")
    check_down(hand)
    hand.settle()
    return hand


def runs(times: int) -> Hand:
    """docs/rules.md RUN-1 (twice) and RUN-2 (three times)."""
    stacks = [25, 100, 200] if times == 2 else [25, 75, 200]
    hand = Hand(Rules(), stacks, button=2, names=NAMES[:3])
    deal(hand, "AhAd", "KhKd", "QsQc")
    hand.raise_to(stacks[1], 2)
    hand.call(0)
    hand.call(1)
    hand.set_runs(times)
    for run in (("2c3d9h", "Js", "Td"), ("4c5c6h", "7s", "8d"), ("Qh2d3h", "8s", "9d"))[:times]:
        board(hand, *run)
    hand.settle()
    return hand


def runs_after_the_flop() -> Hand:
    """All-in on the flop, run twice: each run deals the turn and the river."""
    hand = Hand(Rules(), [100, 100], button=1, names=NAMES[:2])
    deal(hand, "AhAd", "KhKd")
    hand.call()
    hand.check()
    board(hand, "2c3d9h")
    hand.raise_to(98)
    hand.call()
    hand.set_runs(2)
    board(hand, "Js", "Td", "Kc", "8s")
    hand.settle()
    return hand


def re_straddle() -> Hand:
    """docs/rules.md ST-2, played to the river."""
    hand = Hand(Rules(), [200] * 5, button=4, blinds=[1, 2, 0, 0, 0],
                straddles=[0, 0, 4, 8, 0], names=NAMES)
    deal(hand, "AhKd", "7c2d", "QsQh", "JcTc", "9s9d")
    hand.raise_to(20, 4)
    for p in (0, 1, 2, 3):
        hand.call(p)
    for cards in ("2c3h4s", "5d", "Kc"):
        board(hand, cards)
        check_down(hand)
    hand.settle()
    return hand


def bounty_at_the_showdown() -> Hand:
    """docs/rules.md SD-1."""
    hand = Hand(BOUNTY, [100] * 3, button=2, names=NAMES[:3])
    deal(hand, "7c2h", "KsKd", "QsQc")
    hand.fold(2)
    hand.call(0)
    hand.check(1)
    for cards in ("7d7s2c", "9h", "Jd"):
        board(hand, cards)
        check_down(hand)
    hand.settle()
    return hand


def bounty_uncontested(show: bool, stacks: tuple[int, ...] = (100, 100, 100)) -> Hand:
    """docs/rules.md SD-2 and SD-3: everyone folds to the 7-2, shown or not."""
    hand = Hand(BOUNTY, list(stacks), button=2, names=NAMES[:3])
    deal(hand, "AhAd", "KsKd", "7h2d")
    hand.raise_to(6, 2)
    hand.fold(0)
    hand.fold(1)
    if show:
        hand.show(2)
    else:
        hand.muck(2)
    return hand


def bounty_run_twice() -> Hand:
    """docs/rules.md SD-5."""
    hand = Hand(BOUNTY, [50, 100, 100], button=2, names=NAMES[:3])
    deal(hand, "7c2d", "KsKd", "QsQc")
    hand.fold(2)
    hand.raise_to(50, 0)
    hand.call(1)
    hand.set_runs(2)
    board(hand, "7h7s2c", "9h", "Jd", "3c4c8h", "Ts", "Qd")
    hand.settle()
    return hand


def two_seven_deuces() -> Hand:
    """docs/rules.md SD-6, in cents."""
    rules = Rules(small_blind=50, big_blind=100, decimals=2, currency="€", bounty_72=250)
    hand = Hand(rules, [10000, 10000, 10000], button=2, names=NAMES[:3])
    deal(hand, "7c2d", "7d2c", "QsQc")
    hand.fold(2)
    hand.call(0)
    hand.check(1)
    for cards in ("AhKhQh", "Jh", "Th"):
        board(hand, cards)
        check_down(hand)
    hand.show(0)
    hand.show(1)
    return hand


HANDS: dict[str, Callable[[], Hand]] = {
    "bomb double side pot": bomb_double_side_pot,
    "bomb short heads-up": bomb_short_heads_up,
    "omaha bomb double": omaha_bomb_double,
    "run twice": lambda: runs(2),
    "run three times": lambda: runs(3),
    "run twice from the flop": runs_after_the_flop,
    "re-straddle": re_straddle,
    "bounty at the showdown": bounty_at_the_showdown,
    "bounty shown uncontested": lambda: bounty_uncontested(True),
    "bounty not shown": lambda: bounty_uncontested(False),
    "bounty paid short": lambda: bounty_uncontested(True, (100, 5, 100)),
    "bounty run twice": bounty_run_twice,
    "two seven-deuces": two_seven_deuces,
}


def same_hand(back: Hand, hand: Hand) -> None:
    assert back.events == hand.events
    assert back.stacks == hand.stacks and back.bounty == hand.bounty
    assert (back.bomb, back.double_board) == (hand.bomb, hand.double_board)
    assert back.rules.bounty_72 == hand.rules.bounty_72
    # the table's blinds, which a bomb pot does not post
    assert (back.rules.small_blind, back.rules.big_blind) == (hand.rules.small_blind,
                                                              hand.rules.big_blind)


@pytest.mark.parametrize("name", list(HANDS))
def test_phh_gives_the_hand_back(name: str) -> None:
    hand = HANDS[name]()
    assert hand.done
    text = phh.dumps(hand)
    record = phh.loads(text)
    back = play(record)
    same_hand(back, hand)
    assert phh.dumps(back) == text
    res = replay(record)
    assert res.mismatches == [] and res.stated_stacks_agree is True


def read_stars(text: str) -> HandRecord:
    (record,) = list(ps.read_text(text, "home.txt"))
    assert isinstance(record, HandRecord), f"{record}\n{text}"
    return record


@pytest.mark.parametrize("name", list(HANDS))
def test_pokerstars_text_gives_the_hand_back(name: str) -> None:
    hand = HANDS[name]()
    text = ps.write_hand(hand)
    record = read_stars(text)
    back = play(record)
    same_hand(back, hand)
    assert ps.reconcile(record, back) == [], text
    assert ps.write_hand(back) == text


@pytest.mark.parametrize("fmt", ["phh", "pokerstars"])
def test_read_any_and_replay_read_keep_the_options(fmt: str) -> None:
    hand = bomb_double_side_pot()
    text = phh.dumps(hand) if fmt == "phh" else ps.write_hand(hand)
    (item,) = read_any(text, name="home.phh" if fmt == "phh" else "home.txt")
    assert item.record is not None and item.format == fmt
    res = replay_read(item)
    assert res.error is None and res.mismatches == [] and res.engine is not None
    same_hand(res.engine, hand)


# ---------------------------------------------------------------------------- the forms

def test_phh_writes_the_options_in_user_fields() -> None:
    text = phh.dumps(bomb_double_side_pot())
    assert "antes = [10, 10, 10]" in text and "blinds_or_straddles = [0, 0, 0]" in text
    assert "_bomb_pot = true\n" in text and "_double_board = true\n" in text
    assert "_small_blind = 1\n" in text
    assert "_bounty_72 = 5\n" in text
    text = phh.dumps(two_seven_deuces())  # in the file's units; p1 is the small blind
    assert "_bounty_72 = 2.50\n" in text
    assert "_bounty_payments = [['p3', 'p1', 2.50], ['p3', 'p2', 2.50]]\n" in text
    record = phh.loads(text)
    assert record.extra["bounty_payments"] == [(2, 0, 250), (2, 1, 250)]
    assert not any(key.startswith("_b") for key in record.extra)  # read, not kept unknown
    text = phh.dumps(runs(3))
    assert "  '# _runs 3',\n" in text and text.count("'d db ") == 9
    assert "_runs" not in phh.dumps(re_straddle())


def test_phh_keeps_a_choice_to_run_once() -> None:
    hand = Hand(Rules(), [100, 100], button=1, automations=Automation.DEAL)
    deal(hand, "AhAd", "KhKd")
    hand.raise_to(100)
    hand.call()
    assert hand.needs_runs()
    hand.set_runs(1)
    board(hand, "2c3d9h", "Js", "Td")
    hand.settle()
    text = phh.dumps(hand)
    assert "'# _runs 1'" in text
    same_hand(play(phh.loads(text)), hand)


def test_pokerstars_writes_lines_of_its_own_no_player_s_name_starts() -> None:
    hand = bomb_double_side_pot()
    text = ps.write_hand(hand)
    lines = text.splitlines()
    for line in ("Bomb pot: every player antes 10, no betting before the flop",
                 "Double board: each board wins half of every pot",
                 "7-2 bounty: 5 from every other player dealt in", "Double board",
                 "Ana: posts the ante 10", "Bea: posts the ante 5 and is all-in",
                 "*** FIRST FLOP *** [Kc Qs 2d]", "*** SECOND FLOP *** [As 6c 4s]",
                 "FIRST Board [Kc Qs 2d 3c 9h]", "SECOND Board [As 6c 4s 8c Js]"):
        assert line in lines, line
    assert "Hand was run twice" not in text and "blind" not in text
    text = ps.write_hand(two_seven_deuces())
    assert "7-2 bounty: Cy pays Ana €2.50" in text.splitlines()
    assert "Hand was run 3 times" in ps.write_hand(runs(3))


def test_a_reader_that_knows_no_home_game_passes_over_the_lines() -> None:
    """The reader reads them as table chatter when they are not tapete's exact words."""
    hand = bounty_at_the_showdown()
    text = ps.write_hand(hand).replace("7-2 bounty: 5 from every", "7-2 bounty: 5 to every")
    text = text.replace("7-2 bounty: Bea pays Ana 5\n", "")
    text = text.replace("7-2 bounty: Cy pays Ana 5\n", "")
    record = read_stars(text)
    assert record.rules.bounty_72 == 0
    back = play(record)
    assert back.stacks == [102, 98, 100]  # no bounty: the pot alone


# ---------------------------------------------------------------------------- refusals

BOMB_PHH = phh.dumps(bomb_double_side_pot())


@pytest.mark.parametrize("change", [
    ("_bomb_pot = true", "_bomb_pot = 1"),
    ("_double_board = true", "_double_board = 'yes'"),
    ("antes = [10, 10, 10]", "antes = [10, 5, 10]"),
    ("blinds_or_straddles = [0, 0, 0]", "blinds_or_straddles = [1, 2, 0]"),
    ("_bounty_72 = 5", "_bounty_72 = -5"),
    ("_small_blind = 1", "_small_blind = 'one'"),
    ("_bounty_72 = 5", "_bounty_72 = 'five'"),
    ("_bounty_72 = 5", "_bounty_payments = [['p9', 'p1', 5]]\n_bounty_72 = 5"),
    ("_bounty_72 = 5", "_bounty_payments = [['p2', 'p1']]\n_bounty_72 = 5"),
    ("_bounty_72 = 5", "_bounty_payments = 5\n_bounty_72 = 5"),
])
def test_phh_refuses_malformed_options_in_both_languages(change: tuple[str, str]) -> None:
    text = BOMB_PHH.replace(*change)
    assert text != BOMB_PHH
    (read,) = phh.read_text(text)
    assert read.record is None and read.error is not None
    assert read.error.en and read.error.es and read.error.es != read.error.en


def test_phh_refuses_the_bounty_in_omaha() -> None:
    text = phh.dumps(omaha_bomb_double()) + "_bounty_72 = 5\n"
    (read,) = phh.read_text(text)
    assert read.record is None and read.error is not None and "7-2" in read.error.es


def test_stated_payments_the_replay_does_not_make_are_reported() -> None:
    text = phh.dumps(two_seven_deuces()).replace("['p3', 'p2', 2.50]", "['p3', 'p2', 1]")
    res = replay(phh.loads(text))
    assert res.error is None and len(res.mismatches) == 1
    assert "7-2" in res.mismatches[0].en and "7-2" in res.mismatches[0].es
    text = ps.write_hand(two_seven_deuces()).replace("Cy pays Bea €2.50", "Cy pays Bea €1")
    record = read_stars(text)
    found = ps.reconcile_text(record, play(record))
    assert found and all("7-2" in m.en or "finishing" in m.en for m in found)


def test_pokerstars_refuses_a_payment_by_nobody_seated() -> None:
    text = ps.write_hand(two_seven_deuces()).replace("Cy pays Bea", "Zed pays Bea")
    (read,) = list(ps.read_text(text, "home.txt"))
    assert isinstance(read, ps.ParseError) and read.line > 0 and read.message.es


# ---------------------------------------------------------------------------- a property

def random_home_game(seed: int) -> Hand:
    """A random home game: a bomb pot or not, a double board or not, a 7-2 bounty or not
    (a seven and a deuce dealt to someone half the time), random legal play, runs chosen at
    random when asked, a lone winner showing or not at random."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    omaha = rng.random() < 0.2
    structure = Structure.POT_LIMIT if omaha else rng.choice(list(Structure))  # PHH's PO
    rules = Rules(structure, 1, 2, game=OMAHA if omaha else HOLDEM,
                  bounty_72=0 if omaha or rng.random() < 0.3 else rng.randint(1, 20),
                  rake_bps=rng.choice((0, 0, 500)), no_flop_no_drop=rng.random() < 0.5)
    stacks = [rng.choice((rng.randint(1, 12), rng.randint(12, 300))) for _ in range(n)]
    bomb = rng.choice((0, rng.randint(1, 25)))
    # the button last: PHH numbers the players so (another button only renumbers them)
    hand = Hand(rules, stacks, button=n - 1, bomb=bomb,
                double_board=rng.random() < 0.5, automations=Automation.NONE,
                names=NAMES[:n] + [f"P{k}" for k in range(5, n)])
    deck = list(range(52))
    rng.shuffle(deck)
    target = rng.randrange(n) if rules.bounty_72 and rng.random() < 0.5 else -1
    if target >= 0:  # a seven and a deuce for someone
        seven, deuce = rng.randrange(20, 24), rng.randrange(0, 4)
        deck.remove(seven)
        deck.remove(deuce)
    while not hand.done:
        if hand.phase is Phase.BETTING:
            apply(hand, pick_action(rng, hand.legal()))
        elif hand.needs_runs():
            hand.set_runs(rng.choice((1, 2, 3)))
        elif (need := hand.needs_cards()) is not None:
            kind, who, count = need
            if kind == "hole":
                cards = (seven, deuce) if who == target else tuple(deck.pop()
                                                                   for _ in range(count))
                hand.deal_hole(who, cards)
            else:
                hand.deal_board([deck.pop() for _ in range(count)])
        elif (lone := hand.lone_winner()) is not None:
            hand.show(lone) if rng.random() < 0.6 else hand.muck(lone)
        else:
            assert hand.needs_showdown() is not None
            hand.settle()
    return hand


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_random_home_games_keep_every_chip_and_round_trip_through_phh(seed: int) -> None:
    hand = random_home_game(seed)
    assert sum(hand.starting_stacks) == sum(hand.stacks) + hand.rake
    assert sum(hand.bounty) == 0
    paid = [e for e in hand.events if isinstance(e, ev.BountyPaid)]
    assert all(0 < e.amount <= hand.rules.bounty_72 for e in paid)
    assert all(e.player in hand.shown for e in paid)
    text = phh.dumps(hand)
    back = play(phh.loads(text))
    same_hand(back, hand)


def test_the_account_tells_the_bomb_the_boards_and_the_bounty_in_both_languages() -> None:
    from tapete.words.account import account

    hand = Hand(BOUNTY, [200] * 3, button=2, bomb=10, double_board=True, names=NAMES[:3])
    deal(hand, "7c2h", "KsKd", "QsQc")
    board(hand, "7d7s2c", "AhAd3c")
    for cards in (("9h", "4h"), ("Jd", "5s")):
        check_down(hand)
        board(hand, *cards)
    check_down(hand)
    hand.settle()
    assert [(e.payer, e.player) for e in hand.events if isinstance(e, ev.BountyPaid)] == [
        (1, 0), (2, 0)]
    res = replay(phh.loads(phh.dumps(hand)))
    en, es = account(res, "en"), account(res, "es")
    assert "p1 Ana posts the bomb pot's ante 10" in en
    assert "p2 Bea pays p1 Ana the 7-2 bounty, 5" in en
    assert "pone el ante del bote bomba 10" in es and "la recompensa del 7-2, 5" in es
    assert "Flop, run 2 [Ah Ad 3c]" in en and "Flop, tablero 2 [Ah Ad 3c]" in es
