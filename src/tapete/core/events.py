"""The events of a hand. A hand is its rules, its seats and this list; every view derives from it.

Events are small immutable records: named tuples, because a hand records one for every step
and a tuple is several times cheaper to build than a frozen dataclass (a 6-max hand records
about 30). Unlike plain tuples, two events are equal only when they are of the same type.
``to_json``/``from_json`` give the form stored in databases and sent over the wire.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from tapete.core.cards import Card

# Kinds of forced bet (Final: the compiled engine reads them as constants, not module lookups)
ANTE: Final = "ante"
SMALL_BLIND: Final = "small blind"
BIG_BLIND: Final = "big blind"
STRADDLE: Final = "straddle"
DEAD: Final = "dead"  # a dead blind: in the pot, but not part of the player's bet this street
BLIND: Final = "blind"  # any other live blind (a missed big blind posted in turn, for example)
# a bomb pot's ante (HandSetup.bomb): every player's, live like a blind everyone posts, with no
# betting before the flop (docs/rules.md, "Home games")
BOMB: Final = "bomb"

FOLD: Final = "fold"
CHECK: Final = "check"
CALL: Final = "call"
BET: Final = "bet"
RAISE: Final = "raise"

# The half of a high-low pot an award is (Awarded.half): the whole pot (every high-only game,
# and a pot that one player takes uncontested), its high half, or its low half. A high that
# scoops because nobody has a qualifying low is awarded as HIGH, the whole pot.
WHOLE: Final = ""
HIGH: Final = "high"
LOW: Final = "low"


class Posted(NamedTuple):
    player: int
    amount: int
    kind: str
    all_in: bool = False


class HoleDealt(NamedTuple):
    player: int
    cards: tuple[Card, ...] | None  # None: dealt face down, unknown to this record


class BoardDealt(NamedTuple):
    street: int  # 1 flop, 2 turn, 3 river
    cards: tuple[Card, ...]
    run: int = 0  # the run (run it twice...), or the board of a double board


class Acted(NamedTuple):
    player: int
    action: str  # fold, check, call, bet, raise
    to: int  # the player's total for this street after the action
    added: int  # chips this action put in
    all_in: bool = False
    timed_out: bool = False


class Returned(NamedTuple):
    player: int
    amount: int


class RunsChosen(NamedTuple):
    runs: int


class Shown(NamedTuple):
    player: int
    cards: tuple[Card, ...]


class Mucked(NamedTuple):
    player: int


class Awarded(NamedTuple):
    pot: int  # 0 main pot, 1.. side pots
    player: int
    amount: int
    run: int = 0
    half: str = WHOLE  # WHOLE, HIGH or LOW (a high-low game's halves: docs/rules.md section 4)


class Raked(NamedTuple):
    pot: int
    amount: int


class BountyPaid(NamedTuple):
    """``payer`` pays ``player`` the 7-2 bounty (``Rules.bounty_72``; ``amount``: what the
    payer had left, when less), after the pots are awarded (docs/rules.md, "Home games")."""

    payer: int
    player: int
    amount: int


class Ended(NamedTuple):
    stacks: tuple[int, ...]


Event = (Posted | HoleDealt | BoardDealt | Acted | Returned | RunsChosen | Shown | Mucked
         | Awarded | Raked | BountyPaid | Ended)
EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (Posted, HoleDealt, BoardDealt, Acted, Returned, RunsChosen, Shown, Mucked,
                Awarded, Raked, BountyPaid, Ended)
}


def _same(a: tuple[Any, ...], b: object) -> bool:
    return type(a) is type(b) and tuple.__eq__(a, b) is True


def _differ(a: tuple[Any, ...], b: object) -> bool:
    return not _same(a, b)


# equality by type and fields, as records compare (RunsChosen(2) is not Mucked(2)); the hash
# stays the tuple's, consistent with it (equal events have equal fields)
for _cls in EVENT_TYPES.values():
    for _name, _method in (("__eq__", _same), ("__ne__", _differ)):
        setattr(_cls, _name, _method)


def to_json(event: Event) -> dict[str, Any]:
    d = event._asdict()
    d["type"] = type(event).__name__
    for k, v in d.items():
        if isinstance(v, tuple):
            d[k] = list(v)
    return d


def from_json(data: dict[str, Any]) -> Event:
    d = dict(data)
    cls = EVENT_TYPES.get(str(d.pop("type", "")))
    if cls is None:
        raise ValueError(f"unknown event type in {data!r}")
    for k, v in d.items():
        if isinstance(v, list):
            d[k] = tuple(v)
    event: Event = cls(**d)
    return event
