"""A room table's ledger and hand histories through the real app (tapete.server.room_exports):
whoever sat at the table reads them; someone who never did is refused (403), an unknown table
or a practice table is not found (404). The JSON and the CSV net to zero, the .phhs passes
``tapete verify``, the .txt reads back with the PokerStars reader, and a table the process
does not run is read from its log alone, to the same ledger."""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_server import cookie_pid, settings

from tapete.cli import main
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.hand import Hand
from tapete.core.setup import HandSetup
from tapete.history import phh, pokerstars
from tapete.history.replay import replay
from tapete.room.clock import ManualClock
from tapete.room.hands import finished
from tapete.room.log import TableConfig
from tapete.room.table import RoomTable, TableOwner
from tapete.server import create_app
from tapete.server.money import BOT_PREFIX
from tapete.server.rooms import Room, Running

BOB, BOT = "id-bob", f"{BOT_PREFIX}ledger:0"
ROUTES = ("ledger", "ledger.csv", "hands.phhs", "hands.txt")


class Bank:
    """The players' bankrolls, each move made once per key."""

    def __init__(self) -> None:
        self.balances: dict[str, int] = {}
        self.keys: set[str] = set()

    def balance(self, player: str) -> int:
        return self.balances.setdefault(player, 10_000)

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


def caller(setup: HandSetup, events: list[Any], p: int) -> Action:
    hand = Hand.from_events(setup.rules, setup.stacks, events, **setup.hand_args())
    return Action.check_or_call(hand.legal())


def play(table: RoomTable, hands: int, rng: random.Random) -> None:
    """Random legal actions for the people, the bot's by the table, until hand ``hands`` is
    in play (a busted player buys back in)."""
    while table.hand is None or table.hand_no < hands:
        hand = table.hand
        if hand is None:
            busted = [p for s, p in table.players.items()
                      if (seat := table.table.seats[s]) is not None and seat.chips == 0]
            if busted:
                table.add_chips(busted[0], 100)
            else:
                assert table.poll()
            continue
        assert hand.actor is not None and table.turn_seq is not None
        player = table.hand_players[hand.actor]
        if player in table.agents:
            assert table.poll()
            continue
        legal = hand.legal()
        roll = rng.random()
        if roll < 0.2 and legal.min_to is not None:
            action = Action.bet(legal.min_to) if legal.is_bet else Action.raise_to(legal.min_to)
        elif roll < 0.4 and legal.fold and not legal.check:
            action = Action.fold()
        else:
            action = Action.check_or_call(legal)
        table.act(player, table.turn_seq, action)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings(tmp_path))) as c:
        yield c


def identity(c: TestClient) -> tuple[str, str]:
    """A new visitor: (its cookie, its player id)."""
    c.cookies.clear()
    c.get("/")
    return c.cookies["tapete_id"], cookie_pid(c)


def as_(c: TestClient, cookie: str | None) -> None:
    c.cookies.clear()
    if cookie is not None:
        c.cookies.set("tapete_id", cookie)


def open_table(room: Room, alice: str, rng: random.Random, carol: str = "id-carol"
               ) -> RoomTable:
    """A table of the room's log, run by this process (no owner task: the test plays it),
    hosted by Alice, with Alice, Bob and a bot, and Carol from the fourth hand; 12 hands,
    the 12th still in play."""
    config = TableConfig()
    table_id = room.log.create_table(config, "ledger-table")
    deck_rng = random.Random(1)
    table = RoomTable(room.log, table_id, config, Bank(), clock=ManualClock(0),
                      deck=lambda: Deck(seed=deck_rng.randrange(2**32)),
                      agents={BOT: caller})
    table.sit(alice, "Alice", 100)
    table.sit(BOB, "Bob", 150)
    table.sit(BOT, "Robo", 200)
    table.appoint(alice)
    play(table, 4, rng)
    table.sit(carol, "Carol", 120)
    play(table, 6, rng)
    table.leave(BOB)  # during a hand: his seat empties at its end
    play(table, 12, rng)
    room.tables[table_id] = Running(table, TableOwner(table))
    return table


def test_the_ledger_and_the_hands_of_a_room_table(client: TestClient, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    room: Room = client.app.state.room  # type: ignore[attr-defined]
    stranger, _ = identity(client)
    carol, carol_pid = identity(client)
    alice, alice_pid = identity(client)
    table = open_table(room, alice_pid, random.Random(4), carol_pid)
    base = f"/api/room/tables/{table.table_id}/"

    # someone who never sat at the table: refused, in both languages; so is no identity
    for cookie in (stranger, None):
        as_(client, cookie)
        for route in ROUTES:
            r = client.get(base + route)
            assert r.status_code == 403, route
            assert r.json()["error"]["es"].startswith("Solo los jugadores")
    as_(client, alice)
    for route in ROUTES:
        assert client.get(f"/api/room/tables/nope/{route}").status_code == 404
    # a practice table is its person's alone: not found, even by someone who sat there
    practice = room.log.create_table(TableConfig(practice=True), "practice-table")
    room.log.append(practice, 1, [("sat", {"seat": 0, "player": alice_pid, "name": "Alice",
                                           "chips": 100, "wait": False})])
    assert client.get(f"/api/room/tables/{practice}/ledger").status_code == 404

    # the ledger: Alice's line is hers, the bot is the house, everyone nets to zero
    r = client.get(base + "ledger")
    assert r.status_code == 200
    book = r.json()
    assert alice_pid not in r.text and BOB not in r.text and BOT not in r.text
    lines = book["lines"]
    assert [x["name"]["en"] for x in lines] == ["Alice", "Bob", "Carol", "the house"]
    assert [x["you"] for x in lines] == [True, False, False, False]
    assert [x["seated"] for x in lines] == [True, False, True, True]
    assert sum(x["net"] for x in lines) + book["rake"] == 0
    assert book["hands"] == 11  # the twelfth is in play
    seat = table.seat_of(alice_pid)
    assert seat is not None
    s = table.table.seats[seat]
    assert s is not None and lines[0]["at_table"] == s.chips + s.pending_chips
    assert lines[1]["cash_out"] > 0 and lines[1]["at_table"] == 0
    nets = [x["net"] for x in lines]
    for p in book["settlement"]:
        nets[p["from"]] += p["amount"]
        nets[p["to"]] -= p["amount"]
    assert nets == [0, 0, 0, 0]

    # the CSV
    r = client.get(base + "ledger.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"] == \
        f'attachment; filename="tapete-{table.table_id}-ledger.csv"'
    rows = list(csv.reader(io.StringIO(r.text)))
    gap = rows.index([])
    assert [row[0] for row in rows[1:gap]] == ["Alice", "Bob", "Carol", "the house"]
    assert sum(int(row[5]) for row in rows[1:gap]) == 0
    spanish = client.get(base + "ledger.csv?lang=es").text
    assert spanish.startswith("jugador,entrada,recompras,retiradas,en la mesa,neto")

    # the PHH file verifies, hand by hand, with tapete verify
    r = client.get(base + "hands.phhs")
    assert r.status_code == 200
    assert r.headers["content-disposition"].endswith(f'-{table.table_id}-hands.phhs"')
    path = tmp_path / "hands.phhs"
    path.write_text(r.text, encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{path} #{k}: verified: the cards dealt are the committed deck's, in order"
                   for k in range(1, 12)]
    # Alice's own cards in every hand she was dealt: every hand here
    for item in phh.read_text(r.text):
        assert item.record is not None
        res = replay(item.record)
        assert res.engine is not None and res.error is None
        assert res.engine.hole[res.engine.names.index("Alice")] is not None

    # the PokerStars text reads back, Alice the hero
    r = client.get(base + "hands.txt")
    assert r.status_code == 200
    assert r.headers["content-disposition"].endswith(f'-{table.table_id}-hands.txt"')
    read = list(pokerstars.read_text(r.text))
    assert [x.hand_id for x in read if not isinstance(x, pokerstars.ParseError)] == \
        [str(k) for k in range(1, 12)]
    for record in read:
        assert not isinstance(record, pokerstars.ParseError)
        res = replay(record)
        assert res.error is None and not res.mismatches
    assert r.text.count("Dealt to Alice [") == 11

    # Carol, who sat down during the fourth hand, reads only the hands she was dealt into
    # (Alice, the host, read every hand above); the ledger is the whole table's for her too
    dealt = [k for k, played in enumerate(finished(room.log.read(table.table_id)), 1)
             if carol_pid in played.players]
    assert dealt and dealt[0] > 4 and dealt == list(range(dealt[0], 12))
    as_(client, carol)
    assert client.get(base + "ledger").json()["lines"][2]["you"] is True
    items = list(phh.read_text(client.get(base + "hands.phhs").text))
    assert len(items) == len(dealt)
    for item in items:
        assert item.record is not None
        res = replay(item.record)
        assert res.engine is not None and res.error is None
        assert res.engine.hole[res.engine.names.index("Carol")] is not None
    text = client.get(base + "hands.txt").text
    assert [x.hand_id for x in pokerstars.read_text(text)
            if not isinstance(x, pokerstars.ParseError)] == [str(k) for k in dealt]
    assert text.count("Dealt to Carol [") == len(dealt)
    as_(client, alice)

    # a table this process does not run: read from the log alone, the same ledger
    running = room.tables.pop(table.table_id)
    assert client.get(base + "ledger").json() == book
    room.tables[table.table_id] = running
    assert json.loads(client.get(base + "ledger").text) == book
