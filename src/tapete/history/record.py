"""A hand history in a format-neutral form, and its replay through the engine.

Every reader (PHH, PokerStars text) produces :class:`HandRecord`; :func:`replay` drives a
:class:`~tapete.core.hand.Hand` with it, so an illegal sequence in a file is reported, never
silently accepted, and every writer starts from a replayed hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tapete.core.cards import Card
from tapete.core.rules import Rules

# Steps: ("hole", player, cards | None), ("board", cards), ("act", player, "f"|"cc"|"cbr", to),
# ("show", player, cards | None), ("muck", player), ("runs", count).
# A show with None shows the cards the record already knows (unknown ones cannot settle a pot).
Step = tuple[Any, ...]


@dataclass(slots=True)
class HandRecord:
    rules: Rules
    stacks: list[int]
    steps: list[Step]
    button: int | None = None
    blinds: list[int] | None = None
    antes: list[int] | None = None
    dead: list[int] | None = None
    names: list[str] | None = None
    seats: list[int] | None = None
    hand_id: str = ""
    source: str = ""
    finishing_stacks: list[int] | None = None
    # what the file itself says about the settlement, for reconciliation (optional)
    stated_pots: list[int] | None = None
    stated_rake: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # each step as the source file wrote it (e.g. "p3 cbr 700"), when the reader keeps it
    texts: list[str] | None = None
    # each player's straddle (0: none), as Hand(straddles=...) takes them; None: the blinds
    # above the big blind are the straddles
    straddles: list[int] | None = None

    # written out (the dataclass keeps it): compiled, it costs a fifth of the generated one,
    # and a folder of hand histories makes one record a hand
    def __init__(self, rules: Rules, stacks: list[int], steps: list[Step],
                 button: int | None = None, blinds: list[int] | None = None,
                 antes: list[int] | None = None, dead: list[int] | None = None,
                 names: list[str] | None = None, seats: list[int] | None = None,
                 hand_id: str = "", source: str = "", finishing_stacks: list[int] | None = None,
                 stated_pots: list[int] | None = None, stated_rake: int | None = None,
                 extra: dict[str, Any] | None = None, texts: list[str] | None = None,
                 straddles: list[int] | None = None) -> None:
        self.rules = rules
        self.stacks = stacks
        self.steps = steps
        self.button = button
        self.blinds = blinds
        self.antes = antes
        self.dead = dead
        self.names = names
        self.seats = seats
        self.hand_id = hand_id
        self.source = source
        self.finishing_stacks = finishing_stacks
        self.stated_pots = stated_pots
        self.stated_rake = stated_rake
        self.extra = extra if extra is not None else {}
        self.texts = texts
        self.straddles = straddles


def cards_or_none(cards: Sequence[Card] | None) -> tuple[Card, ...] | None:
    return tuple(cards) if cards is not None else None
