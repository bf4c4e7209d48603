"""Cards as small integers, and decks that are either seeded or truly random.

Encoding (shared by the scalar and the bulk evaluator): ``card = rank * 4 + suit`` where
``rank`` is 0 for a two up to 12 for an ace and ``suit`` is 0..3 for clubs, diamonds, hearts,
spades. So ``2c`` is 0 and ``As`` is 51.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from tapete.core.catalog import t
from tapete.core.text import Text

RANKS = "23456789TJQKA"
SUITS = "cdhs"
Card = int


class CardError(ValueError):
    """A card or a list of cards that cannot be read, or a card used twice; ``message`` in
    English and Spanish (``str(exc)`` is the English)."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


def parse_card(text: str) -> Card:
    """``"Ah"`` -> 50. Rank letters in either case, ``10`` accepted for a ten."""
    word = text.strip()
    if word[:2] == "10":
        word = "T" + word[2:]
    if len(word) != 2:
        raise CardError(t("not a card: {text} (write a rank and a suit, like 'Ah' or 'Td')",
                          text=repr(text)))
    r = RANKS.find(word[0].upper())
    s = SUITS.find(word[1].lower())
    if r < 0 or s < 0:
        raise CardError(t("not a card: {text} (ranks 2-9 T J Q K A, suits c d h s)",
                          text=repr(text)))
    return r * 4 + s


def parse_cards(text: str | Iterable[str], *, unique: bool = True) -> tuple[Card, ...]:
    """``"AhKd"``, ``"Ah Kd"``, ``"Ah,Kd"`` or ``["Ah", "Kd"]`` -> a tuple of cards."""
    if isinstance(text, str):
        s = text.replace(",", " ").replace("10", "T").split()
        tokens = [tok[i : i + 2] for tok in s for i in range(0, len(tok), 2)]
    else:
        tokens = list(text)
    cards = tuple(parse_card(tok) for tok in tokens)
    if unique and len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise CardError(t("card {card} appears twice", card=format_card(dup)))
    return cards


def format_card(card: Card) -> str:
    if not 0 <= card < 52:
        raise CardError(t("not a card number: {card} (0..51)", card=str(card)))
    return RANKS[card >> 2] + SUITS[card & 3]


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    return sep.join(format_card(c) for c in cards)


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


FULL_DECK: tuple[Card, ...] = tuple(range(52))


class Deck:
    """An ordered deck dealt from the top.

    ``Deck(seed=7)`` is the same shuffle every time (tests, replays, duplicate matches);
    ``Deck()`` shuffles with the operating system's secure randomness (real play).
    ``Deck.stacked("AhKh QsQd ...")`` puts the given cards on top, in that order.
    """

    __slots__ = ("_cards", "_next")

    def __init__(self, seed: int | None = None, *, exclude: Iterable[Card] = ()) -> None:
        excluded = set(exclude)
        cards = [c for c in FULL_DECK if c not in excluded]
        if seed is None:  # the operating system's randomness (what secrets.SystemRandom is)
            random.SystemRandom().shuffle(cards)
        else:
            random.Random(seed).shuffle(cards)
        self._cards = cards
        self._next = 0

    @classmethod
    def stacked(cls, top: str | Sequence[Card], seed: int = 0) -> Deck:
        """A deck whose first cards are ``top`` (in order); the rest follow, seeded."""
        first = parse_cards(top) if isinstance(top, str) else tuple(top)
        deck = cls(seed, exclude=first)
        deck._cards = list(first) + deck._cards
        return deck

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._next

    def deal(self, n: int) -> tuple[Card, ...]:
        if n > self.remaining:
            raise CardError(t("the deck has {left} cards left, {n} were asked for",
                              left=self.remaining, n=n))
        out = tuple(self._cards[self._next : self._next + n])
        self._next += n
        return out

    def cards(self) -> tuple[Card, ...]:
        """The whole deck in dealing order (what a replay stores)."""
        return tuple(self._cards)
