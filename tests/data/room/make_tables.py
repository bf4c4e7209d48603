"""Write ``tables.json``: two tables' logs and last snapshots, as a version of the room wrote
them, and the state that version restored from them (tests/room/test_old_logs.py checks that
today's code restores the same). Run with that version's sources first on the path:

    PYTHONPATH=<its src> python tests/data/room/make_tables.py

Everything is seeded and the clock is a manual one: the same version writes the same file.
"""

from __future__ import annotations

import json
import pathlib
import random
from typing import Any

from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.room.clock import ManualClock
from tapete.room.errors import Refused
from tapete.room.log import EventLog, TableConfig
from tapete.room.table import RoomTable, restore

START_MS = 1_000
OUT = pathlib.Path(__file__).with_name("tables.json")


class Bank:
    def __init__(self) -> None:
        self.balances: dict[str, int] = {}
        self.keys: set[str] = set()

    def balance(self, player: str) -> int:
        return self.balances.get(player, 10_000)

    def take(self, player: str, amount: int, key: str) -> bool:
        if key not in self.keys:
            self.keys.add(key)
            self.balances[player] = self.balance(player) - amount
        return True

    def give(self, player: str, amount: int, key: str) -> None:
        if key not in self.keys:
            self.keys.add(key)
            self.balances[player] = self.balance(player) + amount

    def settled(self, table_id: str) -> bool:
        return True


def summary(t: RoomTable) -> dict[str, Any]:
    """What a restore must rebuild (the fields both versions have)."""
    hand = t.hand
    return json.loads(json.dumps({
        "seq": t.seq, "hand_no": t.hand_no, "players": {str(k): v for k, v in t.players.items()},
        "stacks": [None if s is None else [s.name, s.chips, s.pending_chips, s.sitting_out]
                   for s in t.table.seats],
        "banks": t.banks, "dealt": t.dealt, "paid": [t.paid_in, t.paid_out, t.raked],
        "leaving": sorted(t.leaving), "turn_seq": t.turn_seq,
        "hand": None if hand is None else [len(hand.events), hand.actor, hand.pot_total()],
        "host": t.host, "requests": {str(k): v for k, v in t.requests.items()},
        "paused": t.paused, "changes": t.changes, "kicked": sorted(t.kicked),
        "muted": sorted(t.muted), "straddlers": sorted(t.straddlers),
        "votes": {str(k): {x: v[x] for x in ("kind", "asked", "yes", "no", "ms")}
                  for k, v in t.votes.items()},
        "bomb_next": t.bomb_next, "over": t.over, "chat": list(t.chat),
        "next_level": t.next_level, "absent": sorted(t.absent),
        "config": t.config.to_json(),
    }, sort_keys=True))


class Driver:
    def __init__(self, seed: int, config: TableConfig, table_id: str, host: str | None) -> None:
        self.rng = random.Random(seed)
        decks = random.Random(seed + 1)
        secrets = random.Random(seed + 2)
        self.clock = ManualClock(START_MS)
        self.log = EventLog()
        self.bank = Bank()
        self.log.create_table(config, table_id)
        self.t = RoomTable(self.log, table_id, config, self.bank, clock=self.clock,
                           deck=lambda: Deck(seed=decks.randrange(2**32)),
                           secret=lambda: secrets.randbytes(32), snapshot_every=2,
                           auto_start=False)
        if host is not None:
            self.t.appoint(host)

    def act(self, allin: float = 0.1) -> None:
        """The player to act plays a random legal action (all in now and then)."""
        t = self.t
        hand = t.hand
        assert hand is not None and hand.actor is not None and t.turn_seq is not None
        legal = hand.legal()
        roll = self.rng.random()
        if legal.max_to is not None and roll < allin:
            a = Action.bet(legal.max_to) if legal.is_bet else Action.raise_to(legal.max_to)
        elif legal.min_to is not None and roll < 0.3:
            a = Action.bet(legal.min_to) if legal.is_bet else Action.raise_to(legal.min_to)
        elif roll < 0.45 and legal.fold and not legal.check:
            a = Action.fold()
        else:
            a = Action.check_or_call(legal)
        t.act(t.hand_players[hand.actor], t.turn_seq, a)

    def step(self) -> None:
        """One move of the game: a vote answered, an action, or the next hand."""
        t = self.t
        self.clock.advance(500)
        for vote, v in list(t.votes.items()):
            for p in v["asked"]:
                if p not in v["yes"] and p not in v["no"]:
                    t.vote(p, vote, self.rng.random() < 0.7)
                    return
        hand = t.hand
        if hand is not None and hand.actor is not None:
            self.act()
        elif hand is None and t.table.ready_count() >= 2 and t.paused is None:
            t.start_hand()
        else:
            t.poll()

    def until(self, done: Any, most: int = 400) -> None:
        for _ in range(most):
            if done():
                return
            self.step()
        raise AssertionError("never came")

    def refused(self, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        except Refused:
            return
        raise AssertionError("not refused")

    def dump(self) -> dict[str, Any]:
        t = self.t
        records = self.log.read(t.table_id)
        snap = self.log.last_snapshot(t.table_id)
        assert snap is not None
        again = restore(EventLog(self.log.engine), t.table_id, Bank(),
                        clock=ManualClock(self.clock.ms), auto_start=False)
        assert summary(again) == summary(t)
        return {"id": t.table_id, "config": t.config.to_json() if False else
                self.log.config(t.table_id).to_json(),
                "records": [[r.seq, r.kind, r.payload, r.at] for r in records],
                "snapshot": {"seq": snap[0], "state": snap[1]},
                "clock_ms": self.clock.ms, "summary": summary(t)}


def host_table() -> dict[str, Any]:
    config = TableConfig(seats=6, auto_approve=False, straddle=True, restraddle=True,
                         bomb_vote=True, bomb_ante=4, run_it=2, spectator_chat=True,
                         public=False, max_buy_in=400)
    d = Driver(7, config, "old-host-table", "host")
    t = d.t
    t.sit("host", "Hosta", 200)
    for i, p in enumerate(("p1", "p2", "p3", "p4")):
        assert t.sit(p, f"Player {i + 1}", 200) is None  # asked of the host
    reqs = sorted(t.requests)
    t.host_command("host", "deny", {"request": reqs[1]})
    for rid in (reqs[0], reqs[2], reqs[3]):
        t.host_command("host", "approve", {"request": rid})
    t.sit("p2", "Player 2", 150)
    t.host_command("host", "approve", {"request": max(t.requests)})
    t.say("host", "welcome")
    t.say("watcher", "hello from the rail")
    t.ask_straddle("p1", True)
    t.host_command("host", "mute", {"seat": t.seat_of("p3"), "on": True})
    d.refused(t.say, "p3", "let me talk")
    t.host_command("host", "settings", {"changes": {"big_blind": 4, "small_blind": 2}})
    t.host_command("host", "spectators", {"allowed": True, "chat": True})
    d.until(lambda: t.hand_no >= 2 and t.hand is None)
    t.add_chips("p1", 100)  # asked
    t.host_command("host", "approve", {"request": max(t.requests)})
    t.propose("p2", "bomb")
    d.until(lambda: t.hand_no >= 3 and t.hand is not None)
    t.host_command("host", "stack", {"seat": t.seat_of("p4"), "chips": 300})  # at its end
    t.host_command("host", "pause", {"now": True})
    d.clock.advance(4_000)
    t.host_command("host", "resume", {})
    d.until(lambda: t.hand is None)
    t.host_command("host", "pause", {"now": False})
    t.host_command("host", "resume", {})
    t.host_command("host", "kick", {"seat": t.seat_of("p3")})
    t.host_command("host", "auto_approve", {"on": True})
    t.ask_straddle("p4", True)
    t.say("p1", "gl")
    d.until(lambda: t.hand_no >= 6 and t.hand is None
            and any(r.kind == "decided" and r.payload["kind"] == "runs"
                    for r in d.log.read(t.table_id)), most=3000)
    # the last hand in play, a player timed out in it, the time still running
    t.start_hand()
    d.act()
    d.clock.advance(config.act_ms + config.bank_max_ms + config.grace_max_ms + 1)
    assert t.poll()
    t.propose("p1", "bomb")
    return d.dump()


def tournament_table() -> dict[str, Any]:
    config = TableConfig(seats=6, tournament="old-tour", public=False, min_buy_in=20,
                         max_buy_in=1500, small_blind=10, big_blind=20)
    d = Driver(11, config, "old-tour-table", None)
    t = d.t
    for i in range(4):
        t.tournament_seat(f"e{i}", f"Entrant {i}", i, 1500, dealt_in=i < 2)
    fresh = iter(range(4, 40))
    for level in range(1, 6):
        t.tournament_deal(10 * level, 20 * level, 2 * level, level=level)
        d.until(lambda: t.hand is None and t.next_level is None, most=3000)
        if level == 2:
            t.tournament_hold()
        for player, chips in sorted(t.tournament_stacks().items()):
            if chips == 0:  # knocked out: another entrant moved into the seat
                seat = t.seat_of(player)
                assert seat is not None
                t.tournament_unseat(player)
                n = next(fresh)
                t.tournament_seat(f"e{n}", f"Entrant {n}", seat, 900, dealt_in=n % 2 == 0)
    t.tournament_deal(60, 120, 12, level=6)
    t.start_hand()
    d.act()
    d.clock.advance(config.act_ms + config.bank_max_ms + config.grace_max_ms + 1)
    assert t.poll()  # timed out: away, played for at once
    return d.dump()


if __name__ == "__main__":
    OUT.write_text(json.dumps({"tables": [host_table(), tournament_table()]}, indent=1,
                              sort_keys=True) + "\n")
    print(f"wrote {OUT}")
