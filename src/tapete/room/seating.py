"""A tournament's seating at a table: a part of :class:`~tapete.room.table.RoomTable`.

A tournament's table (``TableConfig.tournament``): its bankroll is the tournament's chip
account (each entrant's chips off the tables), and its coordinator alone seats and unseats
players, with exact stacks (a player moved in is ``dealt_in`` at once, TDA), and calls for
each hand at the level it gives (:meth:`Seating.deal`: one hand; the table holds after it
until the next call). Each is a ``tourney`` record, so a restore rebuilds them. A player
cannot add chips, sit out, leave, straddle, host or vote (a ``Refused``, code
``tournament``: :func:`no_tournament`). A player who is away or out of time (``absent``)
stays dealt in and posts blinds and antes, and is checked or folded at once at their turn
(the path a leaving player takes), until they act again or come back. After each hand the
table tells its policy (``TablePolicy.hand_ended``: the coordinator; never while a restore
replays). The level called and the players away are in the table's snapshot
(``tournament``).
"""

from __future__ import annotations

from typing import Any

from tapete.core.catalog import t
from tapete.room.errors import Refused
from tapete.room.log import TableConfig
from tapete.room.names import clean_name
from tapete.room.part import MOST_CHIPS, Batch, Table

# a tournament's coordinator's commands, each a ``tourney`` record
TOURNEY_ACTIONS = ("seat", "unseat", "deal", "hold")


def no_tournament(config: TableConfig) -> None:
    if config.tournament:
        raise Refused(t("at a tournament table you cannot add chips, sit out, leave,"
                        " rebuy, straddle, host or vote: the tournament seats and moves"
                        " the players"), code="tournament")


class Seating:
    def __init__(self, table: Table) -> None:
        self.t = table
        self.next_level: dict[str, Any] | None = None  # the blinds of the one hand allowed next
        self.absent: set[str] = set()  # away or out of time: checked or folded at once

    def _tournament_table(self) -> None:
        if not self.t.config.tournament:
            raise Refused(t("this is not a tournament's table"))

    def seat(self, player: str, name: str, seat: int, chips: int, dealt_in: bool) -> None:
        self._tournament_table()
        tb = self.t
        if not isinstance(player, str) or not player:
            raise Refused(t("a player is needed"))
        if tb.seat_of(player) is not None:
            raise Refused(t("you already have a seat at this table"))
        name = clean_name(name)
        if type(seat) is not int or not 0 <= seat < len(tb.table.seats) \
                or tb.table.seats[seat] is not None:
            raise Refused(t("that seat is not free"))
        if type(chips) is not int or not 0 < chips <= MOST_CHIPS:
            raise Refused(t("add a whole, positive number of chips"))
        if tb.bankroll.balance(player) < chips:
            raise Refused(t("your bankroll does not hold that many chips"))
        tb._run(self.step, {"action": "seat", "player": player, "name": name,
                            "seat": seat, "chips": chips, "dealt_in": bool(dealt_in)})

    def unseat(self, player: str) -> int:
        self._tournament_table()
        tb = self.t
        seat = tb._seated(player)
        if tb.table.player_of(seat) is not None:
            raise Refused(t("a player in the hand in play cannot be moved"))
        records = tb._run(self.step, {"action": "unseat", "player": player, "seat": seat})
        chips: int = records[-1].payload["chips"]
        return chips

    def deal(self, small_blind: int, big_blind: int, ante: int, big_blind_ante: bool,
             level: int) -> None:
        self._tournament_table()
        if not all(type(x) is int for x in (small_blind, big_blind, ante, level)) or \
                not 0 < small_blind <= big_blind or ante < 0 or level < 0:
            raise Refused(t("blinds of at least one chip, the small one no larger than the"
                            " big one"))
        self.t._run(self.step, {"action": "deal", "small_blind": small_blind,
                                "big_blind": big_blind, "ante": ante,
                                "big_blind_ante": bool(big_blind_ante), "level": level})

    def hold(self) -> None:
        self._tournament_table()
        self.t._run(self.step, {"action": "hold"})

    def piece(self) -> dict[str, Any]:
        return {"tournament": {"next_level": self.next_level, "absent": sorted(self.absent)}}

    def load(self, state: dict[str, Any]) -> None:
        self.next_level = state["tournament"]["next_level"]
        self.absent = set(state["tournament"]["absent"])

    def step(self, c: dict[str, Any], batch: Batch) -> None:
        action = c["action"]
        if action not in TOURNEY_ACTIONS:
            raise Refused(t("unknown tournament command"))
        batch.append(("tourney", c))
        if action == "seat":
            self.t._sit({"seat": c["seat"], "player": c["player"], "name": c["name"],
                         "chips": c["chips"], "wait": False}, batch, dealt_in=c["dealt_in"])
        elif action == "unseat":
            self.absent.discard(c["player"])
            self.t._empty(c["seat"], batch)
        elif action == "deal":
            self.next_level = {k: c[k] for k in ("small_blind", "big_blind", "ante",
                                                 "big_blind_ante", "level")}
        else:
            self.next_level = None
