"""The host of a table: a part of :class:`~tapete.room.table.RoomTable` (room/part.py).

A host's table (a private table a person opened): its host approves or denies the seats and
rebuys asked for (unless ``auto_approve``), pauses and resumes (between hands, or now with
the clock stopped), changes the settings from the next hand, sets a stack (from the bankroll
of its player: no chip comes from nowhere), removes or mutes a player, lets spectators watch
and chat or not, hands the role over and ends the game. Each is one ``host`` record, which
every viewer sees; a seat or chips asked for is a ``request`` record. Its state is in the
table's snapshot (``host``, ``requests``, ``paused``, ``changes``, ``kicked``, ``muted``,
``over``, ``paused_wall``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from tapete.core.catalog import t
from tapete.room.errors import Refused
from tapete.room.log import TableConfig
from tapete.room.part import MOST_CHIPS, Batch, Table

# what the host may do (:meth:`Host.command`), each a ``host`` record
HOST_ACTIONS = ("host", "approve", "deny", "auto_approve", "pause", "resume", "settings",
                "stack", "kick", "mute", "spectators", "end")
# the settings the host may change; they apply from the next hand
NEXT_HAND = ("game", "variant", "small_blind", "big_blind", "min_buy_in", "max_buy_in",
             "act_ms", "straddle", "restraddle", "bomb_every", "bomb_ante", "bomb_vote",
             "double_board", "bounty_72", "run_it")


class Host:
    def __init__(self, table: Table) -> None:
        self.t = table
        self.host: str | None = None
        self.requests: dict[int, dict[str, Any]] = {}  # seat and rebuy requests, by seq
        self.paused: str | None = None  # "next": no new hand; "now": the clock stopped too
        self.paused_at = 0
        self.changes: dict[str, Any] = {}  # settings from the next hand
        self.stack_edits: dict[int, int] = {}  # seat -> its stack from the hand's end
        self.kicked: set[str] = set()
        self.muted: set[str] = set()
        self.over = False  # the host ended the game

    def asks(self, player: str) -> bool:
        """Whether ``player``'s seat or chips wait for the host's approval."""
        return self.host is not None and player != self.host \
            and not self.t.config.auto_approve and player not in self.t.agents

    def request(self, command: dict[str, Any]) -> None:
        """A seat or chips asked of the host (a ``request`` record)."""
        self.t._run(self.request_step, command)

    # ------------------------------------------------------------------ the host's commands
    def command(self, player: str, action: str, args: dict[str, Any]) -> None:
        """The host's ``action`` (one of :data:`HOST_ACTIONS`) with its ``args`` (the seat
        it is about, by number; a request, by the seq of its ``request`` record)."""
        tb = self.t
        if self.host is None:
            raise Refused(t("this table has no host"))
        if player != self.host:
            raise Refused(t("only the host can do that"), code="not_host")
        if self.over:
            raise Refused(t("the host has ended the game"))
        if action not in HOST_ACTIONS:
            raise Refused(t("{action} is not something a host does", action=repr(action)[:40]))
        if not isinstance(args, dict):
            raise Refused(t("a host's action needs its details"))
        command: dict[str, Any] = {"action": action, "by": player}
        if action in ("approve", "deny"):
            rid = args.get("request")
            req = self.requests.get(rid) if type(rid) is int else None
            if req is None:
                raise Refused(t("that request is not waiting (answered or withdrawn)"))
            seat_now = tb.seat_of(req["player"])
            command.update(request=rid, player=req["player"], kind=req["kind"],
                           chips=req["chips"], name=req["name"] if req["kind"] == "seat"
                           else tb._name(seat_now) if seat_now is not None else "")
            if action == "approve":
                command.update(self._approvable(req))
        elif action in ("auto_approve", "pause"):
            on = args.get("on" if action == "auto_approve" else "now")
            if type(on) is not bool:
                raise Refused(t("true or false is needed"))
            if action == "pause" and (self.paused == "now" or self.paused == "next" and not on):
                raise Refused(t("the game is paused already"))
            command["on" if action == "auto_approve" else "now"] = on
        elif action == "resume":
            if self.paused is None:
                raise Refused(t("the game is not paused"))
        elif action == "settings":
            command["changes"] = self._changes(args.get("changes"))
        elif action == "spectators":
            allowed, chat = args.get("allowed"), args.get("chat")
            if type(allowed) is not bool or type(chat) is not bool:
                raise Refused(t("true or false is needed"))
            command.update(allowed=allowed, chat=chat)
        elif action in ("stack", "kick", "mute", "host"):
            seat = args.get("seat")
            target = tb.players.get(seat) if isinstance(seat, int) else None
            if target is None or target in tb.agents or not isinstance(seat, int):
                raise Refused(t("there is no player in that seat"))
            if target == player and action != "stack":
                raise Refused(t("that is you"))
            command.update(seat=seat, player=target, name=tb._name(seat))
            if action == "stack":
                command["chips"] = self._stack_target(seat, target, args.get("chips"))
            elif action == "mute":
                on = args.get("on")
                if type(on) is not bool:
                    raise Refused(t("true or false is needed"))
                command["on"] = on
        tb._run(self.step, command)

    def _approvable(self, req: dict[str, Any]) -> dict[str, Any]:
        """Where an approved request goes (a free seat), or why it cannot be approved now."""
        tb = self.t
        player = req["player"]
        if tb.bankroll.balance(player) < req["chips"]:
            raise Refused(t("that player's bankroll no longer holds the chips asked for"))
        if req["kind"] == "chips":
            seat = tb.seat_of(player)
            if seat is None:
                raise Refused(t("that player has left the table"))
            return {"seat": seat}
        free = [i for i, x in enumerate(tb.table.seats) if x is None]
        if not free:
            raise Refused(t("the table is full"))
        if any(x is not None and x.name.casefold() == req["name"].casefold()
               for x in tb.table.seats):
            raise Refused(t("the name {name} is taken at this table", name=repr(req["name"])))
        return {"seat": req["seat"] if req["seat"] in free else free[0]}

    def _changes(self, changes: object) -> dict[str, Any]:
        """The settings the host changes from the next hand, checked as a table's settings."""
        if not isinstance(changes, dict) or not changes:
            raise Refused(t("say which settings change"))
        for key in changes:
            if key not in NEXT_HAND:
                raise Refused(t("{key} is not a setting the host changes",
                                key=repr(str(key))[:40]))
        merged = {**self.t.config.to_json(), **self.changes, **changes}
        TableConfig.from_json(merged)  # a bad value is refused here, in words
        return dict(changes)

    def _stack_target(self, seat: int, player: str, chips: object) -> int:
        """A stack the host sets: what it adds comes from the player's bankroll, what it takes
        goes back to it (the ledger shows both), so a stack the bankroll cannot cover would
        make chips from nothing and is refused."""
        if type(chips) is not int or not 0 <= chips <= MOST_CHIPS:
            raise Refused(t("a stack is a whole number of chips, 0 or more"))
        s = self.t.table.seats[seat]
        assert s is not None
        have = self.t.bankroll.balance(player)
        if chips - (s.chips + s.pending_chips) > have:
            raise Refused(t("{name}'s bankroll holds {have} chips: a stack of {chips} would"
                            " make chips from nothing", name=s.name, have=str(have),
                            chips=str(chips)), code="no_chips")
        return chips

    # ------------------------------------------------------------------ steps
    def request_step(self, c: dict[str, Any], batch: Batch) -> None:
        self.requests[self.t._next_seq(batch)] = c
        batch.append(("request", c))

    def step(self, c: dict[str, Any], batch: Batch) -> None:
        tb = self.t
        a = c["action"]
        batch.append(("host", c))
        tb._note(batch)
        if a == "host":
            self.host = c["player"]
        elif a == "approve":
            req = self.requests[c["request"]]
            if req["kind"] == "seat":
                tb._sit({k: req[k] for k in ("player", "name", "chips", "wait")}
                        | {"seat": c["seat"]}, batch)
            else:
                tb._add_chips({"seat": c["seat"], "player": req["player"],
                               "asked": req["chips"]}, batch)
            del self.requests[c["request"]]
        elif a == "deny":
            del self.requests[c["request"]]
        elif a == "auto_approve":
            tb.config = dataclasses.replace(tb.config, auto_approve=c["on"])
        elif a == "pause":
            self.paused = "now" if c["now"] and tb.hand is not None else "next"
            self.paused_at = tb._now()
        elif a == "resume":
            if self.paused == "now":  # the clock goes on where it stopped
                tb._clock_stopped(max(0, tb._now() - self.paused_at))
            self.paused = None
        elif a == "settings":
            self.changes.update(c["changes"])
        elif a == "stack":
            if tb.hand is not None and c["seat"] in tb.table.hand_seats:
                self.stack_edits[c["seat"]] = c["chips"]  # when the hand ends
            else:
                tb._set_stack(c["seat"], c["chips"], batch)
        elif a == "kick":
            self.kicked.add(c["player"])
            tb._drop(c["player"])
            if tb.table.player_of(c["seat"]) is not None:
                tb.leaving.add(c["seat"])  # folded at its turn, gone at the hand's end
            else:
                tb._empty(c["seat"], batch)
        elif a == "mute":
            (self.muted.add if c["on"] else self.muted.discard)(c["player"])
        elif a == "spectators":
            tb.config = dataclasses.replace(tb.config, spectators=c["allowed"],
                                            spectator_chat=c["chat"])
        elif a == "end":
            self.over = True
            self.requests.clear()
            for seat in sorted(tb.players):
                if tb.table.player_of(seat) is None:
                    tb._empty(seat, batch)  # the others at the hand's end

    # ------------------------------------------------------------------ its snapshot piece
    def piece(self, to_wall: Callable[[int], int]) -> dict[str, Any]:
        return {"host": self.host, "requests": {str(k): v for k, v in self.requests.items()},
                "paused": self.paused, "changes": self.changes, "kicked": sorted(self.kicked),
                "muted": sorted(self.muted), "over": self.over,
                "paused_wall": to_wall(self.paused_at)}

    def load(self, state: dict[str, Any]) -> None:
        self.host = state["host"]
        self.requests = {int(k): v for k, v in state["requests"].items()}
        self.paused, self.changes = state["paused"], dict(state["changes"])
        self.kicked, self.muted = set(state["kicked"]), set(state["muted"])
        self.over = bool(state["over"])

    def drop(self, player: str) -> None:
        """A player gone: their requests go with them."""
        for rid in [k for k, r in self.requests.items() if r["player"] == player]:
            del self.requests[rid]
