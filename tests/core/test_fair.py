"""Provably fair dealing (tapete.core.fair, tapete.room.shuffle): the canonical bytes and the
commitment, and the verifier against hands the engine dealt, honest or tampered with."""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from strategies import apply, pick_action
from tapete.core import events as ev
from tapete.core import fair
from tapete.core.automation import Automation
from tapete.core.cards import FULL_DECK, Deck, format_cards, parse_cards
from tapete.core.game import OMAHA
from tapete.core.hand import Hand
from tapete.core.rules import Rules, Structure
from tapete.core.view import SPECTATOR, Viewer, events_seen
from tapete.room.shuffle import shuffle

SECRET = bytes(range(32))
HOLDEM = Rules(small_blind=1, big_blind=2)
PLO = Rules(structure=Structure.POT_LIMIT, small_blind=1, big_blind=2, game=OMAHA)
# the canonical bytes of the deck in its order (2c 2d 2h 2s 3c ... As) and the secret 00..1f,
# and their SHA-256 (docs/fairness.md shows the same example)
ORDERED = ("tapete-fair-v1:2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9s"
           "TcTdThTsJcJdJhJsQcQdQhQsKcKdKhKsAcAdAhAs:"
           "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
ORDERED_COMMITMENT = "ee070279198b6e64364798db66ffd2502cde8a8578c16bb9f73e043c6811cdc3"


def played(rules: Rules, deal: fair.FairDeal, n: int = 4, seed: int = 0,
           button: int = 0) -> Hand:
    """A hand dealt from ``deal.deck``, played to its end with random legal actions, checking
    and calling more than betting so that most hands see a showdown."""
    rng = random.Random(seed)
    hand = Hand(rules, [rng.randint(40, 400) for _ in range(n)], deck=deal.deck,
                button=button, auto_showdown=True)
    while not hand.done:
        apply(hand, pick_action(rng, hand.legal()))
    return hand


def deal(seed: int) -> fair.FairDeal:
    return shuffle(Deck(seed=seed).cards(), random.Random(seed).randbytes(32))


def check(hand: Hand, d: fair.FairDeal, events: list[ev.Event] | None = None,
          **changes: object) -> fair.Verdict:
    given: dict[str, object] = {"deck": d.deck, "secret": d.secret,
                                "commitment": d.commitment, **changes}
    return fair.verify(hand.setup, hand.events if events is None else events,
                       given["deck"], given["secret"], given["commitment"])  # type: ignore[arg-type]


def showdown_hand(rules: Rules = HOLDEM, n: int = 4) -> tuple[Hand, fair.FairDeal]:
    """A hand that reaches the river with a showdown (the first seed that does)."""
    for seed in range(200):
        d = deal(seed)
        hand = played(rules, d, n, seed)
        if len(hand.board) == 5 and any(isinstance(e, ev.Shown) for e in hand.events):
            return hand, d
    raise AssertionError("no showdown in 200 hands")


# ---------------------------------------------------------------------------- the commitment

def test_the_canonical_bytes_and_the_commitment_are_as_documented() -> None:
    assert fair.canonical_bytes(FULL_DECK, SECRET) == ORDERED.encode("ascii")
    assert len(ORDERED) == len("tapete-fair-v1:") + 104 + 1 + 64
    assert fair.commitment(FULL_DECK, SECRET) == ORDERED_COMMITMENT
    assert hashlib.sha256(ORDERED.encode()).hexdigest() == ORDERED_COMMITMENT
    # every part counts: one card moved, one bit of the secret
    moved = (*FULL_DECK[1:], FULL_DECK[0])
    assert fair.commitment(moved, SECRET) != ORDERED_COMMITMENT
    assert fair.commitment(FULL_DECK, bytes([1]) + SECRET[1:]) != ORDERED_COMMITMENT
    # the deck as text, or as card texts, is the same deck
    text = fair.deck_text(FULL_DECK)
    assert fair.read_deck(text) == FULL_DECK
    assert fair.read_deck([text[i:i + 2] for i in range(0, 104, 2)]) == FULL_DECK
    assert fair.read_secret(SECRET.hex().upper()) == SECRET


def test_the_documentation_s_examples_are_true() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text("utf-8")
    assert f"printf '%s' '{ORDERED}' | sha256sum\n{ORDERED_COMMITMENT}  -" in doc
    stored = dict(re.findall(r"^(_fair_\w+) = '(\w+)'$", doc, re.M))
    assert set(stored) == {"_fair_commitment", "_fair_deck", "_fair_secret"}
    d = fair.FairDeal.make(fair.read_deck(stored["_fair_deck"]),
                           fair.read_secret(stored["_fair_secret"]))
    assert d.commitment == stored["_fair_commitment"]


@pytest.mark.parametrize(("deck", "secret", "english", "spanish"), [
    (FULL_DECK[:51], SECRET, "the deck has 51 cards, not 52", "la baraja tiene 51 cartas"),
    ((*FULL_DECK[:51], 0), SECRET, "the deck holds 2c twice", "tiene 2c dos veces"),
    ((*FULL_DECK[:51], 52), SECRET, "52 is not a card number", "no es un número de carta"),
    ("AhKd", SECRET, "the deck has 2 cards", "la baraja tiene 2 cartas"),
    ("AhXx" * 26, SECRET, "the deck cannot be read: not a card: 'Xx'", "no se puede leer"),
    (FULL_DECK, SECRET[:31], "the secret is 31 bytes long, not 32", "el secreto tiene 31"),
    (FULL_DECK, "zz" * 32, "the secret is not 32 bytes in hex", "dígitos hexadecimales"),
    (FULL_DECK, 7, "the secret cannot be read", "no se puede leer el secreto"),
])
def test_a_deck_or_secret_that_cannot_be_committed_to_is_refused(
        deck: object, secret: object, english: str, spanish: str) -> None:
    with pytest.raises(fair.FairError) as caught:
        fair.commitment(deck, secret)  # type: ignore[arg-type]
    assert english in caught.value.message.en
    assert spanish in caught.value.message.es
    with pytest.raises(fair.FairError):
        shuffle(deck, secret)  # type: ignore[arg-type]


def test_the_shuffle_draws_a_deck_and_a_secret_and_commits_to_them() -> None:
    a, b = shuffle(), shuffle()
    for d in (a, b):
        assert sorted(d.deck) == list(FULL_DECK)
        assert len(d.secret) == fair.SECRET_BYTES
        assert d.commitment == fair.commitment(d.deck, d.secret)
    assert a.deck != b.deck and a.secret != b.secret and a.commitment != b.commitment
    # a test's own deck and secret
    mine = shuffle(FULL_DECK, SECRET)
    assert mine == fair.FairDeal(ORDERED_COMMITMENT, FULL_DECK, SECRET)
    assert mine.to_json() == {"commitment": ORDERED_COMMITMENT, "deck": fair.deck_text(FULL_DECK),
                              "secret": SECRET.hex()}


# ---------------------------------------------------------------------------- the verifier

def test_the_dealing_order_is_the_engine_s() -> None:
    """Hole cards from the first player after the button, each player's cards one after the
    other, then the board street by street: what the verifier replays."""
    d = shuffle(FULL_DECK, SECRET)
    hand = Hand(HOLDEM, [100, 100, 100], deck=d.deck, button=0)
    for _ in range(3):
        hand.check_or_call()  # preflop: button, small blind, big blind
    assert [hand.hole[p] for p in (1, 2, 0)] == [(0, 1), (2, 3), (4, 5)]
    assert hand.board == [6, 7, 8]
    while not hand.done:
        hand.settle() if hand.actor is None else hand.check_or_call()
    assert hand.board == [6, 7, 8, 9, 10]
    assert check(hand, d).verified


@pytest.mark.parametrize(("rules", "n"), [
    (HOLDEM, 6), (HOLDEM, 2), (PLO, 5), (Rules(small_blind=1, big_blind=2, ante=1, straddle=4), 5),
], ids=["holdem", "heads-up", "omaha", "antes-and-straddle"])
def test_hands_dealt_from_the_committed_deck_verify(rules: Rules, n: int) -> None:
    for seed in range(25):
        d = deal(seed)
        hand = played(rules, d, n, seed, button=seed % n)
        verdict = check(hand, d)
        assert verdict == fair.Verdict(fair.Status.VERIFIED, d.commitment), (seed, verdict)
        assert verdict.text().en == "verified: the cards dealt are the committed deck's, in order"
        assert verdict.text().es.startswith("verificada")
        # the deck and the secret as a record stores them: texts
        texts = d.to_json()
        assert check(hand, d, deck=texts["deck"], secret=texts["secret"]).verified
    hole = next(e for e in hand.events if isinstance(e, ev.HoleDealt))
    assert hole.cards is not None and len(hole.cards) == rules.game.hole_cards


def test_a_board_run_twice_and_hidden_hole_cards_verify() -> None:
    d = deal(11)
    hand = Hand(HOLDEM, [100, 100, 100], deck=d.deck, automations=Automation.DEAL)
    hand.raise_to(100)
    hand.call()
    hand.call()
    assert hand.needs_runs()
    hand.set_runs(2)
    while not hand.done:
        hand.settle()
    assert len(hand.boards) == 2
    assert check(hand, d).verified
    # a player's own view: the others' hole cards unknown, their shown cards checked
    view = events_seen(hand.events, Viewer.at(0))
    assert sum(isinstance(e, ev.HoleDealt) and e.cards is None for e in view) == 2
    assert check(hand, d, view).verified


def test_a_commitment_that_is_not_the_deck_and_secret_s_is_rejected() -> None:
    hand, d = showdown_hand()
    flipped = d.commitment[:10] + ("0" if d.commitment[10] != "0" else "1") + d.commitment[11:]
    other_secret = bytes([d.secret[0] ^ 1]) + d.secret[1:]
    for verdict in (check(hand, d, commitment=flipped), check(hand, d, secret=other_secret)):
        assert verdict.status is fair.Status.REJECTED
        assert verdict.codes() == [fair.COMMITMENT]  # the cards dealt are still the deck's
        assert "the commitment does not match the deck and the secret" in verdict.text().en
        assert "el compromiso no corresponde a la baraja y el secreto" in verdict.text().es
        assert verdict.summary().en == "not verified" and verdict.summary().es == "no verificada"
    # not a digest at all
    bad = check(hand, d, commitment="not-a-digest")
    assert bad.codes() == [fair.COMMITMENT] and "64 hex digits" in bad.text().en


def test_a_deck_that_is_not_52_distinct_cards_is_rejected() -> None:
    hand, d = showdown_hand()
    twice = (*d.deck[:51], d.deck[0])
    verdict = check(hand, d, deck=twice)
    assert verdict.codes() == [fair.DECK]
    assert f"the deck holds {format_cards(d.deck[:1])} twice" in verdict.text().en
    assert check(hand, d, deck=d.deck[:40]).codes() == [fair.DECK]
    assert check(hand, d, secret="abc").codes() == [fair.SECRET]


def test_cards_dealt_out_of_the_committed_order_are_rejected() -> None:
    hand, d = showdown_hand()
    # the record's turn and river swapped: the deck and the commitment are honest
    events = list(hand.events)
    boards = [k for k, e in enumerate(events) if isinstance(e, ev.BoardDealt)]
    turn, river = (events[k] for k in boards[1:3])
    assert isinstance(turn, ev.BoardDealt) and isinstance(river, ev.BoardDealt)
    events[boards[1]] = turn._replace(cards=river.cards)
    events[boards[2]] = river._replace(cards=turn.cards)
    verdict = check(hand, d, events)
    assert verdict.status is fair.Status.REJECTED and verdict.codes() == [fair.DEALT] * 2
    t, r = format_cards(turn.cards), format_cards(river.cards)
    assert verdict.reasons[0].text.en == (
        f"the turn is {r}, but the committed deck deals {t} there (card 12 of the deck)")
    assert verdict.reasons[1].text.en == (
        f"the river is {t}, but the committed deck deals {r} there (card 13 of the deck)")
    assert verdict.reasons[0].text.es.startswith(f"el turn es {r}, pero la baraja comprometida")
    # the hole cards of two players exchanged (and shown as recorded: said once each)
    events = list(hand.events)
    holes = [k for k, e in enumerate(events) if isinstance(e, ev.HoleDealt)]
    first, second = (events[k] for k in holes[:2])
    assert isinstance(first, ev.HoleDealt) and isinstance(second, ev.HoleDealt)
    events[holes[0]] = first._replace(cards=second.cards)
    events[holes[1]] = second._replace(cards=first.cards)
    for k, e in enumerate(events):
        if isinstance(e, ev.Shown) and e.player in (first.player, second.player):
            events[k] = e._replace(cards=(second if e.player == first.player else first).cards)
    verdict = check(hand, d, events)
    assert verdict.codes() == [fair.DEALT] * 2, verdict
    who = hand.names[first.player]
    assert verdict.reasons[0].text.en.startswith(
        f"{who}'s hole cards are {format_cards(second.cards or ())}, but the committed deck deals"
        f" {format_cards(first.cards or ())} to {who} (cards ")


def test_shown_cards_a_view_did_not_know_are_checked_against_the_deck() -> None:
    hand, d = showdown_hand()
    view = events_seen(hand.events, SPECTATOR)  # nobody's hole cards
    shown = next(k for k, e in enumerate(view) if isinstance(e, ev.Shown))
    e = view[shown]
    assert isinstance(e, ev.Shown)
    unseen = next(c for c in reversed(d.deck) if c not in hand.visible_cards())
    view[shown] = e._replace(cards=(unseen, *e.cards[1:]))
    verdict = check(hand, d, view)
    assert verdict.codes() == [fair.DEALT]
    assert verdict.reasons[0].text.en.startswith(f"{hand.names[e.player]} shows ")


def test_a_record_the_deck_cannot_replay_is_rejected() -> None:
    hand, d = showdown_hand()
    events = list(hand.events)
    first_board = next(k for k, e in enumerate(events) if isinstance(e, ev.BoardDealt))
    events.insert(first_board, ev.BoardDealt(1, parse_cards("2c3c4c")))  # a flop too early
    verdict = check(hand, d, events)
    assert fair.REPLAY in verdict.codes()
    assert "cannot be played again from its setup with the revealed deck" in verdict.text().en
    # another table (three players where four played): the same
    other = replace(hand.setup, stacks=hand.setup.stacks[:3], names=hand.setup.names[:3])
    assert fair.verify(other, hand.events, d.deck, d.secret, d.commitment).status \
        is fair.Status.REJECTED


def test_no_commitment_or_no_reveal_is_never_verified() -> None:
    hand, d = showdown_hand()
    none = check(hand, d, commitment=None)
    assert none == fair.Verdict(fair.Status.NOT_COMMITTED) and not none.verified
    assert none.text().en.startswith("not committed")
    assert none.text().es.startswith("sin compromiso")
    hidden = check(hand, d, deck=None)
    assert hidden.status is fair.Status.NOT_REVEALED and not hidden.verified
    assert check(hand, d, secret=None).status is fair.Status.NOT_REVEALED
    assert hidden.text().en.startswith("committed but not revealed")


def test_many_reasons_are_counted_in_the_sentence() -> None:
    hand, d = showdown_hand()
    rotated = (*d.deck[1:], d.deck[0])  # every card one place off, and not the committed deck
    verdict = check(hand, d, deck=rotated)
    assert verdict.codes()[0] == fair.COMMITMENT and len(verdict.reasons) > 4
    more = len(verdict.reasons) - 3
    assert verdict.text().en.endswith(f"; and {more} more problems")
    assert verdict.text().es.endswith(f"; y {more} problemas más")
