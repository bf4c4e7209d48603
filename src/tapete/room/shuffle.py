"""The shuffle of a real table: a deck order and a secret from the operating system's secure
randomness, with the commitment to both (provably fair dealing, :mod:`tapete.core.fair`).

:func:`shuffle` is called once before each hand: the table publishes ``deal.commitment``
before the first card, deals the hand from ``deal.deck`` (``Hand(..., deck=deal.deck)``) and
reveals ``deal.deck`` and ``deal.secret`` once the hand is over (a hand history stores all
three: :func:`tapete.history.phh.fair_fields`). The engine stays pure: the randomness is
drawn here, outside the core.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from tapete.core.cards import Card, Deck
from tapete.core.fair import SECRET_BYTES, FairDeal


def shuffle(deck: Sequence[Card] | None = None, secret: bytes | None = None) -> FairDeal:
    """A hand's deck, its secret and their commitment.

    The deck is shuffled by :class:`~tapete.core.cards.Deck` without a seed, that is with
    ``random.SystemRandom`` (the class ``secrets.SystemRandom`` is: the operating system's
    CSPRNG), and the secret is ``secrets.token_bytes(SECRET_BYTES)``. A test may pass its own
    ``deck`` (52 distinct cards, in dealing order) or ``secret`` (``SECRET_BYTES`` bytes);
    :class:`~tapete.core.fair.FairError` for one that is not."""
    cards = Deck().cards() if deck is None else deck
    key = secrets.token_bytes(SECRET_BYTES) if secret is None else secret
    return FairDeal.make(cards, key)
