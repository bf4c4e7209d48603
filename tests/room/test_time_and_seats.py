"""Timers on the injected clock (time to act, the preflop and postflop banks, +5 s every 10
hands, the disconnect grace), sitting out and back in, adding chips, leaving mid-hand, and
crashes between a record and its bankroll move."""

from __future__ import annotations

import pytest
from roomfakes import Crash, Room

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.room.log import Record, TableConfig
from tapete.room.table import POST, PRE

ACT, BANK = 15_000, 30_000


def started(players: int = 3, seed: int = 1) -> Room:
    room = Room(seed=seed, players=players)
    room.step()
    assert room.table.hand is not None
    return room


def to_act(room: Room) -> str:
    t = room.table
    assert t.hand is not None and t.hand.actor is not None
    return t.players[t.table.seat_of(t.hand.actor)]


def test_a_timeout_folds_then_sits_out() -> None:
    room = started()
    t = room.table
    slow = to_act(room)
    room.clock.advance(ACT + BANK - 1)
    t.poll()
    assert to_act(room) == slow  # a millisecond left in the bank
    room.clock.advance(1)
    t.poll()
    assert t.hand is not None
    last = [e for e in t.hand.events if isinstance(e, ev.Acted)][-1]
    assert last.timed_out and last.action == ev.FOLD  # facing the big blind: folded
    assert t.banks[slow] == {PRE: 0, POST: BANK}  # the preflop bank is spent, not the other
    while t.hand is not None:
        room.step()
    seat = t.seat_of(slow)
    assert seat is not None
    s = t.table.seats[seat]
    assert s is not None and s.sitting_out  # sat out after the hand (docs/rules.md §3)
    for _ in range(3):  # not dealt while sitting out
        while t.hand is None:
            room.step()
        assert slow not in t.hand_players
        while t.hand is not None:
            room.step()
    t.sit_in(slow, post=True)
    while t.hand is None:
        room.step()
    assert slow in t.hand_players  # posting, dealt in at once


def test_the_bank_pays_for_slow_decisions_and_grows_every_ten_hands() -> None:
    room = started()
    t = room.table
    player = to_act(room)
    room.clock.advance(ACT + 3_000)
    t.act(player, room.clients[player].turn or 0, Action.call())
    assert t.banks[player] == {PRE: BANK - 3_000, POST: BANK}
    while t.hand_no < 10:
        room.step()
    # ten hands dealt: both banks grew by 5 s (the preflop one from what was left)
    assert t.dealt[player] == 10
    assert t.banks[player] == {PRE: BANK - 3_000 + 5_000, POST: BANK + 5_000}
    other = next(p for p in t.dealt if p != player)
    assert t.banks[other] == {PRE: BANK + 5_000, POST: BANK + 5_000}


def test_disconnect_grace_scales_with_the_pot() -> None:
    room = started()
    t = room.table
    assert t.hand is not None
    player = to_act(room)
    plain = t.deadline()
    assert plain == t.turn_at + ACT + BANK
    t.unsubscribe(room.clients[player])
    pot = t.hand.pot_total()
    c = room.config
    grace = min(c.grace_max_ms, c.grace_base_ms + c.grace_per_bb_ms * (pot // c.big_blind))
    assert t.grace_ms() == grace and t.deadline() == plain + grace
    room.clock.advance(ACT + BANK)
    t.poll()
    assert to_act(room) == player  # the seat is held
    room.clock.advance(grace)
    t.poll()
    assert to_act(room) != player
    # a big pot gets a longer grace, up to its cap
    assert room.config.grace_max_ms == 60_000


def test_leave_mid_hand_returns_the_chips_after_it() -> None:
    room = started(players=4)
    t = room.table
    assert t.hand is not None
    actor = to_act(room)
    leaver = next(p for p in t.hand_players if p != actor)
    t.leave(leaver)
    assert t.seat_of(leaver) is not None  # still seated: the hand goes on
    balance = room.bank.balances[leaver]
    while t.hand is not None:
        room.step()  # at the leaver's turn the table checks or folds for them
    assert t.seat_of(leaver) is None
    left = room.log.read(t.table_id)
    index = room_hand_index(left, leaver)
    leave_at = next(r.seq for r in left if r.kind == "leave")
    own = [r.payload["event"] for r in left if r.seq > leave_at and r.kind == "event"
           and r.payload["event"]["type"] == "Acted" and r.payload["event"]["player"] == index]
    assert own and all(e["timed_out"] for e in own)  # checked or folded for
    back = [r for r in left if r.kind == "left"][-1].payload["chips"]
    assert back > 0 and room.bank.balances[leaver] == balance + back
    assert room.conserved()
    # the others play on, three-handed
    while t.hand is None:
        room.step()
    assert t.hand is not None and leaver not in t.hand_players


def room_hand_index(records: list[Record], player: str) -> int:
    start = [r for r in records if r.kind == "start"][-1]
    index: int = start.payload["players"].index(player)
    return index


def test_chips_added_during_a_hand_wait_for_its_end() -> None:
    room = Room(seed=1, players=3, config=TableConfig(max_buy_in=300))
    t = room.table
    room.step()
    player = next(p for p in room.clients if to_act(room) != p)
    seat = t.seat_of(player)
    assert seat is not None
    before = room.bank.balances[player]
    taken = t.add_chips(player, 500)  # the table maximum lets in what the stack has room for
    s = t.table.seats[seat]
    assert s is not None and s.pending_chips == taken == 300 - s.chips == 100
    assert room.bank.balances[player] == before - taken
    while t.hand is not None:
        room.step()
    assert room.conserved()  # what found no room after the hand came back as a refund


def test_sit_out_between_hands_and_back_waiting_for_the_big_blind() -> None:
    room = Room(seed=4, players=4)
    t = room.table
    room.step()
    while t.hand is not None:
        room.step()
    t.sit_out("id-1")
    for _ in range(5):  # the big blind passes the empty chair: it owes the blinds
        while t.hand is None:
            room.step()
        assert "id-1" not in t.hand_players
        while t.hand is not None:
            room.step()
    seat = t.table.seats[t.seat_of("id-1") or 0]
    assert seat is not None and seat.missed_big
    t.sit_in("id-1")  # waits for the big blind
    dealt_at_bb = False
    for _ in range(8):
        while t.hand is not None:
            room.step()
        while t.hand is None:
            room.step()
        if "id-1" in t.hand_players:
            seat = t.seat_of("id-1")
            dealt_at_bb = seat == t.table.big_blind_seat
            break
    assert dealt_at_bb


@pytest.mark.parametrize("command", ["sit", "leave"])
def test_a_crash_between_a_record_and_its_bankroll_move(command: str) -> None:
    room = Room(seed=6, players=2)
    t = room.table
    room.bank.balances["new"] = 1_000
    room.total += 1_000
    if command == "leave":
        t.sit("new", "New", 150)
    room.bank.crash_next = True
    with pytest.raises(Crash):
        if command == "sit":
            t.sit("new", "New", 150)
        else:
            t.leave("new")
    room.restart()  # the stored record's move is made now, and once only
    room.restart()
    assert room.bank.balances["new"] == (850 if command == "sit" else 1_000)
    assert room.conserved()
