"""The observer (``tapete.core.view``): what each viewer sees of a hand, the vectors of
docs/rules.md ("What each viewer sees") and random hands; and that it is the only place that
decides (the old private decisions are gone)."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import play_setup, setup_st
from tapete.core import events as ev
from tapete.core.cards import Card, parse_cards
from tapete.core.hand import Hand, Phase
from tapete.core.rules import Rules
from tapete.core.view import (
    SPECTATOR,
    Kind,
    Viewer,
    cards_seen,
    event_json_seen,
    events_seen,
    hole_seen,
    reason_seen,
)

AK, SEVEN_DEUCE = parse_cards("AsKs"), parse_cards("7h2d")


def heads_up() -> Hand:
    """No limit 1/2, p0 (the button) As Ks, p1 7h 2d."""
    hand = Hand(Rules(), [100, 100], button=0)
    for p, cards in ((0, AK), (1, SEVEN_DEUCE)):
        hand.deal_hole(p, cards)
    return hand


def to_the_river(hand: Hand) -> None:
    """Call the blind, then check each street down, the board dealt (2c 3d 4h, 9s, Jc)."""
    hand.call()
    hand.check()
    for cards in ("2c3d4h", "9s", "Jc"):
        hand.deal_board(parse_cards(cards))
        if hand.street < 3:
            hand.check()
            hand.check()


def every_viewer(n: int) -> list[Viewer]:
    out = [SPECTATOR, Viewer.host(), Viewer.export(None), Viewer.replayer(None)]
    for s in range(n):
        out += [Viewer.at(s), Viewer.bot(s), Viewer.host(s), Viewer.export(s),
                Viewer.replayer(s)]
    return out


def seen_after(hand: Hand, viewer: Viewer) -> list[tuple[Card, ...] | None]:
    """The hole cards of the hand rebuilt from the events as ``viewer`` keeps them."""
    setup = hand.setup
    kept = events_seen(hand.events, viewer, finished=True)
    return list(Hand.from_events(setup.rules, setup.stacks, kept, **setup.hand_args()).hole)


def test_VW_1_a_player_sees_their_own_cards_and_nobody_else_sees_any() -> None:
    hand = heads_up()
    hand.raise_to(6)
    hand.fold()
    assert hand.done and not hand.shown
    assert cards_seen(hand, Viewer.at(0)) == [AK, None]
    assert cards_seen(hand, Viewer.at(1)) == [None, SEVEN_DEUCE]
    for v in (SPECTATOR, Viewer.host(), Viewer.export(None), Viewer.replayer(None)):
        assert cards_seen(hand, v) == [None, None] == seen_after(hand, v), v
    assert cards_seen(hand, Viewer.host(1)) == [None, SEVEN_DEUCE]  # a seated host: their seat


def test_VW_2_a_hand_shown_at_the_showdown_is_seen_by_everyone() -> None:
    hand = heads_up()
    to_the_river(hand)
    hand.check()
    hand.check()
    assert hand.phase is Phase.SHOWDOWN
    for p in hand.showdown_order():
        hand.show(p)
    assert hand.done
    for v in every_viewer(2):
        assert cards_seen(hand, v) == [AK, SEVEN_DEUCE] == seen_after(hand, v), v


def test_VW_3_a_hand_won_unshown_stays_hidden_in_exports_and_the_replayer() -> None:
    hand = heads_up()
    to_the_river(hand)
    hand.check()  # p1, the big blind, first after the flop
    hand.raise_to(10)
    hand.fold()
    assert hand.done and not hand.shown
    assert seen_after(hand, Viewer.export(1)) == [None, SEVEN_DEUCE]
    assert seen_after(hand, Viewer.replayer(0)) == [AK, None]
    assert seen_after(hand, SPECTATOR) == [None, None]


def test_VW_4_all_in_hands_are_shown_to_every_viewer() -> None:
    hand = heads_up()
    hand.raise_to(100)
    hand.call()
    if hand.needs_runs():
        hand.set_runs(1)
    for cards in ("2c3d4h", "9s", "Jc"):
        hand.deal_board(parse_cards(cards))
    hand.settle()
    assert hand.done and set(hand.shown) == {0, 1}
    for v in every_viewer(2):
        assert cards_seen(hand, v) == [AK, SEVEN_DEUCE] == seen_after(hand, v), v


def test_VW_5_live_records_send_a_dealt_hole_card_face_down_and_a_shown_one_face_up() -> None:
    hand = heads_up()
    to_the_river(hand)
    hand.check()
    hand.check()
    for p in hand.showdown_order():
        hand.show(p)
    stream = [event_json_seen(ev.to_json(e), SPECTATOR) for e in hand.events]
    dealt = [e for e in stream if e["type"] == "HoleDealt"]
    assert [e["cards"] for e in dealt] == [None, None]
    shows = [ev.to_json(e) for e in hand.events if type(e) is ev.Shown]
    assert [e for e in stream if e["type"] == "Shown"] == shows and len(shows) == 2
    assert all(e["cards"] for e in shows)
    mine = [event_json_seen(ev.to_json(e), Viewer.at(0)) for e in hand.events
            if type(e) is ev.HoleDealt]
    assert [e["cards"] is not None for e in mine] == [True, False]
    # a bot deciding sees the live events: its own cards, no other
    live = events_seen(hand.events, Viewer.bot(1))
    assert [e.cards for e in live if type(e) is ev.HoleDealt] == [None, SEVEN_DEUCE]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup_st(), st.integers(0, 2**32 - 1))
def test_every_viewer_of_a_random_hand_sees_exactly_what_the_rules_say(setup: object,
                                                                      seed: int) -> None:
    hand, _ = play_setup(setup, seed)  # type: ignore[arg-type]
    assert hand.done
    for v in every_viewer(hand.n):
        now = cards_seen(hand, v)
        kept = seen_after(hand, v)
        for p in range(hand.n):
            # shown: everyone sees it, live and kept; their own: always
            if p in hand.shown or v.seat == p:
                assert now[p] == hand.hole[p] == kept[p], (v, p)
            else:  # folded, mucked, won unshown or still in: never
                assert now[p] is None and kept[p] is None, (v, p)
            assert hole_seen(hand, v, p) == now[p]
            assert reason_seen(hand, v, p) == (p in hand.shown)
        # the live events: no other seat's dealt cards, whoever showed later
        for e in events_seen(hand.events, v):
            if type(e) is ev.HoleDealt and e.player != v.seat:
                assert e.cards is None, (v, e)
    # all-in at a showdown: every hand still in is shown (and so seen)
    live = [p for p in range(hand.n) if not hand.folded[p] and p not in hand.mucked]
    if len(live) > 1 and any(hand.all_in[p] for p in live) and hand.shown:
        assert all(p in hand.shown for p in live if hand.hole[p] is not None), (live, hand.shown)


def test_a_viewer_is_known_by_its_kind_and_seat() -> None:
    assert Viewer.at(None) is SPECTATOR and Viewer.at(2) == Viewer(Kind.SEAT, 2)
    assert Viewer.of_player("b", ["a", "b"]) == Viewer(Kind.SEAT, 1)
    assert Viewer.of_player("z", ["a", "b"]) is SPECTATOR
    assert Viewer.of_player(None, ["a"]) is SPECTATOR


# ------------------------------------------------------------------ the only place that decides
SRC = Path(__file__).resolve().parents[2] / "src" / "tapete"
GONE = {"as_seen_by", "events_for"}  # the private decisions the observer replaced


def _hides_cards(node: ast.AST) -> bool:
    """A ``HoleDealt(x, None)`` made, or a dict that sets ``"cards": None``."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) \
            == "HoleDealt" and len(node.args) == 2 and isinstance(node.args[1], ast.Constant) \
            and node.args[1].value is None:
        return True
    if isinstance(node, ast.Dict):
        return any(isinstance(k, ast.Constant) and k.value == "cards"
                   and isinstance(v, ast.Constant) and v.value is None
                   for k, v in zip(node.keys, node.values, strict=True))
    return False


def decisions_outside_the_observer(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            name = getattr(node, "name", None) or getattr(node, "attr", None) \
                or getattr(node, "id", None)
            if name in GONE:
                found.append(f"{rel}: {name}")
            if rel != "core/view.py" and _hides_cards(node):
                found.append(f"{rel}:{getattr(node, 'lineno', 0)} hides hole cards itself")
    return found


def test_the_observer_is_the_only_place_that_hides_hole_cards() -> None:
    assert decisions_outside_the_observer(SRC) == []


def test_the_guard_finds_a_decision_made_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "view.py").write_text("x = HoleDealt(0, None)\n")
    (tmp_path / "mine.py").write_text(
        "def f(e, events):\n    return {**e, 'cards': None}, as_seen_by(events, 0)\n")
    assert sorted(decisions_outside_the_observer(tmp_path)) == [
        "mine.py: as_seen_by", "mine.py:2 hides hole cards itself"]
