"""The events of a hand. A hand is its rules, its seats and this list; every view derives from it.

Events are small frozen records. ``to_json``/``from_json`` give the form stored in databases and
sent over the wire.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .cards import Card

# Kinds of forced bet
ANTE = "ante"
SMALL_BLIND = "small blind"
BIG_BLIND = "big blind"
STRADDLE = "straddle"
DEAD = "dead"  # a dead blind: in the pot, but not part of the player's bet this street
BLIND = "blind"  # any other live blind (a missed big blind posted in turn, for example)

FOLD = "fold"
CHECK = "check"
CALL = "call"
BET = "bet"
RAISE = "raise"


@dataclass(frozen=True, slots=True)
class Posted:
    player: int
    amount: int
    kind: str
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class HoleDealt:
    player: int
    cards: tuple[Card, ...] | None  # None: dealt face down, unknown to this record


@dataclass(frozen=True, slots=True)
class BoardDealt:
    street: int  # 1 flop, 2 turn, 3 river
    cards: tuple[Card, ...]
    run: int = 0


@dataclass(frozen=True, slots=True)
class Acted:
    player: int
    action: str  # fold, check, call, bet, raise
    to: int  # the player's total for this street after the action
    added: int  # chips this action put in
    all_in: bool = False
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class Returned:
    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class RunsChosen:
    runs: int


@dataclass(frozen=True, slots=True)
class Shown:
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Mucked:
    player: int


@dataclass(frozen=True, slots=True)
class Awarded:
    pot: int  # 0 main pot, 1.. side pots
    player: int
    amount: int
    run: int = 0


@dataclass(frozen=True, slots=True)
class Raked:
    pot: int
    amount: int


@dataclass(frozen=True, slots=True)
class Ended:
    stacks: tuple[int, ...]


Event = (Posted | HoleDealt | BoardDealt | Acted | Returned | RunsChosen | Shown | Mucked
         | Awarded | Raked | Ended)
EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (Posted, HoleDealt, BoardDealt, Acted, Returned, RunsChosen, Shown, Mucked,
                Awarded, Raked, Ended)
}


def to_json(event: Event) -> dict[str, Any]:
    d = asdict(event)
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
