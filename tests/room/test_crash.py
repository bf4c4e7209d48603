"""Crash resume: the table thrown away at 20 random points (mid-hand, between hands, right
after an append, before the money moved or the news went out) and restored from its log
alone plays on exactly as the table that never crashed: the same records, the same cards,
the same player to act, every chip accounted for."""

from __future__ import annotations

import random

import pytest
from roomfakes import Crash, Room

from tapete.core.actions import Action
from tapete.room.errors import Refused
from tapete.room.log import OnCrash, TableConfig
from tapete.room.table import RoomTable
from tapete.room.votes import Votes

STEPS = 1500


def records(room: Room) -> list[tuple[int, str, object]]:
    return [(r.seq, r.kind, r.payload) for r in room.log.read(room.table.table_id)]


def snapshot(t: RoomTable) -> object:
    hand = t.hand
    return (
        [(s.name, s.chips, s.pending_chips, s.sitting_out) if s else None
         for s in t.table.seats],
        t.players, t.banks, t.dealt, t.seq, t.turn_seq, t.hand_players,
        None if hand is None else (hand.events, hand.deck, hand.actor,
                                   hand.legal() if hand.actor is not None else None),
    )


def test_twenty_crashes_resume_exactly() -> None:
    reference = Room(seed=7, timeouts=True)
    for _ in range(STEPS):
        reference.step()
    points = sorted(random.Random(99).sample(range(50, STEPS), 20))
    room = Room(seed=7, timeouts=True)
    kinds = {"mid-hand": 0, "between hands": 0, "after an append": 0}
    step = 0
    for k, point in enumerate(points):
        while step < point:
            room.step()
            step += 1
        how = k % 3
        if how == 0:  # between two commands
            kinds["mid-hand" if room.table.hand is not None else "between hands"] += 1
            before = snapshot(room.table)
            room.restart()
            # the hand in play carries on: same cards, same player to act, same options
            assert snapshot(room.table) == before
        else:  # the next command dies right after its records are stored
            kinds["after an append"] += 1
            seq = room.table.seq
            if how == 1:
                room.bank.crash_next = True  # before its bankroll moves (if any)
                room.spectator.crash_on_send = True  # or before it is published
            else:
                next(iter(room.clients.values())).crash_on_send = True
            try:
                while room.table.seq == seq:
                    room.step()
                    step += 1
            except Crash:
                step += 1
            room.bank.crash_next = False
            for c in [*room.clients.values(), room.spectator]:
                c.crash_on_send = False
            assert room.log.last_seq(room.table.table_id) > seq  # it was stored
            room.restart()
        assert room.conserved() or room.table.hand is not None
    while step < STEPS:
        room.step()
        step += 1
    assert kinds["mid-hand"] and kinds["after an append"]
    # the same game as the table that never crashed, record for record, chip for chip
    assert records(room) == records(reference)
    assert room.bank.balances == reference.bank.balances
    assert snapshot(room.table) == snapshot(reference.table)
    for c in [*room.clients.values(), room.spectator]:
        assert c.last == room.table.seq  # every client caught up, gap-free


def test_the_clock_keeps_its_deadline_with_the_grace() -> None:
    """A restart gives the player to act no fresh clock: the turn began when its record was
    stored, and the disconnect grace is added (nobody is connected to the restored table
    yet). The old rule, a fresh clock at each restore, let a hand hang for good through
    restarts that came faster than the clock (issue 29, 3)."""
    room = Room(seed=3, players=3)
    room.step()  # the first hand starts
    assert room.table.hand is not None
    deadline = room.table.deadline()  # the player is connected: no grace
    assert deadline is not None
    room.clock.advance(14_000)
    room.restart()
    t = room.table
    assert t.deadline() == deadline + t.grace_ms()
    room.clock.advance(deadline + t.grace_ms() - 1 - room.clock.now_ms())
    t.poll()  # not timed out yet
    assert t.hand is not None
    assert not any(getattr(e, "timed_out", False) for e in t.hand.events)
    room.clock.advance(1)
    t.poll()
    assert any(getattr(e, "timed_out", False) for e in t.hand.events)


@pytest.mark.parametrize("mid_hand", [True, False])
def test_void_returns_every_chip_to_where_it_stood(mid_hand: bool) -> None:
    room = Room(seed=5, config=TableConfig(on_crash=OnCrash.VOID), players=4)
    room.step()
    t = room.table
    assert t.hand is not None
    started = dict(zip(t.table.hand_seats, t.hand.starting_stacks, strict=True))
    if mid_hand:
        # a raise puts chips in the pot, then the table dies
        legal = t.hand.legal()
        player = t.players[t.table.seat_of(t.hand.actor)]
        assert legal.min_to is not None
        t.act(player, room.clients[player].turn or 0, Action.raise_to(legal.min_to))
    hand_no = t.hand_no
    room.restart()
    t = room.table
    assert t.hand is None  # called off
    assert room.log.read(t.table_id)[-1].kind == "void"
    for seat, chips in started.items():
        s = t.table.seats[seat]
        assert s is not None and s.chips == chips
    assert room.conserved()
    assert room.spectator.messages[-1]["kind"] == "void"
    # the voiding is stored: a second restart replays it and voids nothing more
    seq = t.seq
    room.restart()
    t = room.table
    assert t.seq == seq and t.hand is None and room.conserved()
    # and the room plays on: the next hand is the next number
    room.step()
    assert t.hand is not None and t.hand_no == hand_no + 1


def test_a_restart_starts_from_the_last_snapshot_and_plays_on_the_same() -> None:
    """Every twenty hands the table keeps its state between hands: a restore loads it and
    replays only the records after it, and gets the very table the whole log gives."""
    import sqlalchemy as sa

    from tapete.room.log import SNAPSHOTS, EventLog
    from tapete.room.table import SNAPSHOT_EVERY, restore

    room = Room(seed=11, timeouts=True)
    while room.table.hand_no < 2 * SNAPSHOT_EVERY + 5 or room.table.hand is not None:
        room.step()
    tid = room.table.table_id
    snap = room.log.last_snapshot(tid)
    assert snap is not None
    seq, state = snap
    assert state["hand_no"] == 2 * SNAPSHOT_EVERY and seq < room.table.seq
    read: list[int] = []
    log = EventLog(room.log.engine)
    reading = log.read
    log.read = lambda t, after=0: read.append(after) or reading(t, after)  # type: ignore
    from_snapshot = restore(log, tid, room.bank, clock=room.clock, deck=room.deck,
                            secret=room.secret)
    assert read == [seq]  # the records after the snapshot, no more
    with room.log.engine.begin() as conn:
        conn.execute(sa.delete(SNAPSHOTS))
    from_log = restore(EventLog(room.log.engine), tid, room.bank, clock=room.clock,
                       deck=room.deck, secret=room.secret)
    assert from_snapshot.snapshot() == from_log.snapshot() == room.table.snapshot()
    assert snapshot(from_snapshot) == snapshot(from_log) == snapshot(room.table)
    # and the table restored from its snapshot plays on as the one that never stopped
    room.table = from_snapshot
    for c in [*room.clients.values(), room.spectator]:
        room.table.subscribe(c, after=c.last)
    reference = Room(seed=11, timeouts=True)
    while reference.table.seq < room.table.seq:
        reference.step()
    for _ in range(300):
        room.step()
        reference.step()
    assert records(room) == records(reference)
    assert room.conserved() or room.table.hand is not None


def _to_a_runs_vote(room: Room) -> int:
    """Deal, then every player all in preflop: the run-it-twice vote opens. Its seq."""
    t = room.table
    room.step()
    while not t.votes:
        hand = t.hand
        assert hand is not None and hand.actor is not None
        player = t.players[t.table.seat_of(hand.actor)]
        legal = hand.legal()
        action = Action.raise_to(legal.max_to) if legal.max_to is not None \
            else Action.check_or_call(legal)
        t.act(player, room.clients[player].turn or 0, action)
    (vote,) = t.votes
    assert t.votes[vote]["kind"] == "runs"
    return vote


def test_a_voided_hand_closes_its_run_it_twice_vote() -> None:
    """Issue 29, 2: a kill during a run-it-twice vote at an ``on_crash: void`` table. The
    hand is called off and its vote closes with it, as a record (a ``decided``, ``closed``)
    that a later restore replays: when the vote's time is up nothing happens (it used to
    fail ``assert hand is not None``, or set the runs of the next hand), and the table plays
    on, every chip where it stood."""
    room = Room(seed=5, config=TableConfig(on_crash=OnCrash.VOID, run_it=2), players=3)
    vote = _to_a_runs_vote(room)
    started = dict(zip(room.table.table.hand_seats, room.table.hand.starting_stacks,
                       strict=True))
    room.restart()  # the kill: the hand is called off
    t = room.table
    assert t.hand is None and not t.votes
    after = [(r.kind, r.payload) for r in room.log.read(t.table_id)]
    void = [k for k, _ in after].index("void")
    assert after[void + 1] == ("decided", {"vote": vote, "kind": "runs", "passed": False,
                                           "closed": True})
    sent = [m["kind"] for m in room.spectator.messages]
    assert sent[sent.index("void") + 1] == "decided"  # the watchers are told
    for seat, chips in started.items():
        s = t.table.seats[seat]
        assert s is not None and s.chips == chips
    with pytest.raises(Refused) as late:  # a vote sent late is told it is over
        t.vote(next(iter(room.clients)), vote, True)
    assert late.value.code == "stale"
    room.clock.advance(room.config.act_ms + 1)  # the vote's time would be up
    seq = t.seq
    room.restart()  # the close is stored: replayed, nothing more stored, no vote reopens
    t = room.table
    assert t.seq == seq and not t.votes and t.hand is None and room.conserved()
    hands = t.hand_no
    while t.hand_no < hands + 3 or t.hand is not None:  # and the table plays on
        room.step()
    assert room.conserved() and not t.broken


def test_a_log_that_left_a_voided_hands_vote_open_is_restored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A log an older version wrote: the hand voided, its vote left open (no ``decided``
    after the ``void``). It restores (the vote closed, silently: no record to add in the
    middle of the log) instead of failing to replay, and the table plays on."""
    room = Room(seed=5, config=TableConfig(on_crash=OnCrash.VOID, run_it=2), players=3)
    _to_a_runs_vote(room)
    with monkeypatch.context() as m:  # the older version's void: the vote stays open
        m.setattr(Votes, "close", lambda self, batch, kinds: None)
        room.restart()
    assert room.table.votes  # as the older version left it
    assert "decided" not in [r.kind for r in room.log.read(room.table.table_id)]
    room.restart()
    t = room.table
    assert not t.votes and t.hand is None and room.conserved()
    room.clock.advance(room.config.act_ms + 1)
    hands = t.hand_no
    while t.hand_no < hands + 2 or t.hand is not None:
        room.step()
    assert room.conserved() and not t.broken
