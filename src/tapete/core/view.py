"""The observer: what each viewer may see of a hand (``docs/rules.md``, "What each viewer sees").

One module decides it, and every view of a hand asks it: a room table's records as each
subscriber is sent them, the state a page is shown, a bot's view of its seat, a person's stored
hands and their exports, the replayer. A viewer is a :class:`Viewer`: a seat (by hand seat), a
bot (a seat's program: what that seat sees, nothing more), a spectator, the host (a host sees no
card a spectator does not, or, seated, what their seat sees), an export of a finished hand (as
one seat kept it, or someone not dealt in) and the replayer (a stored hand as its owner kept it).

The rule, one for every viewer (VW-1 to VW-5):

- a seat's own hole cards are its own to see from the moment they are dealt;
- another seat's hole cards only once that seat shows them (``Shown``: at a showdown, all-in
  with the cards face up, or a lone winner who chooses to show); a hand mucked or won unshown
  is never seen, not by a spectator, not in an export;
- a hand shown is seen by everyone, its ``HoleDealt`` too once the hand is finished (an export,
  the replayer), never before it is shown (a live record goes out when it happens);
- a bot's reason for its move tells its hand's strength: it is seen only for a hand shown.

The engine's layer: no I/O, nothing above core. The server writes what this module answers.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from tapete.core.events import Event, HoleDealt, Shown

if TYPE_CHECKING:
    from tapete.core.cards import Card
    from tapete.core.hand import Hand

__all__ = ["Kind", "Viewer", "cards_seen", "event_json_seen", "events_seen", "hole_seen",
           "reason_seen", "sees_hole", "showing", "tabled"]


class Kind(Enum):
    SEAT = "seat"  # a player, by hand seat
    BOT = "bot"  # a seat's program: what that seat sees
    SPECTATOR = "spectator"  # someone watching, not dealt in
    HOST = "host"  # the table's host: a spectator's view, or their seat's when seated
    EXPORT = "export"  # a finished hand written out for one seat (or someone not dealt in)
    REPLAYER = "replayer"  # a stored hand opened again, as its owner kept it


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks, and from which hand seat (None: not dealt in)."""

    kind: Kind
    seat: int | None = None

    @classmethod
    def at(cls, seat: int | None) -> Viewer:
        """A player at hand seat ``seat``; None: a spectator."""
        return cls(Kind.SEAT, seat) if seat is not None else SPECTATOR

    @classmethod
    def bot(cls, seat: int) -> Viewer:
        return cls(Kind.BOT, seat)

    @classmethod
    def host(cls, seat: int | None = None) -> Viewer:
        return cls(Kind.HOST, seat)

    @classmethod
    def export(cls, seat: int | None) -> Viewer:
        return cls(Kind.EXPORT, seat)

    @classmethod
    def replayer(cls, seat: int | None) -> Viewer:
        return cls(Kind.REPLAYER, seat)

    @classmethod
    def of_player(cls, player: str | None, players: Sequence[str]) -> Viewer:
        """The viewer a player id is at a hand whose player ids by hand seat are ``players``:
        their seat, or a spectator (None, or not dealt in)."""
        if player is None:
            return SPECTATOR
        for i, p in enumerate(players):
            if p == player:
                return cls(Kind.SEAT, i)
        return SPECTATOR


SPECTATOR = Viewer(Kind.SPECTATOR)


def sees_hole(viewer: Viewer, player: int, shown: bool) -> bool:
    """Whether ``viewer`` sees hand seat ``player``'s hole cards; ``shown``: that seat has
    shown them (VW-1, VW-2). Every kind of viewer answers alike from its seat."""
    return shown or (viewer.seat is not None and viewer.seat == player)


def showing(events: Iterable[Event]) -> set[int]:
    """The hand seats that showed their cards in ``events``."""
    return {e.player for e in events if type(e) is Shown}


def events_seen(events: Sequence[Event], viewer: Viewer, *, finished: bool = False,
                shown: Collection[int] = ()) -> list[Event]:
    """``events`` as ``viewer`` may have them: each ``HoleDealt`` it may not see, face down.
    ``finished``: the hand is over (an export, the replayer, a stored hand), so a hand shown
    is seen from its deal (VW-3); else (a live hand, a bot deciding) only the viewer's own
    ``HoleDealt`` keeps its cards, a later ``Shown`` telling the rest. ``shown``: the seats
    known to have shown (with ``finished``: found in ``events`` when not given)."""
    if finished and not shown:
        shown = showing(events)
    elif not finished:
        shown = ()
    return [HoleDealt(e.player, None)
            if type(e) is HoleDealt and not sees_hole(viewer, e.player, e.player in shown)
            else e for e in events]


def event_json_seen(e: dict[str, Any], viewer: Viewer, shown: bool = False) -> dict[str, Any]:
    """An event in its stored form (``tapete.core.events.to_json``) as ``viewer`` may have
    it: ``e`` itself, or a ``HoleDealt`` it may not see face down (a copy, ``cards`` None);
    ``shown``: its seat has shown them (a live record goes out before: False)."""
    if e.get("type") == "HoleDealt" and not sees_hole(viewer, e["player"], shown):
        return {**e, "cards": None}
    return e


def hole_seen(hand: Hand, viewer: Viewer, player: int) -> tuple[Card, ...] | None:
    """Hand seat ``player``'s hole cards as ``viewer`` sees them in ``hand`` as it stands,
    None when it may not (or nothing was dealt)."""
    hole = hand.hole[player]
    if hole is None or not sees_hole(viewer, player, player in hand.shown):
        return None
    return hole


def cards_seen(hand: Hand, viewer: Viewer) -> list[tuple[Card, ...] | None]:
    """Every hand seat's hole cards as ``viewer`` sees them (:func:`hole_seen`)."""
    return [hole_seen(hand, viewer, p) for p in range(hand.n)]


def tabled(hand: Hand) -> dict[int, tuple[Card, ...]]:
    """The hands shown in ``hand``, by hand seat: every viewer sees them (VW-2)."""
    return hand.shown


def reason_seen(hand: Hand, viewer: Viewer, player: int) -> bool:
    """Whether ``viewer`` is told why hand seat ``player``'s bot played as it did: a reason
    tells a hand's strength as surely as its cards, so only for a hand shown (VW-4)."""
    return player in hand.shown
