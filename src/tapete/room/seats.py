"""The seats' commands and records: a part of :class:`~tapete.room.table.RoomTable`.

Who sits where is the table's (``players``, ``leaving``, each player's time banks and hands
dealt, and the engine's seats); this part checks the commands that change it (a seat, chips
added, sitting out and in, leaving: each refused in words, having changed nothing) and
builds their records: ``sat``, ``chips``, ``sit_out``, ``sit_in``, ``leave``, ``left`` (the
seat emptied, its chips back to the bankroll) and ``stack`` (a stack the host set). At a
host's table that approves them, a seat or chips are asked of the host instead
(room/host.py).
"""

from __future__ import annotations

from typing import Any

from tapete.core.catalog import t
from tapete.core.errors import HandError
from tapete.room.errors import Refused
from tapete.room.names import clean_name
from tapete.room.part import POST, PRE, Batch, Table
from tapete.room.seating import no_tournament


class Seats:
    def __init__(self, table: Table) -> None:
        self.t = table

    # ------------------------------------------------------------------ commands
    def sit(self, player: str, name: str, buy_in: int, seat: int | None,
            wait_for_big_blind: bool) -> int | None:
        tb = self.t
        if not isinstance(player, str) or not player:
            raise Refused(t("a player is needed"))
        no_tournament(tb.config)
        if tb.over:
            raise Refused(t("the host has ended the game"))
        if player in tb.kicked:
            raise Refused(t("the host has removed you from this table"))
        if tb.seat_of(player) is not None:
            raise Refused(t("you already have a seat at this table"))
        name = clean_name(name)
        if any(s is not None and s.name.casefold() == name.casefold()
               for s in tb.table.seats):
            raise Refused(t("the name {name} is taken at this table", name=repr(name)))
        free = [i for i, s in enumerate(tb.table.seats) if s is None]
        if not free:
            raise Refused(t("the table is full"))
        if seat is None:
            seat = free[0]
        elif type(seat) is not int or seat not in free:
            raise Refused(t("that seat is not free"))
        c = tb.config
        if type(buy_in) is not int or not c.min_buy_in <= buy_in <= c.max_buy_in:
            raise Refused(t("a buy-in is {smallest} to {largest} chips",
                            smallest=str(c.min_buy_in), largest=str(c.max_buy_in)))
        if tb.bankroll.balance(player) < buy_in:
            raise Refused(t("your bankroll does not hold that many chips"))
        command = {"seat": seat, "player": player, "name": name, "chips": buy_in,
                   "wait": bool(wait_for_big_blind)}
        if tb.hosting.asks(player):
            if any(r["player"] == player and r["kind"] == "seat" for r in tb.requests.values()):
                raise Refused(t("you have asked for a seat already: the host will answer"))
            if any(r["kind"] == "seat" and r["name"].casefold() == name.casefold()
                   for r in tb.requests.values()):
                raise Refused(t("the name {name} is taken at this table", name=repr(name)))
            tb.hosting.request({"kind": "seat", **command})
            return None
        tb._run(self.sit_step, command)
        return seat

    def add_chips(self, player: str, amount: int) -> int:
        tb = self.t
        seat = tb._seated(player)
        no_tournament(tb.config)
        if type(amount) is not int or amount <= 0:
            raise Refused(t("add a whole, positive number of chips"))
        s = tb.table.seats[seat]
        assert s is not None
        if s.chips + s.pending_chips >= tb.config.max_buy_in:
            raise Refused(t("you already have the table maximum"))
        if tb.bankroll.balance(player) < amount:
            raise Refused(t("your bankroll does not hold that many chips"))
        if tb.over:
            raise Refused(t("the host has ended the game"))
        if tb.hosting.asks(player):
            if any(r["player"] == player for r in tb.requests.values()):
                raise Refused(t("you have asked for chips already: the host will answer"))
            tb.hosting.request({"kind": "chips", "seat": seat, "player": player,
                                "chips": amount})
            return 0
        records = tb._run(self.chips_step, {"seat": seat, "player": player, "asked": amount})
        taken: int = records[0].payload["taken"]
        return taken

    def sit_out(self, player: str) -> None:
        tb = self.t
        seat = tb._seated(player)
        no_tournament(tb.config)
        tb._run(self.sit_out_step, {"seat": seat})

    def sit_in(self, player: str, post: bool) -> None:
        tb = self.t
        seat = tb._seated(player)
        if tb.config.tournament:  # back at the table: played for no more
            if player not in tb.absent:
                raise Refused(t("you are not away"))
            tb._run(self.sit_in_step, {"seat": seat, "post": False})
            return
        s = tb.table.seats[seat]
        assert s is not None
        if not (s.sitting_out or s.sit_out_after_hand):
            raise Refused(t("you are not sitting out"))
        tb._run(self.sit_in_step, {"seat": seat, "post": bool(post)})

    def leave(self, player: str) -> None:
        tb = self.t
        seat = tb._seated(player)
        no_tournament(tb.config)
        if seat in tb.leaving:
            raise Refused(t("you are already leaving"))
        tb._run(self.leave_step, {"seat": seat, "player": player})

    # ------------------------------------------------------------------ steps
    def sit_step(self, c: dict[str, Any], batch: Batch, dealt_in: bool | None = None) -> None:
        """A seat taken (``dealt_in``: a tournament's, room/seating.py)."""
        tb = self.t
        try:
            if dealt_in is None:
                tb.table.sit(c["seat"], c["name"], c["chips"], wait_for_big_blind=c["wait"])
            else:
                tb.table.sit(c["seat"], c["name"], c["chips"], dealt_in=dealt_in)
        except HandError as exc:
            raise Refused(exc.message) from None
        tb.players[c["seat"]] = c["player"]
        tb.banks.setdefault(c["player"], {PRE: tb.config.bank_ms, POST: tb.config.bank_ms})
        tb.dealt.setdefault(c["player"], 0)
        tb.paid_in += c["chips"]
        batch.append(("sat", c))

    def chips_step(self, c: dict[str, Any], batch: Batch) -> None:
        tb = self.t
        try:
            taken = tb.table.add_chips(c["seat"], c["asked"])
        except HandError as exc:
            raise Refused(exc.message) from None
        tb.paid_in += taken
        batch.append(("chips", {**c, "taken": taken}))

    def sit_out_step(self, c: dict[str, Any], batch: Batch) -> None:
        self.t.table.sit_out(c["seat"])
        batch.append(("sit_out", c))

    def sit_in_step(self, c: dict[str, Any], batch: Batch) -> None:
        tb = self.t
        if tb.config.tournament:
            tb.absent.discard(tb.players[c["seat"]])
        else:
            tb.table.sit_in(c["seat"], post_dead=c["post"])
        batch.append(("sit_in", c))

    def leave_step(self, c: dict[str, Any], batch: Batch) -> None:
        tb = self.t
        batch.append(("leave", c))
        if tb.table.player_of(c["seat"]) is not None:
            tb.leaving.add(c["seat"])  # after the hand
        else:
            self.empty(c["seat"], batch)

    def empty(self, seat: int, batch: Batch) -> None:
        """The seat empties: its chips go back to the bankroll (a ``left`` record)."""
        tb = self.t
        s = tb.table.seats[seat]
        assert s is not None
        chips = s.chips + s.pending_chips
        s.pending_chips = 0
        tb.table.leave(seat)
        player = tb.players.pop(seat)
        tb.leaving.discard(seat)
        tb._drop(player)
        tb.paid_out += chips
        batch.append(("left", {"seat": seat, "player": player, "chips": chips}))

    def set_stack(self, seat: int, chips: int, batch: Batch) -> None:
        """The host's stack for ``seat``: the chips it adds come from the player's bankroll,
        those it takes go back (a ``stack`` record: ``delta``). What the bankroll cannot
        cover now (it was checked when the host asked) is not added: the bankroll is read
        here, so a restore reads the stored record instead."""
        tb = self.t
        s = tb.table.seats[seat]
        assert s is not None
        player = tb.players[seat]
        have = s.chips + s.pending_chips
        delta = chips - have
        if delta > 0:
            # while a restore replays: the stored record's (the bankroll is read once)
            replaying = tb._replaying
            delta = replaying[len(batch)].payload["delta"] \
                if replaying is not None and len(batch) < len(replaying) \
                else min(delta, tb.bankroll.balance(player))
        s.chips, s.pending_chips = have + delta, 0
        if delta > 0:
            tb.paid_in += delta
        else:
            tb.paid_out -= delta
        batch.append(("stack", {"seat": seat, "player": player, "delta": delta,
                                "chips": s.chips}))
