"""Every timer of a table keeps its deadline across a restore (issue 29, 3 and 12).

A table is played on a manual clock (votes on running it twice and on bomb pots, the host's
pauses, chat, players who let their clock run out), on SQLite and on PostgreSQL
(``TAPETE_TEST_POSTGRES``). A kill can only fall between two stored batches (an append is
one transaction), so the test "kills" it after every batch: a copy of its log up to there is
restored in a new process, whose clock starts elsewhere and whose wall time is later.

- Restored soon after: the turn's clock runs from when its ``turn`` record was stored (plus
  the disconnect grace: nobody is connected to the new process yet), each vote from when it
  opened, a pause from when it began, the next deal from the last hand's end: each is the
  deadline the table that never stopped has. The player to act stays silent: they are timed
  out exactly then, not a millisecond before.
- Restored long after (ten minutes): every deadline is past, and fires at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
from collections import Counter
from typing import Any

import pytest
from roomfakes import Client, FakeBank, random_action

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.room.clock import ManualClock
from tapete.room.errors import Refused
from tapete.room.log import EVENTS, EventLog, Record, TableConfig
from tapete.room.table import RoomTable, restore

ACT, BANK, PAUSE = 5_000, 3_000, 2_000
CONFIG = TableConfig(act_ms=ACT, bank_ms=BANK, bank_add_ms=0, run_it=2, bomb_vote=True,
                     bomb_ante=5, min_buy_in=40, max_buy_in=100, seats=4,
                     grace_base_ms=4_000, grace_per_bb_ms=100, grace_max_ms=9_000)
PLAYERS = ["a", "b", "c"]  # "a" hosts
LATER = 10 * 60_000


def databases() -> list[Any]:
    url = os.environ.get("TAPETE_TEST_POSTGRES")
    return ["sqlite", pytest.param(url, id="postgres") if url else pytest.param(
        None, id="postgres", marks=pytest.mark.skip("TAPETE_TEST_POSTGRES names no server"))]


def wall(t: RoomTable, ms: int) -> int:
    """A moment on the table's clock, in Unix ms (comparable across clocks)."""
    return ms + t.clock.wall_ms() - t.clock.now_ms()


def timers(t: RoomTable) -> dict[str, Any]:
    """The table's pending deadlines, in Unix ms."""
    hand = t.hand
    out: dict[str, Any] = {"seq": t.seq, "paused": t.paused,
                           "votes": {k: wall(t, v["opened"]) for k, v in t.votes.items()}}
    if hand is not None and hand.actor is not None and t.turn_seq is not None:
        out["turn"] = (t.turn_seq, wall(t, t.turn_at))
    if hand is None and t.hand_no:
        out["ended"] = wall(t, t.ended_at)
    if t.paused == "now":
        out["paused_at"] = wall(t, t.paused_at)
    return out


def play(log: EventLog, seed: int, batches: int) -> tuple[RoomTable, list[dict[str, Any]]]:
    """The reference table, played until it stored ``batches`` batches; its timers after
    each batch."""
    rng = random.Random(seed)
    decks = random.Random(seed + 1)
    clock = ManualClock(1_000)
    bank = FakeBank(dict.fromkeys(PLAYERS, 10_000))
    table_id = log.create_table(CONFIG, table_id=f"deadlines-{secrets.token_hex(6)}")
    t = RoomTable(log, table_id, CONFIG, bank, clock=clock, pause_ms=PAUSE,
                  deck=lambda: Deck(seed=decks.randrange(2**32)))
    clients = {p: Client(p) for p in PLAYERS}
    for c in clients.values():
        t.subscribe(c)
    after: list[dict[str, Any]] = []

    def run(fn: Any, *args: Any) -> None:
        seq = t.seq
        with contextlib.suppress(Refused):
            fn(*args)
        if t.seq != seq:
            after.append(timers(t))

    t.appoint("a")
    after.append(timers(t))
    for i, p in enumerate(PLAYERS):
        run(t.sit, p, f"P{i}", 100)
    while len(after) < batches:
        clock.advance(rng.randrange(0, 2_500))
        roll = rng.random()
        hand = t.hand
        open_votes = [(k, p) for k, v in t.votes.items() for p in v["asked"]
                      if p not in v["yes"] and p not in v["no"]]
        if open_votes and roll < 0.3:
            vote, p = rng.choice(open_votes)
            run(t.vote, p, vote, rng.random() < 0.7)
        elif roll < 0.06:
            if t.paused is None and hand is not None:
                run(t.host_command, "a", "pause", {"now": True})
            elif t.paused is not None:
                run(t.host_command, "a", "resume", {})
        elif roll < 0.1:
            run(t.say, rng.choice(PLAYERS), "hello")
        elif roll < 0.13:
            run(t.propose, rng.choice(PLAYERS), "bomb")
        elif hand is not None and hand.actor is not None and t.turn_seq is not None \
                and t.paused is None:
            player = t.players[t.table.seat_of(hand.actor)]
            if roll < 0.35:  # silent: the clock runs out
                deadline = t.deadline()
                assert deadline is not None
                clock.advance(max(0, deadline - clock.now_ms()))
                run(t.poll)
            else:
                legal = hand.legal()
                all_in = legal.max_to is not None and roll < 0.45
                run(t.act, player, t.turn_seq, Action.raise_to(legal.max_to) if all_in
                    and legal.max_to is not None and not legal.is_bet else
                    Action.bet(legal.max_to) if all_in and legal.max_to is not None
                    else random_action(legal, rng))
        elif hand is None:
            for p in PLAYERS:
                seat = t.seat_of(p)
                s = t.table.seats[seat] if seat is not None else None
                if s is not None and s.chips + s.pending_chips == 0:
                    run(t.add_chips, p, 100)
                elif s is not None and s.sitting_out:
                    run(t.sit_in, p)
            due = t.due_ms()
            if due is not None:
                clock.advance(due)
            run(t.poll)
        else:
            due = t.due_ms()
            if due is not None:
                clock.advance(due)
            run(t.poll)
    return t, after


def cut(log: EventLog, records: list[Record], table_id: str, upto: int) -> None:
    """The table's log as a kill after record ``upto`` leaves it: its records up to there,
    with their stamps (a restored copy's own records after them go)."""
    rows = [{"table_id": table_id, "seq": r.seq, "kind": r.kind,
             "payload": json.dumps(r.payload, sort_keys=True), "at": r.at}
            for r in records if r.seq <= upto]
    with log.engine.begin() as conn:
        conn.execute(EVENTS.delete().where(EVENTS.c.table_id == table_id))
        conn.execute(EVENTS.insert(), rows)


def restored(log: EventLog, table_id: str, clock: ManualClock) -> RoomTable:
    return restore(EventLog(log.engine), table_id, FakeBank(dict.fromkeys(PLAYERS, 10_000)),
                   clock=clock, pause_ms=PAUSE)


def timed_out(t: RoomTable) -> int:
    """Players timed out in the hand in play (or the one that just ended)."""
    hand = t.hand if t.hand is not None else t.last_hand
    return 0 if hand is None else sum(1 for e in hand.events
                                      if isinstance(e, ev.Acted) and e.timed_out)


@pytest.mark.parametrize("url", databases())
def test_a_restore_after_any_record_keeps_every_deadline(url: str | None) -> None:
    log = EventLog("sqlite://" if url == "sqlite" else str(url))
    ref, after = play(log, seed=3, batches=100)
    records = log.read(ref.table_id)
    kind_of = {r.seq: r.kind for r in records}
    last_kinds: set[str] = set()
    silent = 0
    late_checked: Counter[str] = Counter()
    for expect in after:
        seq = expect["seq"]
        last_kinds.add(kind_of[seq])
        # a new process, 700 ms after the kill: its monotonic clock starts elsewhere
        cut(log, records, ref.table_id, seq)
        at_kill = max(r.at for r in records if r.seq <= seq)
        clock = ManualClock(50_000, at_kill + 700 - 50_000)
        t = restored(log, ref.table_id, clock)
        got = timers(t)
        assert {**got, "seq": seq} == expect, (seq, kind_of[seq])
        hand = t.hand
        if "turn" in got and t.paused is None:
            assert hand is not None and hand.actor is not None
            # nobody is connected to the new process: the grace, on the stored clock
            assert t.grace_turn == t.turn_seq
            player = t.hand_players[hand.actor]
            bank = t.banks[player][t._pool(hand)]
            deadline = got["turn"][1] - wall(t, 0) + ACT + t.grace_ms() + bank
            assert t.deadline() == deadline
            before = timed_out(t)
            if deadline - 1 > clock.now_ms():  # silent until a millisecond before: not out
                clock.advance(deadline - 1 - clock.now_ms())
                while t.poll():  # a vote may close meanwhile
                    pass
                assert t.hand is hand and timed_out(t) == before
            clock.advance(deadline - clock.now_ms())
            assert t.poll() and timed_out(t) == before + 1
            silent += 1
        # a new process ten minutes later: every deadline past, each fires at once (a few
        # kills after each kind of batch)
        late_checked[kind_of[seq]] += 1
        if late_checked[kind_of[seq]] > 4:
            continue
        cut(log, records, ref.table_id, seq)
        late = restored(log, ref.table_id, ManualClock(9_000, at_kill + LATER - 9_000))
        due = late.due_ms()
        if late.paused == "now":
            assert due is None  # the clock is stopped: nothing runs out
        elif "turn" in got or got["votes"]:
            assert due == 0 and late.poll(), (seq, kind_of[seq])
    # a kill after each kind of batch: a turn, a hand's end, a vote opened, voted and
    # decided, the host's pause and resume, a chat message, a seat and chips taken
    assert {"turn", "end", "vote", "voted", "host", "chat", "sat"} <= last_kinds, last_kinds
    assert silent > 10
