"""The table's votes: a part of :class:`~tapete.room.table.RoomTable` (room/part.py).

Two kinds: ``runs`` (the players in a hand all in with cards to come run it more than once
only if every one of them agrees; the hand waits for it) and ``bomb`` (a bomb pot next hand,
proposed by a seated player, passed by more than half of the players seated). A vote opens
with a ``vote`` record (its seq is the vote's number), each answer is a ``voted`` record and
the result a ``decided`` one; time running out, a bot (once it has thought) or a player
leaving answers no. Votes and the coming bomb pot are in the table's snapshot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tapete.core.catalog import t
from tapete.room.errors import Refused
from tapete.room.part import Batch, Table

BOMB_VOTE_MS = 30_000  # how long a bomb-pot vote stays open


class Votes:
    def __init__(self, table: Table) -> None:
        self.t = table
        self.open: dict[int, dict[str, Any]] = {}  # open votes, by the seq that opened them
        self.bomb_next = False  # a bomb pot the players voted for: the next hand

    # ------------------------------------------------------------------ commands
    def propose(self, player: str, kind: str, seat: int) -> None:
        """Ask the table for a bomb pot next hand (``kind`` "bomb"): it is played when more
        than half of the players seated vote for it."""
        if kind != "bomb":
            raise Refused(t("the table votes on bomb pots only"))
        if not self.t.config.bomb_vote:
            raise Refused(t("this table plays no bomb pots by vote"))
        if self.bomb_next or any(v["kind"] == "bomb" for v in self.open.values()):
            raise Refused(t("a bomb pot is voted on or coming already"))
        self.t._run(self.propose_step, {"player": player, "seat": seat, "kind": kind})

    def vote(self, player: str, vote: int, yes: bool) -> None:
        """Answer vote ``vote`` (the seq of the record that opened it)."""
        v = self.open.get(vote) if type(vote) is int else None
        if v is None:
            raise Refused(t("that vote is over"), code="stale")
        if type(yes) is not bool:
            raise Refused(t("true or false is needed"))
        if player not in v["asked"]:
            raise Refused(t("only the players in the hand vote on this")
                          if v["kind"] == "runs" else t("only the players seated vote on this"),
                          code="not_asked")
        if player in v["yes"] or player in v["no"]:
            raise Refused(t("you have voted already"))
        self.t._run(self.voted, {"vote": vote, "player": player, "yes": yes})

    # ------------------------------------------------------------------ timers
    def poll(self, now: int, think_ms: int) -> bool:
        """One answer the timers give (a bot, a player gone, or time up): True if any."""
        tb = self.t
        for vote, v in list(self.open.items()):
            # a bot, or a player leaving, answers no (a bot once it has thought)
            for p in v["asked"]:
                if p in v["yes"] or p in v["no"]:
                    continue
                seat_p = tb.seat_of(p)
                if (p in tb.agents and now >= v["opened"] + think_ms) or \
                        seat_p is None or seat_p in tb.leaving:
                    tb._run(self.voted, {"vote": vote, "player": p, "yes": False})
                    return True
            if now >= v["opened"] + v["ms"]:  # time is up: whoever has not voted, did not agree
                tb._run(self.voted, {"vote": vote, "player": None, "yes": False})
                return True
        return False

    def due(self, think_ms: int) -> list[int]:
        """When each open vote has something for the timers to do."""
        tb = self.t
        due: list[int] = []
        for v in self.open.values():
            waits = [p for p in v["asked"] if p not in v["yes"] and p not in v["no"]]
            soon = any(p in tb.agents or tb.seat_of(p) is None
                       or tb.seat_of(p) in tb.leaving for p in waits)
            due.append(v["opened"] + (min(think_ms, v["ms"]) if soon else v["ms"]))
        return due

    def stopped(self, ms: int) -> None:
        """The clock stood still ``ms`` (the host paused the game): so did every vote's."""
        for v in self.open.values():
            v["opened"] += ms

    # ------------------------------------------------------------------ its snapshot piece
    def piece(self, to_wall: Callable[[int], int]) -> dict[str, Any]:
        return {"votes": {str(k): {**v, "opened": to_wall(v["opened"])}
                          for k, v in self.open.items()}, "bomb_next": self.bomb_next}

    def load(self, state: dict[str, Any], opened: Callable[[int], int]) -> None:
        """``opened``: a vote's opening on this table's clock, from the one stored."""
        self.open = {int(k): v for k, v in state["votes"].items()}
        for v in self.open.values():
            v["opened"] = opened(int(v["opened"]))
        self.bomb_next = bool(state["bomb_next"])

    # ------------------------------------------------------------------ steps
    def propose_step(self, c: dict[str, Any], batch: Batch) -> None:
        tb = self.t
        batch.append(("propose", c))
        asked = [p for seat, p in sorted(tb.players.items()) if p not in tb.agents
                 and seat not in tb.leaving]
        self.start("bomb", asked, BOMB_VOTE_MS, batch, name=tb._name(c["seat"]),
                   seats=sorted(seat for seat, p in tb.players.items() if p in asked))
        self.voted({"vote": tb.seq + len(batch), "player": c["player"], "yes": True}, batch)

    def start(self, kind: str, asked: list[str], ms: int, batch: Batch, **shown: Any) -> None:
        """Open a vote (a ``vote`` record, among the chat's lines)."""
        tb = self.t
        vote = tb._next_seq(batch)
        self.open[vote] = {"kind": kind, "asked": asked, "yes": [], "no": [], "ms": ms,
                           "opened": tb._now(), **shown}
        batch.append(("vote", {"kind": kind, "ms": ms, **shown}))
        tb._note(batch)

    def close(self, batch: Batch, kinds: tuple[str, ...]) -> None:
        """Close the open votes of ``kinds`` undecided (the hand they were about was called
        off, or the table closed): a ``decided`` record each, ``closed``, nothing passed."""
        for vote in sorted(self.open):
            v = self.open[vote]
            if v["kind"] not in kinds:
                continue
            del self.open[vote]
            replaying = self.t._replaying
            if replaying is not None and (len(batch) >= len(replaying)
                                          or replaying[len(batch)].kind != "decided"):
                continue  # a log of an older version, which left the vote open: closed now
            batch.append(("decided", {"vote": vote, "kind": v["kind"], "passed": False,
                                      "closed": True}))
            self.t._note(batch)

    def voted(self, c: dict[str, Any], batch: Batch) -> None:
        """A vote (``player`` None: time ran out), and the result once it is known: a run-out
        needs everyone in the hand; a bomb pot, more than half of the players seated."""
        tb = self.t
        v = self.open[c["vote"]]
        player = c["player"]
        if player is not None:
            (v["yes"] if c["yes"] else v["no"]).append(player)
        seat = tb.seat_of(player) if player is not None else None
        batch.append(("voted", {**c, "seat": seat}))
        n, yes, no = len(v["asked"]), len(v["yes"]), len(v["no"])
        if v["kind"] == "runs":
            passed = yes == n if no == 0 and player is not None else False
            decided = passed or no > 0 or player is None
        else:
            passed = 2 * yes > n
            decided = passed or 2 * no >= n or player is None
        if not decided:
            return
        del self.open[c["vote"]]
        result = {"vote": c["vote"], "kind": v["kind"], "passed": passed}
        if v["kind"] == "runs":
            result["runs"] = v["runs"] if passed else 1
        batch.append(("decided", result))
        tb._note(batch)
        if v["kind"] == "runs":
            hand = tb.hand
            assert hand is not None
            before = len(hand.events)
            hand.set_runs(v["runs"] if passed else 1)
            tb._hand_events(hand, before, batch)
        else:
            self.bomb_next = passed
