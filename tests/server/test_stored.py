"""A hand the practice table stores comes back as it was: every rule, the whole setup, the
events; and rows stored before the setup was one codec still read."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import apply, pick_action, setup_st
from tapete.core import events as ev
from tapete.core.cards import Deck
from tapete.core.hand import Hand
from tapete.core.rules import MinRaise, Rules, Structure
from tapete.core.setup import HandSetup
from tapete.server.storage import HandRow, Storage
from tapete.server.stored import rebuild, setup_of, stored_setup


def played(setup: HandSetup, seed: int) -> Hand:
    rng = random.Random(seed)
    hand = Hand.from_setup(setup, Deck(seed), auto_showdown=True)
    while not hand.done:
        apply(hand, pick_action(rng, hand.legal()))
    return hand


def played_hand(rules: Rules, stacks: list[int], seed: int, hand_id: str) -> Hand:
    return played(Hand(rules, stacks, button=0, hand_id=hand_id).setup, seed)


def store(storage: Storage, hand: Hand, you: int | None = 0) -> HandRow:
    pid = storage.new_player().id
    stack = hand.starting_stacks[0]
    # the chips the player brought (the starting bankroll and what was won elsewhere)
    assert storage.move(pid, "adjust", 0, stack) is not None
    row = HandRow(hand_id=f"{pid}-{hand.hand_id}", player_id=pid, session="s", number=1,
                  played_at=0.0, rules=hand.rules.to_json(), setup=stored_setup(hand, you),
                  events=[ev.to_json(e) for e in hand.events], net=hand.net()[0], summary={})
    storage.save_hand(row)
    got = storage.get_hand(pid, row.hand_id)
    assert got is not None
    return got


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(setup_st(), st.integers(0, 2**31))
def test_a_stored_hand_keeps_its_setup_and_events(tmp_path: Path, setup: HandSetup,
                                                  seed: int) -> None:
    hand = played(setup, seed)
    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite3'}")
    try:
        row = store(storage, hand)
        assert setup_of(row) == hand.setup == setup
        again = rebuild(row, for_player=False)
        assert again.events == hand.events and again.stacks == hand.stacks
        assert Rules.from_json(row.rules) == setup.rules
    finally:
        storage.close()


def test_rules_the_practice_table_used_to_drop_come_back(tmp_path: Path) -> None:
    """Straddle, rake, the minimum-raise rule and the big-blind ante were lost on the way to
    the database; now every field returns."""
    rules = Rules(structure=Structure.POT_LIMIT, small_blind=1, big_blind=2, ante=2,
                  big_blind_ante=True, straddle=4, min_raise=MinRaise.LAST_RAISE, rake_bps=500,
                  rake_cap=6, decimals=2, currency="€")
    hand = played_hand(rules, [400, 300, 500, 250], 7, "x")
    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite3'}")
    try:
        row = store(storage, hand)
        assert Rules.from_json(row.rules) == rules
        assert rebuild(row, for_player=False).events == hand.events
    finally:
        storage.close()


def test_a_row_stored_before_the_setup_codec_still_reads(tmp_path: Path) -> None:
    rules = Rules(structure=Structure.NO_LIMIT, small_blind=1, big_blind=2)
    hand = played_hand(rules, [200, 200, 200], 3, "old")
    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite3'}")
    try:
        row = store(storage, hand)
        # the old form: a few rules, the setup without straddles
        row.rules = {"structure": "no-limit", "small_blind": 1, "big_blind": 2, "small_bet": 0,
                     "big_bet": 0, "ante": 0, "decimals": 0, "currency": ""}
        row.setup = {"stacks": [200, 200, 200], "button": 0, "blinds": list(hand.blinds),
                     "antes": [0, 0, 0], "dead": [0, 0, 0], "names": list(hand.names),
                     "seats": list(hand.seats), "hand_id": "old", "you": 0}
        again = rebuild(row, for_player=False)
        assert again.events == hand.events and again.rules == rules
        mine = rebuild(row)  # the player's view: the others' unshown cards hidden
        assert mine.hole[0] == hand.hole[0]
    finally:
        storage.close()


def test_the_practice_table_stores_its_rules_and_setup_unchanged(tmp_path: Path) -> None:
    """Hands played at the practice table, read back from its database: the rules are the
    table's, field for field, and each hand rebuilds to the stored result."""
    from test_server import play_three_hands, settings

    from tapete.server.app import create_app
    from tapete.server.game import make_rules

    play_three_hands(create_app(settings(tmp_path)))
    storage = Storage(f"sqlite:///{tmp_path / 'tapete.sqlite3'}")
    try:
        with storage.engine.connect() as conn:
            pid = next(iter(conn.exec_driver_sql("SELECT id FROM tapete_players")))[0]
        rows = storage.list_hands(pid)
        assert len(rows) >= 3
        for row in rows:
            assert Rules.from_json(row.rules) == make_rules("nl", 0)  # the lobby's default
            setup = setup_of(row)
            assert setup.rules == make_rules("nl", 0) and setup.hand_id == row.hand_id
            hand = rebuild(row, for_player=False)
            assert hand.done and hand.net()[row.setup["you"]] == row.net
    finally:
        storage.close()
