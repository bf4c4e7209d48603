"""Provably fair dealing: the commitment to a hand's deck, and the check that the hand was dealt
from it.

Before a hand the server fixes the deck's order and a secret of :data:`SECRET_BYTES` random
bytes, and publishes :func:`commitment`: the SHA-256 of :func:`canonical_bytes` (the deck and
the secret in one versioned byte string). After the hand it reveals the deck and the secret.
:func:`verify` then answers, for anyone holding the hand's record, whether the revealed deck
and secret give the published commitment and whether every card the record shows is the card
the engine deals from that deck at that place. ``docs/fairness.md`` says what this proves and
what it does not.

The canonical byte string, version 1, is ASCII with no line end::

    tapete-fair-v1:<deck>:<secret>

``<deck>`` is the 52 cards in dealing order, each as its rank (``23456789TJQKA``) and its suit
(``cdhs``), with nothing between them (104 characters: ``AhKd2c...``); ``<secret>`` is the
secret's bytes in lowercase hex (64 characters). So ``printf '%s'
'tapete-fair-v1:<deck>:<secret>' | sha256sum`` gives the commitment.

The dealing order is the engine's own: :func:`verify` plays the hand again from its setup with
the revealed deck (the engine's :meth:`~tapete.core.hand.Hand.deal`, in the order
:meth:`~tapete.core.hand.Hand.needs_cards` asks for cards: every player's hole cards from the
first after the button, a player's cards one after another, then the board street by street,
each run of the board in turn) and compares what it deals with what the record says was dealt.
The engine burns no card, so the cards dealt are the deck's first ones, consecutively. Cards a
record does not know (a player's own view hides the others' hole cards) are not compared; any
it shows later (at the showdown) are.

Pure, as the rest of the core: the deck and the secret are given (``tapete.room.shuffle`` makes
them for real play).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, NamedTuple

from tapete.core import events as ev
from tapete.core.actions import SIZED, Action
from tapete.core.automation import Automation
from tapete.core.cards import Card, CardError, format_card, format_cards, parse_cards
from tapete.core.catalog import t, tn
from tapete.core.errors import HandError
from tapete.core.events import Event
from tapete.core.game import DECK_SIZE
from tapete.core.hand import Hand, street_name
from tapete.core.setup import HandSetup
from tapete.core.text import Text

VERSION: Final = 1
TAG: Final = b"tapete-fair-v1"
SECRET_BYTES: Final = 32
DIGEST_CHARS: Final = 64  # a SHA-256 digest in hex
_HEX: Final = frozenset("0123456789abcdef")
_SAID: Final = 3  # the reasons a verdict's sentence says (the others are counted)


class FairError(ValueError):
    """A deck, a secret or a commitment that cannot be used; ``message`` in English and
    Spanish (``str(exc)`` is the English)."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


# ---------------------------------------------------------------------------- the commitment

def read_deck(deck: object) -> tuple[Card, ...]:
    """A deck given as its cards (numbers 0..51), as text (``"AhKd..."``, as
    :func:`deck_text` writes it) or as a list of card texts -> its cards; :class:`FairError`
    unless it is the 52 cards of a deck, each once."""
    if isinstance(deck, str):
        cards = _parse_deck(deck)
    elif isinstance(deck, Sequence) and not isinstance(deck, (bytes, bytearray)):
        items = list(deck)
        if items and all(isinstance(c, str) for c in items):
            cards = _parse_deck([str(c) for c in items])
        else:
            numbers: list[Card] = []
            for c in items:
                if type(c) is not int or not 0 <= c < DECK_SIZE:
                    raise FairError(t("the deck cannot be read: {card} is not a card number"
                                      " (0..51)", card=_short(c)))
                numbers.append(c)
            cards = tuple(numbers)
    else:
        raise FairError(t("the deck cannot be read: it is neither cards nor a text of cards"))
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise FairError(t("the deck holds {card} twice: it is not 52 distinct cards",
                              card=format_card(c)))
        seen.add(c)
    if len(cards) != DECK_SIZE:
        raise FairError(t("the deck has {n} cards, not 52", n=len(cards)))
    return cards


def _parse_deck(text: str | list[str]) -> tuple[Card, ...]:
    try:
        return parse_cards(text, unique=False)
    except CardError as exc:
        raise FairError(t("the deck cannot be read: {why}", why=exc.message)) from None


def read_secret(secret: object) -> bytes:
    """A secret given as its bytes or as their hex text -> the bytes; :class:`FairError`
    unless it is :data:`SECRET_BYTES` bytes."""
    if isinstance(secret, str):
        text = secret.strip().lower()
        if len(text) != 2 * SECRET_BYTES or not _HEX.issuperset(text):
            raise FairError(t("the secret is not {size} bytes in hex ({digits} hex digits):"
                              " {secret}", size=SECRET_BYTES, digits=2 * SECRET_BYTES,
                              secret=_short(secret)))
        return bytes.fromhex(text)
    if isinstance(secret, (bytes, bytearray)):
        if len(secret) != SECRET_BYTES:
            raise FairError(t("the secret is {n} bytes long, not {size}", n=len(secret),
                              size=SECRET_BYTES))
        return bytes(secret)
    raise FairError(t("the secret cannot be read: it is neither bytes nor hex text"))


def read_commitment(commitment: object) -> str:
    """A published commitment -> its lowercase hex; :class:`FairError` unless it is a
    SHA-256 digest in hex."""
    text = commitment.strip().lower() if isinstance(commitment, str) else ""
    if len(text) != DIGEST_CHARS or not _HEX.issuperset(text):
        raise FairError(t("the published commitment is not a SHA-256 digest in hex"
                          " ({digits} hex digits): {commitment}", digits=DIGEST_CHARS,
                          commitment=_short(commitment)))
    return text


def deck_text(deck: Sequence[Card]) -> str:
    """The deck as the canonical string writes it: ``"AhKd2c..."``."""
    return format_cards(deck)


def canonical_bytes(deck: Sequence[Card], secret: bytes) -> bytes:
    """The bytes the commitment is the SHA-256 of (version 1, see the module's docstring):
    ``b"tapete-fair-v1:" + deck + b":" + secret in hex``. :class:`FairError` for a deck that
    is not 52 distinct cards or a secret that is not :data:`SECRET_BYTES` bytes."""
    return _canonical(read_deck(deck), read_secret(secret))


def commitment(deck: Sequence[Card], secret: bytes) -> str:
    """The commitment to ``deck`` and ``secret``: the SHA-256 of :func:`canonical_bytes`, in
    lowercase hex (what is published before the hand)."""
    return _digest(read_deck(deck), read_secret(secret))


def _canonical(cards: tuple[Card, ...], key: bytes) -> bytes:
    return b"%s:%s:%s" % (TAG, deck_text(cards).encode("ascii"), key.hex().encode("ascii"))


def _digest(cards: tuple[Card, ...], key: bytes) -> str:
    return hashlib.sha256(_canonical(cards, key)).hexdigest()


@dataclass(frozen=True, slots=True)
class FairDeal:
    """A hand's deck, its secret and the commitment to both: what the server keeps while the
    hand is played (the commitment alone is published) and reveals after it.
    :meth:`make` computes the commitment; the constructor takes one as given (a record's)."""

    commitment: str
    deck: tuple[Card, ...]
    secret: bytes

    @staticmethod
    def make(deck: Sequence[Card], secret: bytes) -> FairDeal:
        """The deck and the secret with their commitment (:class:`FairError` for a bad one)."""
        cards = read_deck(deck)
        key = read_secret(secret)
        return FairDeal(_digest(cards, key), cards, key)

    def to_json(self) -> dict[str, str]:
        """The three as texts: the commitment and the secret in hex, the deck as
        :func:`deck_text` (how a hand history stores them)."""
        return {"commitment": self.commitment, "deck": deck_text(self.deck),
                "secret": self.secret.hex()}

    @staticmethod
    def from_json(texts: object) -> FairDeal:
        """:meth:`to_json`'s three texts -> the deal, the commitment taken as given (not
        computed again: :func:`verify` checks it); :class:`FairError` for one that cannot be
        read."""
        got = texts if isinstance(texts, dict) else {}
        return FairDeal(read_commitment(got.get("commitment")), read_deck(got.get("deck")),
                        read_secret(got.get("secret")))


# ---------------------------------------------------------------------------- the verdict

class Status(StrEnum):
    VERIFIED = "verified"  # the commitment matches, and every card shown is the deck's
    REJECTED = "rejected"  # something does not: the reasons say what
    NOT_COMMITTED = "not-committed"  # the hand carries no commitment
    NOT_REVEALED = "not-revealed"  # a commitment, but the deck or the secret is not given


class Reason(NamedTuple):
    """Why a hand does not verify: ``code`` for a program (``commitment``, ``deck``,
    ``secret``, ``dealt``, ``replay``) and ``text`` for a person."""

    code: str
    text: Text


# the reasons' codes
COMMITMENT: Final = "commitment"  # not a digest, or not the deck and secret's
DECK: Final = "deck"  # not 52 distinct cards
SECRET: Final = "secret"  # not SECRET_BYTES bytes
DEALT: Final = "dealt"  # a card the record shows is not the deck's card at its place
REPLAY: Final = "replay"  # the hand cannot be played again from its setup and the deck


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer of :func:`verify`: ``status``, the published ``commitment`` (None: none) and
    the ``reasons`` a hand is rejected (empty otherwise)."""

    status: Status
    commitment: str | None = None
    reasons: tuple[Reason, ...] = ()

    @property
    def verified(self) -> bool:
        return self.status is Status.VERIFIED

    def codes(self) -> list[str]:
        return [r.code for r in self.reasons]

    def summary(self) -> Text:
        """The verdict without its reasons ("not verified"; the others as :meth:`text`)."""
        return t("not verified") if self.status is Status.REJECTED else self.text()

    def text(self) -> Text:
        """The verdict in one sentence, the reasons included."""
        s = self.status
        if s is Status.VERIFIED:
            return t("verified: the cards dealt are the committed deck's, in order")
        if s is Status.NOT_COMMITTED:
            return t("not committed: the hand carries no commitment to its deck")
        if s is Status.NOT_REVEALED:
            return t("committed but not revealed: the deck and the secret are not given")
        shown = [r.text for r in self.reasons[:_SAID]]
        more = len(self.reasons) - len(shown)
        if more:
            shown.append(tn("and {n} more problem", "and {n} more problems", more))
        return t("not verified: {why}", why=Text.join(shown, "; "))


def verify(setup: HandSetup, events: Sequence[Event], deck: Sequence[Card] | str | None,
           secret: bytes | str | None, commitment: str | None) -> Verdict:
    """Whether the hand of ``setup`` and ``events`` was dealt from the committed deck.

    ``commitment`` is the one published before the hand (None: the hand has none);
    ``deck`` and ``secret`` are what was revealed after it, as values (cards, bytes) or as the
    texts a record stores them in (:meth:`FairDeal.to_json`); None: not revealed. The hand
    verifies when the commitment is a SHA-256 digest, the deck is 52 distinct cards, the
    secret :data:`SECRET_BYTES` bytes, the commitment is theirs (:func:`commitment`) and every
    card the events show dealt (hole cards, each street of the board, each run) or shown is
    the card the engine deals from the deck at that place. Every problem found is a
    :class:`Reason`, in both languages: nothing is raised for a bad deck, secret or
    commitment, nor for events the deck cannot replay."""
    if commitment is None:
        return Verdict(Status.NOT_COMMITTED)
    try:
        published = read_commitment(commitment)
    except FairError as exc:
        return Verdict(Status.REJECTED, str(commitment), (Reason(COMMITMENT, exc.message),))
    if deck is None or secret is None:
        return Verdict(Status.NOT_REVEALED, published)
    reasons: list[Reason] = []
    cards: tuple[Card, ...] | None = None
    key: bytes | None = None
    try:
        cards = read_deck(deck)
    except FairError as exc:
        reasons.append(Reason(DECK, exc.message))
    try:
        key = read_secret(secret)
    except FairError as exc:
        reasons.append(Reason(SECRET, exc.message))
    if cards is not None and key is not None:
        actual = _digest(cards, key)
        if actual != published:
            reasons.append(Reason(COMMITMENT, t(
                "the commitment does not match the deck and the secret: they give {actual},"
                " the published commitment is {published}", actual=actual,
                published=published)))
    if cards is not None:
        reasons.extend(dealing_problems(setup, events, cards))
    if reasons:
        return Verdict(Status.REJECTED, published, tuple(reasons))
    return Verdict(Status.VERIFIED, published)


def dealing_problems(setup: HandSetup, events: Sequence[Event],
                     deck: Sequence[Card]) -> list[Reason]:
    """Where the cards ``events`` show dealt differ from what the engine deals from ``deck``
    (52 distinct cards) for the hand of ``setup``: the hand played again with the deck, its
    dealing left to :meth:`Hand.deal <tapete.core.hand.Hand.deal>`, every other step taken
    from the events (empty: every card shown is the deck's at its place)."""
    position = {c: k for k, c in enumerate(deck)}
    try:
        hand = Hand(setup.rules, setup.stacks, deck=deck, automations=Automation.RUN_ONCE,
                    **setup.hand_args())
    except HandError as exc:
        return [_cannot_replay(exc.message)]
    out: list[Reason] = []
    wrong: dict[int, list[Card]] = {}  # the hole cards already reported, as recorded

    def places(cards: Sequence[Card]) -> Text:
        first, last = position[cards[0]] + 1, position[cards[-1]] + 1
        if first == last:
            return t("card {first} of the deck", first=first)
        return t("cards {first} to {last} of the deck", first=first, last=last)

    try:
        for e in events:
            kind = type(e)
            if kind is ev.Posted or kind is ev.Returned or kind is ev.Awarded \
                    or kind is ev.Raked or kind is ev.Ended:
                continue  # the engine takes these steps by itself
            _deal_hole_cards(hand)
            if kind is ev.HoleDealt:
                assert isinstance(e, ev.HoleDealt)
                dealt = hand.hole[e.player]
                if e.cards is not None and dealt is not None and tuple(e.cards) != dealt:
                    who = hand.names[e.player]
                    wrong[e.player] = sorted(e.cards)
                    out.append(Reason(DEALT, t(
                        "{who}'s hole cards are {recorded}, but the committed deck deals"
                        " {dealt} to {who} ({where})", who=who, recorded=format_cards(e.cards),
                        dealt=format_cards(dealt), where=places(dealt))))
            elif kind is ev.BoardDealt:
                assert isinstance(e, ev.BoardDealt)
                need = hand.needs_cards()
                if need is None or need[0] != "board" or need[1] != e.run \
                        or need[2] != len(e.cards):
                    return [*out, _cannot_replay(t(
                        "the record deals {cards} where the engine deals no such board cards",
                        cards=format_cards(e.cards)))]
                street = street_name(hand.board_street(e.run))
                hand.deal()
                last = hand.events[-1]
                assert isinstance(last, ev.BoardDealt)
                if tuple(e.cards) != last.cards:
                    out.append(Reason(DEALT, t(
                        "the {street} is {recorded}, but the committed deck deals {dealt}"
                        " there ({where})", street=street, recorded=format_cards(e.cards),
                        dealt=format_cards(last.cards), where=places(last.cards))))
            elif kind is ev.Acted:
                assert isinstance(e, ev.Acted)  # the recorded action, checked by the engine
                hand.apply(Action(e.action, e.to if e.action in SIZED else None), e.player)
            elif kind is ev.RunsChosen:
                assert isinstance(e, ev.RunsChosen)
                hand.set_runs(e.runs)
            elif kind is ev.Shown:
                assert isinstance(e, ev.Shown)
                dealt = hand.hole[e.player]
                if dealt is not None and sorted(e.cards) != sorted(dealt) \
                        and wrong.get(e.player) != sorted(e.cards):  # said once is enough
                    who = hand.names[e.player]
                    out.append(Reason(DEALT, t(
                        "{who} shows {recorded}, but the committed deck deals {dealt} to {who}"
                        " ({where})", who=who, recorded=format_cards(e.cards),
                        dealt=format_cards(dealt), where=places(dealt))))
                hand.show(e.player)
            elif kind is ev.Mucked:
                assert isinstance(e, ev.Mucked)
                hand.muck(e.player)
    except HandError as exc:
        out.append(_cannot_replay(exc.message))
    return out


def _deal_hole_cards(hand: Hand) -> None:
    """Every hole card due, from the deck, in the engine's order (before the first step of the
    hand that is not a forced bet: nothing else happens before the deal)."""
    need = hand.needs_cards()
    while need is not None and need[0] == "hole":
        hand.deal()
        need = hand.needs_cards()


def _cannot_replay(why: Text) -> Reason:
    return Reason(REPLAY, t("the hand cannot be played again from its setup with the revealed"
                            " deck: {why}", why=why))


def _short(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
