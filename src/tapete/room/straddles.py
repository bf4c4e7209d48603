"""The straddles: a part of :class:`~tapete.room.table.RoomTable` (room/part.py).

A player who asks to straddle does so whenever the seat after the big blind is theirs
(re-straddling after another's, where the table allows it), until they ask not to: a
``straddle`` record each time; the table's next hand reads :attr:`Straddles.players`.
"""

from __future__ import annotations

from typing import Any

from tapete.core.catalog import t
from tapete.room.errors import Refused
from tapete.room.part import Batch, Table


class Straddles:
    def __init__(self, table: Table) -> None:
        self.t = table
        self.players: set[str] = set()  # the players who straddle when it is their seat

    def ask(self, player: str, on: bool, seat: int) -> None:
        if not self.t.config.straddle:
            raise Refused(t("this table plays no straddles"))
        if type(on) is not bool:
            raise Refused(t("true or false is needed"))
        if on == (player in self.players):
            raise Refused(t("you straddle already") if on else t("you do not straddle"))
        self.t._run(self.step, {"player": player, "seat": seat, "on": on})

    def piece(self) -> dict[str, Any]:
        return {"straddlers": sorted(self.players)}

    def load(self, state: dict[str, Any]) -> None:
        self.players = set(state["straddlers"])

    def step(self, c: dict[str, Any], batch: Batch) -> None:
        (self.players.add if c["on"] else self.players.discard)(c["player"])
        batch.append(("straddle", c))
