"""Bad input: each refused in English and Spanish, with the table, its log, the bankrolls and
every subscriber exactly as before."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from roomfakes import Client, FakeBank, Room

from tapete.core.actions import Action
from tapete.room.clock import ManualClock
from tapete.room.errors import Refused
from tapete.room.log import EventLog, Game, OnCrash, TableConfig
from tapete.room.table import RoomTable


def state(room: Room) -> object:
    t = room.table
    return ([(r.seq, r.kind, r.payload) for r in room.log.read(t.table_id)],
            dict(room.bank.balances),
            [(s.name, s.chips, s.pending_chips, s.sitting_out) if s else None
             for s in t.table.seats],
            t.players, t.seq, t.turn_seq,
            None if t.hand is None else list(t.hand.events),
            [len(c.messages) for c in [*room.clients.values(), room.spectator]])


def refused(room: Room, command: Callable[[], object]) -> Refused:
    before = state(room)
    with pytest.raises(Refused) as info:
        command()
    assert state(room) == before
    message = info.value.message
    assert message.en and message.es and message.en != message.es
    return info.value


@pytest.fixture
def room() -> Room:
    r = Room(seed=11, players=4)
    r.step()  # a hand in play
    assert r.table.hand is not None
    return r


def actor(room: Room) -> tuple[str, int]:
    t = room.table
    assert t.hand is not None and t.hand.actor is not None
    player = t.players[t.table.seat_of(t.hand.actor)]
    turn = room.clients[player].turn
    assert turn is not None
    return player, turn


def test_stale_and_other_seat_and_illegal_actions(room: Room) -> None:
    t = room.table
    player, turn = actor(room)
    assert t.hand is not None
    other = next(p for p in room.clients if p != player)
    e = refused(room, lambda: t.act(player, turn - 1, Action.call()))
    assert "decision" in e.message.en and "decisión" in e.message.es
    refused(room, lambda: t.act(other, turn, Action.call()))
    refused(room, lambda: t.act("nobody", turn, Action.call()))
    legal = t.hand.legal()
    assert legal.min_to is not None and legal.max_to is not None
    refused(room, lambda: t.act(player, turn, Action.raise_to(legal.max_to + 1)))
    refused(room, lambda: t.act(player, turn, Action.raise_to(legal.min_to - 1)))
    refused(room, lambda: t.act(player, turn, Action.check()))  # facing the big blind
    refused(room, lambda: t.act(player, turn, "call"))  # type: ignore[arg-type]
    refused(room, lambda: t.act(player, "x", Action.call()))  # type: ignore[arg-type]
    t.act(player, turn, Action.call())  # the same request, right, is taken


def test_two_tabs_one_action_wins(room: Room) -> None:
    t = room.table
    player, turn = actor(room)
    tab = Client(player)
    t.subscribe(tab)
    first = room.clients[player]
    # the second tab sees the same seat: the same messages, its own cards included
    assert [m for m in tab.messages] == first.messages
    t.act(player, turn, Action.call())
    assert tab.messages == first.messages
    e = refused(room, lambda: t.act(player, turn, Action.fold()))
    assert "another tab" in e.message.en and "otra pestaña" in e.message.es


def test_buy_ins_names_and_a_full_table() -> None:
    room = Room(seed=2, players=4, config=TableConfig(seats=5))
    t = room.table
    room.bank.balances.update({"new": 10_000, "late": 10_000, "poor": 50})
    room.total += 20_050
    for amount in (-50, 0, 39, 201, 10**30, 2.5, "100", True):
        refused(room, lambda a=amount: t.sit("new", "Newcomer", a))  # type: ignore[misc]
    refused(room, lambda: t.sit("new", "player 1", 100))  # a name taken, in any case
    refused(room, lambda: t.sit("new", "", 100))
    refused(room, lambda: t.sit("new", "x" * 21, 100))
    refused(room, lambda: t.sit("id-0", "Again", 100))  # already seated
    refused(room, lambda: t.sit("poor", "Poor", 100))  # the bankroll does not hold it
    refused(room, lambda: t.sit("new", "Newcomer", 100, seat=0))  # taken
    refused(room, lambda: t.sit("new", "Newcomer", 100, seat=7))  # no such seat
    t.sit("new", "Newcomer", 100)
    assert room.bank.balances["new"] == 10_000 - 100
    e = refused(room, lambda: t.sit("late", "Late", 100))
    assert e.message.en == "the table is full" and e.message.es == "la mesa está completa"
    for amount in (0, -5, 10**30, 1.5):
        refused(room, lambda a=amount: t.add_chips("new", a))  # type: ignore[misc]
    refused(room, lambda: t.add_chips("late", 10))  # no seat
    assert room.conserved()


def test_settings_are_checked_in_both_languages() -> None:
    for bad in ({"seats": 10}, {"seats": 1}, {"min_buy_in": 500}, {"big_blind": 0},
                {"game": "omaha"}, {"public": "yes"}, {"act_ms": -1}, {"colour": "green"},
                {"on_crash": "pray"}):
        with pytest.raises(Refused) as info:
            TableConfig.from_json({**TableConfig().to_json(), **bad})
        assert info.value.message.en != info.value.message.es
    config = TableConfig(seats=9, public=False, bots=True, act_ms=20_000)
    assert TableConfig.from_json(config.to_json()) == config


def test_a_stale_owner_cannot_write() -> None:
    log = EventLog()
    config = TableConfig()
    bank = FakeBank({"a": 1000, "b": 1000})
    first = RoomTable.open(log, config, bank, clock=ManualClock())
    second = RoomTable(log, first.table_id, config, bank, clock=ManualClock())
    first.sit("a", "Ann", 100)
    with pytest.raises(Refused):
        second.sit("b", "Bob", 100)  # its seq is behind the log: not the owner any more
    assert [r.kind for r in log.read(first.table_id)] == ["sat"]
    assert bank.balances == {"a": 900, "b": 1000}


def test_private_table_ids_are_unguessable() -> None:
    log = EventLog()
    ids = {log.create_table(TableConfig(public=False)) for _ in range(50)}
    assert len(ids) == 50 and all(len(i) >= 24 for i in ids)
    with pytest.raises(Refused):
        log.config("guessed")


def test_a_table_without_spectators() -> None:
    log = EventLog()
    bank = FakeBank({"a": 1_000})
    table = RoomTable.open(log, TableConfig(public=False, spectators=False), bank,
                           clock=ManualClock())
    for viewer in (None, "a"):
        with pytest.raises(Refused) as info:
            table.subscribe(Client(viewer))
        assert "spectators" in info.value.message.en and "espectadores" in info.value.message.es
    table.sit("a", "Ann", 100)
    seated = Client("a")
    table.subscribe(seated)  # a player with a seat watches their table
    assert [m["kind"] for m in seated.messages] == ["sat"] and table.subscribers == [seated]


@settings(max_examples=60, deadline=None)
@given(st.builds(
    TableConfig, game=st.sampled_from(list(Game)), small_blind=st.integers(1, 50),
    big_blind=st.just(100), min_buy_in=st.integers(100, 1_000),
    max_buy_in=st.integers(1_000, 10**12), seats=st.integers(2, 9),
    act_ms=st.integers(1_000, 10**6), bank_ms=st.integers(0, 10**6),
    bots=st.booleans(), public=st.booleans(), spectators=st.booleans(),
    on_crash=st.sampled_from(list(OnCrash))))
def test_settings_round_trip_through_json(config: TableConfig) -> None:
    assert TableConfig.from_json(json.loads(json.dumps(config.to_json()))) == config
    assert config.rules().big_blind == 100
