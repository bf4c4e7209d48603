"""PHH reading (the TOML subset, amounts, conventions), malformed input, and writing."""

from __future__ import annotations

import random
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tapete.core.cards import Deck, parse_cards
from tapete.core.hand import Hand
from tapete.core.rules import MinRaise, Rules, Structure
from tapete.history import phh
from tapete.history.record import FOLD, bet_or_raise
from tapete.history.replay import replay

DATA = Path(__file__).parents[1] / "data" / "phh"


def _hand(text: str) -> phh.HandRecord:
    return phh.loads(text)


NL_3 = """
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = [{actions}]
"""


def _nl(actions: str, **fmt: str) -> str:
    return NL_3.format(actions=actions, **fmt)


# ---------------------------------------------------------------------------- TOML subset

def test_parser_agrees_with_tomllib_on_the_dataset() -> None:
    files = sorted(DATA.rglob("*.phh"))[::20] + sorted(DATA.rglob("*.phhs"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        ours = phh.parse_toml(text)
        ref = tomllib.loads(text, parse_float=Decimal)
        if ours[0][0] is None:
            assert [fields for _, fields in ours] == [ref], path
        else:
            assert {name: fields for name, fields in ours} == ref, path


def test_parser_multiline_arrays_comments_tables_and_fallback() -> None:
    text = """
# a comment
[hand-1]
variant = 'NT'   # trailing comment
actions = [
  # Pre-flop
  "d dh p1 AcKd",  # Ivey
  'p1 f',
]
nested = [[1, 2], [3]]
escaped = "a \\"quoted\\" word"
when = 00:00:09
amount = 0.50
flag = true
[hand-2]
variant = "FT"
"""
    tables = phh.parse_toml(text)
    assert [name for name, _ in tables] == ["hand-1", "hand-2"]
    first = tables[0][1]
    assert first["actions"] == ["d dh p1 AcKd", "p1 f"]
    assert first["nested"] == [[1, 2], [3]]
    assert first["escaped"] == 'a "quoted" word'
    assert str(first["when"]) == "00:00:09"  # a TOML time, read by tomllib
    assert first["amount"] == Decimal("0.50") and first["flag"] is True
    assert tables[1][1] == {"variant": "FT"}


@pytest.mark.parametrize("text, where", [
    ("variant = 'NT'\nthis is not toml\n", "line 2"),
    ("variant = 'NT'\nactions = ['p1 f',\n", "never closed"),
    ("variant = 'NT'\nvariant = 'FT'\n", "given twice"),
    ("x = 'unterminated\n", "line 1"),
])
def test_bad_toml_is_a_clean_error(text: str, where: str) -> None:
    (h,) = phh.read_text(text, "bad.phh")
    assert h.record is None and h.error is not None and where in h.error.en


# ---------------------------------------------------------------------------- amounts, rules

def test_decimal_amounts_are_exact_in_the_smallest_unit() -> None:
    rec = _hand("""
variant = 'NT'
antes = [0, 0, 0.25]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [200.30, 81.6, 197]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 3.05', 'p2 f']
currency_symbol = '$'
""")
    assert rec.rules.decimals == 2 and rec.rules.currency == "$"
    assert rec.stacks == [20030, 8160, 19700]
    assert rec.blinds == [50, 100, 0] and rec.antes == [0, 0, 25]
    assert rec.rules.big_blind == 100 and rec.rules.small_blind == 50
    assert ("act", 0, bet_or_raise(305)) in rec.steps
    assert ("act", 2, FOLD) in rec.steps
    res = replay(rec)
    assert res.error is None and res.finishing_stacks == [20030 + 125, 8060, 19700 - 25]


def test_fixed_limit_bets_and_user_fields() -> None:
    rec = _hand("""
variant = 'FT'
antes = 0
blinds_or_straddles = [1, 2, 0, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100, 100]
actions = []
_bet_cap = 0
_cap_heads_up = false
_rake = 0.05
_rake_cap = 3
_no_flop_no_drop = false
_room = 'Casino'
""")
    r = rec.rules
    assert r.structure is Structure.FIXED_LIMIT and (r.small_bet, r.big_bet) == (2, 4)
    assert r.bet_cap is None and r.cap_heads_up is False
    assert (r.rake_bps, r.rake_cap, r.no_flop_no_drop) == (500, 3, False)
    assert rec.extra["_room"] == "Casino"
    res = replay(rec)
    assert res.partial and res.error is None  # no actions: a partial hand


def test_heads_up_p1_is_the_big_blind() -> None:
    """PHH heads-up: p1 big blind, p2 the button posting the small blind and acting first."""
    rec = _hand("""
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 50]
actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'p2 cbr 6', 'p1 cc', 'd db 2c3c4h', 'p1 cc',
           'p2 cbr 44', 'p1 f']
""")
    assert rec.blinds == [2, 1] and rec.button == 1
    res = replay(rec)
    assert res.error is None
    d = res.decisions
    assert (d[0].actor, d[0].call, d[0].min_to, d[0].max_to) == (1, 1, 4, 50)
    assert (d[1].actor, d[1].call, d[1].min_to) == (0, 4, 10)  # the big blind faces the raise
    assert d[2].actor == 0  # the big blind acts first after the flop
    assert res.finishing_stacks == [94, 56]


def test_pot_limit_extension_and_min_raise_rule() -> None:
    """PT (tapete's pot-limit hold'em): docs/rules.md PL-1 and PL-2, then the TDA option."""
    text = """
variant = 'PT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0]
min_bet = 2
starting_stacks = [200, 200, 200, 200]
actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'd dh p4 JsJd', 'p3 cbr 7', 'p4 f',
           'p1 f', 'p2 f']
{extra}
"""
    res = replay(_hand(text.format(extra="")))
    assert res.error is None
    d = res.decisions
    assert (d[0].call, d[0].min_to, d[0].max_to) == (2, 4, 7)  # PL-1
    assert (d[1].call, d[1].min_to, d[1].max_to) == (7, 14, 24)  # PL-2 (last-bet rule)
    rec = _hand(text.format(extra="_min_raise = 'last-raise'"))
    assert rec.rules.min_raise is MinRaise.LAST_RAISE
    assert replay(rec).decisions[1].min_to == 12  # 7 + the last raise, 5
    (bad,) = phh.read_text(text.format(extra="_min_raise = 'half'"))
    assert bad.error is not None and "_min_raise" in bad.error.en


def test_straddle_and_big_blind_ante_read_as_the_standard_says() -> None:
    rec = _hand("""
variant = 'NT'
antes = [0, 3, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'd dh p4 JsJd', 'p4 cc', 'p1 f',
           'p2 f', 'p3 cc']
""")
    assert rec.rules.straddle == 4 and rec.rules.big_blind_ante
    res = replay(rec)
    assert res.error is None and res.decisions[0].min_to == 8  # twice the straddle
    assert res.partial and res.note is not None and "board" in res.note.en


# ---------------------------------------------------------------------------- actions

def test_partial_hand_is_reported_not_an_error() -> None:
    res = replay(_hand(_nl("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'p3 cc', 'p1 cc',"
                           " 'p2 cc', 'd db 2c3c4h', 'p1 cbr 4'")))
    assert res.ok and res.partial and res.finishing_stacks is None
    assert res.note is not None and "flop with p2 to act" in res.note.en
    assert [p.amount for p in res.pots] == [10]


def test_showdown_without_show_actions_is_settled_by_the_rules() -> None:
    res = replay(_hand(_nl("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'p3 cbr 200',"
                           " 'p1 cc', 'p2 f', 'd db 2c3c4h', 'd db 9d', 'd db 8h'")))
    assert res.error is None and not res.partial
    assert res.finishing_stacks == [402, 198, 0]


def test_muck_and_show_forms() -> None:
    res = replay(_hand(_nl("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 ????', 'p3 cc', 'p1 cc',"
                           " 'p2 cc', 'd db 2c3c4h', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 9d',"
                           " 'p1 cc', 'p2 cc', 'p3 cc', 'd db 8h', 'p1 cc', 'p2 cc', 'p3 cc',"
                           " 'p1 sm -', 'p2 sm', 'p3 sm QsQd'")))
    assert res.error is None and res.finishing_stacks == [204, 198, 198]
    assert res.engine is not None and 1 in res.engine.mucked


@pytest.mark.parametrize("actions, message", [
    ("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'p3 cbr 3'",
     'action 4 "p3 cbr 3": p3 cannot raise to 3 (smallest raise: to 4'),
    ("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'p3 cbr 300'",
     "largest: all-in, to 200"),
    ("'d dh p1 AsAd', 'd dh p2 AsKd'", "As is already in play"),
    ("'d dh p1 AsXd'", "not a card"),
    ("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'p3 xx'", "unknown action 'p3 xx'"),
    ("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'p7 f'", "there is no player p7"),
    ("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'd db 2c3c4h'", "no board cards are due"),
    ("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'p3 cc', 'p1 cc', 'p2 f'",
     "cannot fold (checking is free)"),
])
def test_malformed_actions_are_clean_errors(actions: str, message: str) -> None:
    hands = phh.read_text(_nl(actions), "x.phh")
    assert len(hands) == 1
    h = hands[0]
    if h.record is None:
        assert h.error is not None and message in h.error.en
        return
    res = replay(h.record, strict=True)
    assert res.error is not None and message in res.error.en, res.error
    assert "Legal:" in res.error.en or "due" in res.error.en or "play" in res.error.en
    assert res.error.es  # the Spanish message travels with it


def test_out_of_turn_is_an_error_when_strict_and_inferred_otherwise() -> None:
    rec = _hand(_nl("'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd', 'p1 cc', 'p2 cc'"))
    strict = replay(rec, strict=True)
    assert strict.error is not None and "not p1's turn: p3 is to act" in strict.error.en
    lenient = replay(rec)
    assert lenient.error is None and lenient.inferred == ["p3 f"]


@pytest.mark.parametrize("text, message", [
    ("variant = 'NT'\n", "'starting_stacks' is missing"),
    (_nl("").replace('variant = "NT"', 'variant = "NS"'), "unsupported variant 'NS'"),
    (_nl("").replace("min_bet = 2\n", ""), "'min_bet' is missing"),
    (_nl("").replace("[200, 200, 200]", "[200, 200]"), "one amount per player"),
    (_nl("").replace("[1, 2, 0]", "[-1, 2, 0]"), "negative blinds"),
    (_nl("").replace("min_bet = 2", "min_bet = 0"), "cannot be played"),
])
def test_bad_fields_are_clean_errors(text: str, message: str) -> None:
    (h,) = phh.read_text(text)
    assert h.record is None and h.error is not None and message in h.error.en, h.error


# ---------------------------------------------------------------------------- writing

def _play(rng: random.Random, rules: Rules, stacks: list[int], deep: bool = False) -> Hand:
    n = len(stacks)
    hand = Hand(rules, stacks, button=rng.randrange(n), deck=Deck(seed=rng.randrange(10**9)),
                auto_showdown=True)
    while not hand.done:
        lg = hand.legal()
        r = rng.random()
        if lg.fold and r < 0.2:
            hand.fold()
        elif lg.min_to is not None and lg.max_to is not None and r < 0.45:
            top = lg.max_to if not deep else min(lg.max_to, lg.min_to * 2)
            hand.raise_to(rng.choice([lg.min_to, top, (lg.min_to + top) // 2]))
        else:
            hand.check_or_call()
    return hand


def _order(hand: Hand) -> list[int]:
    return [hand.stacks[(hand.button + 1 + k) % hand.n] for k in range(hand.n)]


def test_writer_round_trips_through_our_reader() -> None:
    rng = random.Random(7)
    for _ in range(150):
        structure = rng.choice(list(Structure))
        n = rng.randint(2, 9)
        kw: dict[str, object] = {}
        if rng.random() < 0.3:
            kw = {"ante": rng.choice([1, 5])}
        elif rng.random() < 0.3:
            kw = {"ante": 10, "big_blind_ante": True}
        rules = Rules(structure=structure, small_blind=5, big_blind=10,
                      decimals=rng.choice([0, 2]), currency=rng.choice(["", "$"]),
                      min_raise=rng.choice([None, MinRaise.LAST_RAISE]), **kw)
        stacks = [rng.randint(25, 3000) for _ in range(n)]
        hand = _play(rng, rules, stacks)
        text = phh.dumps(hand)
        rec = phh.loads(text)
        res = replay(rec, strict=True)
        assert res.error is None and not res.partial, text
        assert res.finishing_stacks == _order(hand) == rec.finishing_stacks, text
        assert res.engine is not None
        assert [type(e) for e in res.engine.events] == [type(e) for e in hand.events]
        assert rec.rules.min_raise == rules.min_raise
        assert phh.dumps(res.engine) == text  # a second trip writes the same text


def test_writer_output_is_read_by_pokerkit() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        structure = rng.choice([Structure.NO_LIMIT, Structure.FIXED_LIMIT])
        n = rng.randint(2, 9)
        kw: dict[str, object] = {}
        if rng.random() < 0.3:
            kw = {"ante": 2}
        elif rng.random() < 0.3:
            kw = {"ante": 10, "big_blind_ante": True}
        rules = Rules(structure=structure, small_blind=5, big_blind=10,
                      decimals=rng.choice([0, 2]), **kw)
        # deep stacks and modest raises: no all-in, so none of PokerKit's known departures
        # (short all-ins in fixed limit, raises nobody can call, its odd-chip split)
        hand = _play(rng, rules, [100_000] * n, deep=True)
        if any(len(r.winners) > 1 for r in hand.results):
            continue
        pokerkit_reads_the_same(pokerkit, hand)
        checked += 1
    assert checked >= 40


def pokerkit_reads_the_same(pokerkit: Any, hand: Hand) -> None:
    """PokerKit plays the PHH tapete writes of ``hand`` to the same finishing stacks."""
    text = phh.dumps(hand)
    state = list(pokerkit.HandHistory.loads(text))[-1]
    scale = 10**hand.rules.decimals
    assert [int(Decimal(x) * scale) for x in state.stacks] == _order(hand), text


def test_dataset_hands_round_trip_through_pokerkit() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    paths = sorted((DATA / "pokerkit-repo-d782667" / "data" / "wsop").rglob("*.phh"))
    paths += sorted((DATA / "pokerkit-repo-d782667" / "data" / "pluribus").rglob("*.phh"))[::50]
    for path in paths:
        res = replay(phh.read_file(str(path))[0].record)
        assert res.engine is not None and res.finishing_stacks is not None
        if any(p.winners is not None and len(p.winners) > 1 for p in res.pots):
            continue
        text = phh.dumps(res.engine)
        again = replay(phh.loads(text))
        assert again.finishing_stacks == res.finishing_stacks
        state = list(pokerkit.HandHistory.loads(text))[-1]
        assert list(state.stacks) == res.finishing_stacks, path


def test_writer_writes_unknown_cards_and_decimals() -> None:
    rules = Rules(small_blind=50, big_blind=100, decimals=2, currency="$")
    hand = Hand(rules, [10000, 5050])
    hand.deal_hole(0, None)
    hand.deal_hole(1, parse_cards("AsKs"))
    hand.raise_to(300)
    hand.fold()
    text = phh.dumps(hand)
    # heads-up: p1 is the big blind, the array still lists the small blind first
    assert "blinds_or_straddles = [0.50, 1.00]" in text
    assert "'d dh p1 ????'" in text and "'p2 cbr 3.00'" in text
    assert "finishing_stacks = [99.00, 51.50]" in text
    assert "currency_symbol = '$'" in text


def test_mangled_files_never_raise() -> None:
    """Random damage to real files gives error lines, never an exception."""
    from tapete.history.replay import dumps_json
    from tapete.words.account import account

    rng = random.Random(3)
    files = sorted(DATA.rglob("*.phh*"))
    texts = [p.read_text(encoding="utf-8") for p in rng.sample(files, 12)]
    for _ in range(400):
        t = rng.choice(texts)
        i = rng.randrange(len(t))
        if rng.random() < 0.5:
            t = t[:i] + t[i + rng.randint(1, 5):]
        else:
            t = t[:i] + rng.choice(["'", '"', "[", "]", ",", "=", "\n", "#", "p9", " cbr ",
                                    "0", ".", "-", "?", "sm", "x"]) + t[i:]
        for h in phh.read_text(t, "mangled.phh"):
            if h.record is None:
                assert h.error and h.error.en and h.error.es
                continue
            res = replay(h.record)
            account(res, "en")
            account(res, "es")
            dumps_json(res.to_json())
            assert res.error is None or "internal error" not in res.error.en


def test_dead_blinds_are_written_as_antes_and_restored() -> None:
    """A player coming back posts a dead small blind: PHH has no dead blinds, so the writer
    puts it in the antes (dead money either way, as PokerKit plays it) and names it in
    ``_dead_blinds``, which tapete reads back as the dead blind it was."""
    rules = Rules(small_blind=5, big_blind=10)
    hand = Hand(rules, [1000, 1000, 1000, 1000], button=3, dead=[0, 0, 5, 0],
                auto_showdown=True)
    for p, cards in enumerate(["AsAd", "KsKd", "QsQd", "JsJd"]):
        hand.deal_hole(p, parse_cards(cards))
    hand.raise_to(40)
    hand.fold()
    hand.fold()
    hand.call()
    for cards in ("2c3c4h", "9d", "8h"):
        hand.deal_board(parse_cards(cards))
        hand.check()
        hand.check()
    assert hand.done
    text = phh.dumps(hand)
    assert "antes = [0, 0, 5, 0]" in text and "_dead_blinds = [0, 0, 5, 0]" in text
    rec = phh.loads(text)
    assert rec.dead == [0, 0, 5, 0] and rec.antes == [0, 0, 0, 0]
    res = replay(rec, strict=True)
    assert res.engine is not None and res.engine.events == hand.events
    pokerkit = pytest.importorskip("pokerkit")
    state = list(pokerkit.HandHistory.loads(text))[-1]
    assert list(state.stacks) == res.finishing_stacks == list(hand.stacks)
