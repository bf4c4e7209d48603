"""A room table's finished hands, from its records, and the table's hand histories.

:func:`finished` finds the hands in a table's records (:meth:`EventLog.read
<tapete.room.log.EventLog.read>`): a ``start``, its ``event`` records, its ``end``. A hand that
was voided (``void``: called off after a crash, every chip back where it stood) or is still in
play (no ``end`` yet) is left out; every other kind of record is passed over. Each
:class:`Played` hand is rebuilt as a :class:`~tapete.core.hand.Hand` the way every stored
hand is: its ``start`` record's :class:`~tapete.core.setup.HandSetup` and its events folded
over it (:meth:`Hand.from_events <tapete.core.hand.Hand.from_events>`), nothing played again.

The writers give the table's hands as one player keeps them (``viewer``: a player id, or None
for someone who was dealt none of them): :func:`to_phhs` (a PHH ``.phhs`` file) and
:func:`to_pokerstars` (PokerStars text, the viewer as the hero). **Hole cards**: the viewer's
own, and another player's only where that player showed them
(:func:`tapete.core.view.events_seen`, what each person's stored hands hold too). At a table
with fair dealing the ``end`` record reveals the whole deck, and the PHH file keeps it in
``_fair_deck`` (with ``_fair_commitment`` and ``_fair_secret``), so ``tapete verify`` checks
every hand and anyone may deal the folded hands again from it; the hand itself says no more
than the table showed. **Which hands**: those the viewer was dealt into, unless ``every_hand``
(the table's host: :func:`host_of`, who keeps the game's records). A player does not read the
hands played before they sat or after they left, nor their fair decks. Pure: records in, text
out.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tapete.core import events as ev
from tapete.core import view
from tapete.core.catalog import t
from tapete.core.fair import FairDeal
from tapete.core.hand import Hand
from tapete.core.setup import HandSetup
from tapete.history import phh, pokerstars
from tapete.room.log import Record


@dataclass(frozen=True, slots=True)
class Played:
    """One finished hand of a table: its ``start`` record, its events (the JSON of
    :func:`tapete.core.events.to_json`, in order) and its ``end`` record."""

    start: Record
    events: tuple[dict[str, Any], ...]
    end: Record

    @property
    def number(self) -> int:
        """The hand's number at its table (1, 2, 3...)."""
        n: int = self.start.payload["hand_no"]
        return n

    @property
    def players(self) -> list[str]:
        """The player id of each hand seat (secret: never written out)."""
        return list(self.start.payload["players"])

    def seat_of(self, player: str | None) -> int | None:
        """``player``'s hand seat, None when they were not dealt in."""
        players = self.players
        return players.index(player) if player in players else None

    def setup(self) -> HandSetup:
        return HandSetup.from_json(self.start.payload["setup"])

    def net(self) -> list[int]:
        """Each hand seat's result: its stack at the end less its stack at the start."""
        stacks: list[int] = list(self.start.payload["setup"]["stacks"])
        ended = next((e["stacks"] for e in reversed(self.events) if e.get("type") == "Ended"),
                     stacks)
        return [a - b for a, b in zip(ended, stacks, strict=True)]

    def rake(self) -> int:
        """The chips the hand raked (its ``Raked`` events)."""
        return sum(int(e["amount"]) for e in self.events if e.get("type") == "Raked")

    def deal(self) -> FairDeal | None:
        """The hand's fair deal as its ``end`` record revealed it (None: dealt without)."""
        if "commitment" not in self.end.payload:
            return None
        return FairDeal.from_json(self.end.payload)

    def hand(self) -> Hand:
        """The hand as it was played, every card known."""
        setup = self.setup()
        return Hand.from_events(setup.rules, setup.stacks,
                                [ev.from_json(e) for e in self.events], **setup.hand_args())

    def hand_for(self, viewer: str | None) -> Hand:
        """The hand as ``viewer`` keeps it: their own hole cards, the others' where shown."""
        setup = self.setup()
        events = view.events_seen([ev.from_json(e) for e in self.events],
                                  view.Viewer.export(self.seat_of(viewer)), finished=True)
        return Hand.from_events(setup.rules, setup.stacks, events, **setup.hand_args())

    def date(self) -> str:
        """When the hand began, as PokerStars writes a date (UTC): ``2025/03/01 9:05:00 UTC``."""
        y, mo, d, h, mi, s = time.gmtime(self.start.at / 1000)[:6]
        return f"{y:04d}/{mo:02d}/{d:02d} {h}:{mi:02d}:{s:02d} UTC"


def finished(records: Sequence[Record]) -> list[Played]:
    """The finished hands of a table's records, in order (a voided hand, and the hand still in
    play, left out; records of any other kind passed over)."""
    out: list[Played] = []
    start: Record | None = None
    events: list[dict[str, Any]] = []
    for r in records:
        kind = r.kind
        if kind == "start":
            start, events = r, []
        elif kind == "event" and start is not None:
            events.append(r.payload["event"])
        elif kind == "end" and start is not None:
            out.append(Played(start, tuple(events), r))
            start = None
        elif kind == "void":
            start = None
    return out


def host_of(records: Sequence[Record]) -> str | None:
    """The table's host after ``records`` (its last ``host`` record naming one), None if none."""
    host: str | None = None
    for r in records:
        if r.kind == "host" and r.payload.get("action") == "host":
            host = r.payload.get("player")
    return host


def readable(records: Sequence[Record], viewer: str | None, every_hand: bool = False
             ) -> list[Played]:
    """The finished hands ``viewer`` may read: every one with ``every_hand``, else those they
    were dealt into."""
    return [p for p in finished(records) if every_hand or p.seat_of(viewer) is not None]


def to_phhs(records: Sequence[Record], viewer: str | None, *, table: str = "",
            seats: int = 0, every_hand: bool = False) -> str:
    """The table's finished hands as ``viewer`` keeps them, as one PHH file (``.phhs``: each
    hand under its number at the table, ``[17]``), each with its fair deal's fields;
    ``table`` and ``seats`` are the table's name and size; the hands are :func:`readable`'s.
    A hand PHH has no variant for
    (no-limit Omaha, say) is left out, and a comment at the top of the file says so, in
    English and Spanish."""
    texts: list[str] = []
    labels: list[str] = []
    notes: list[str] = []
    for played in readable(records, viewer, every_hand):
        deal = played.deal()
        try:
            texts.append(phh.dumps(played.hand_for(viewer), table=table, date=played.date(),
                                   max_seats=seats,
                                   extra=phh.fair_fields(deal) if deal is not None else None))
            labels.append(str(played.number))
        except phh.PhhError as exc:
            why = t("hand {number} is left out: it cannot be written as PHH: {why}",
                    number=played.number, why=exc.message)
            notes += [f"# {why.en}\n", f"# {why.es}\n"]
    return "".join(notes) + phh.join_hands(texts, labels)


def to_pokerstars(records: Sequence[Record], viewer: str | None, *, table: str = "tapete",
                  seats: int = 0, every_hand: bool = False) -> str:
    """The table's finished hands as ``viewer`` keeps them, as PokerStars text: each numbered
    by its hand number at the table, ``viewer`` the hero (their ``Dealt to`` line alone; a
    hand they were not dealt in has none: the hand as a spectator saw it), ``table`` and
    ``seats`` the table's name and size; the hands are :func:`readable`'s."""
    texts = []
    for played in readable(records, viewer, every_hand):
        seat = played.seat_of(viewer)
        texts.append(pokerstars.write_hand(
            played.hand_for(viewer), hand_id=str(played.number),
            hero=seat if seat is not None else pokerstars.NO_HERO, table=table,
            date=played.date(), max_seats=seats))
    return pokerstars.join_hands(texts)
