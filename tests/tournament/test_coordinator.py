"""The one coordinator (tapete.tournament.coordinator) reads and writes both kinds' streams as
the earlier two coordinators did: the stored sit-and-go and room tournament of
tests/data/tourney/ replay into it, it writes their records in the same shapes and keys their
bankroll moves the same way, and the rule for one that cannot go on (one ``give_up``) settles
each kind in its own records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tapete.room.log import EventLog, Record
from tapete.tournament.coordinator import Coordinator, RoomTournament, SitAndGo

DATA = Path(__file__).resolve().parents[1] / "data" / "tourney"
ABOUT = json.loads((DATA / "fixture.json").read_text())


def stream(name: str) -> list[Record]:
    log = EventLog(f"sqlite:///{DATA / ABOUT['db']}")
    try:
        return log.read(name)
    finally:
        log.engine.dispose()


def sng_bots(records: list[Record]) -> dict[str, str]:
    """A sit-and-go's bots in the order they registered (the server's kit: by seat number)."""
    started = next(r for r in records if r.kind == "started").payload["seating"]
    bots = {p: name for p, name, _, _ in started if p.startswith("bot:")}
    return dict(sorted(bots.items(), key=lambda x: int(x[0].rsplit(":", 1)[1])))


def room_bots(tour: Coordinator) -> dict[str, str]:
    assert isinstance(tour, RoomTournament)
    return {f"bot:{tour.id}:{i}": f"Bot {i + 1}" for i in range(tour.bot_count)}


class Books:
    """A log and a bankroll that keep what they are told."""

    def __init__(self) -> None:
        self.records: list[tuple[str, int, str, dict[str, Any]]] = []
        self.moves: dict[str, tuple[str, int]] = {}
        self.closed: list[str] = []

    def append(self, table_id: str, first_seq: int,
               records: list[tuple[str, dict[str, Any]]]) -> None:
        for i, (kind, payload) in enumerate(records):
            self.records.append((table_id, first_seq + i, kind, payload))

    def close_table(self, table_id: str) -> None:
        self.closed.append(table_id)

    def take(self, player: str, amount: int, key: str) -> bool:
        self.moves.setdefault(key, (player, -amount))
        return True

    def give(self, player: str, amount: int, key: str) -> None:
        self.moves.setdefault(key, (player, amount))


def replayed(kind: type[Coordinator], name: str) -> tuple[Coordinator, list[Record]]:
    records = stream(name)
    tid = name.split(":", 1)[1]
    tour = kind.replay(tid, records,
                       (lambda _: sng_bots(records)) if kind is SitAndGo else room_bots)
    return tour, records


def test_both_kinds_replay_and_write_the_shapes_they_stored() -> None:
    sid, person = ABOUT["sng"]["table"], ABOUT["sng"]["person"]
    sng, records = replayed(SitAndGo, f"sng:{sid}")
    assert isinstance(sng, SitAndGo) and sng.started and sng.person == person
    assert sng.seq == records[-1].seq and sng.tables == {} and sng.ids == {1: sid}
    for r in records:
        if r.kind == "hand_over":
            again = sng._hand_over_record(1, r.payload["stacks"], r.payload["big_blind_seat"])
            assert again == r.payload
    assert sng.key("buy-in", person, 1) == f"{sid}:sng-buy-in"
    assert sng.key("prize", person) == f"{sid}:sng-prize"
    assert sng.key("refund", person, 1) == f"{sid}:sng-refund"
    tid = ABOUT["tournament"]["id"]
    tour, records = replayed(RoomTournament, f"tournament:{tid}")
    assert tour.started and set(tour.people) == set(ABOUT["tournament"]["people"])
    assert set(tour.ids) == {1, 2}
    for r in records:
        if r.kind == "hand_over":
            again = tour._hand_over_record(r.payload["table"], r.payload["stacks"],
                                           r.payload["big_blind_seat"])
            assert again == r.payload
    assert tour.key("buy-in", "person-a", 1) == f"{tid}:buy-in:person-a:1"
    assert tour.key("prize", "person-a") == f"{tid}:prize:person-a"


def test_one_give_up_settles_each_kind_in_its_own_records() -> None:
    for kind, name, people in (
            (SitAndGo, f"sng:{ABOUT['sng']['table']}", [ABOUT["sng"]["person"]]),
            (RoomTournament, f"tournament:{ABOUT['tournament']['id']}",
             ABOUT["tournament"]["people"])):
        tour, records = replayed(kind, name)
        books = Books()
        tour.log = tour.bankroll = books
        live = tour.live
        assert live is not None and not live.over
        prizes = sum(live.prizes()[:len(live.left())])
        tour.give_up(records)
        assert live.over and tour.notice is not None and books.closed == [name]
        paid = {p: a for p, a in books.moves.values()}
        assert set(paid) == set(people) and all(a > 0 for a in paid.values())
        assert sum(e.prize for e in live.entrants.values()) == prizes
        seqs = [seq for _, seq, _, _ in books.records]
        assert seqs == list(range(records[-1].seq + 1, records[-1].seq + 1 + len(people)))
        for (sname, _, rkind, payload), (key, (pid, amount)) in zip(
                books.records, books.moves.items(), strict=True):
            assert sname == name and rkind == "refund"
            want = {"amount": amount, "key": key}
            assert payload == (want if kind is SitAndGo else {"player": pid, **want})
            assert key == tour.key("prize", pid)
