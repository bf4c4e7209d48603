"""The practice room's storage on a real PostgreSQL server.

``TAPETE_TEST_POSTGRES`` is an SQLAlchemy URL of a database the tests may create schemas in
(scripts/test.sh starts Debian's server and sets it). Without it these tests are skipped on a
developer's machine, but fail under CI, which must run them. Each test works in a fresh schema
of its own, dropped at the end, so runs never see each other's rows.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url
from test_server import next_state, play_three_hands, settings

import tapete
from tapete.server.storage import HandRow, PlayerRow, Storage, database_url, players_table

ENV = "TAPETE_TEST_POSTGRES"


def server_url() -> str:
    url = os.environ.get(ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"CI must test PostgreSQL: {ENV} is unset (scripts/test.sh sets it)",
                        pytrace=False)
        pytest.skip(f"{ENV} is unset: no PostgreSQL server to test")
    return database_url(url)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The URL of a fresh, empty schema on the test server (dropped afterwards)."""
    url = server_url()
    schema = f"tapete_test_{secrets.token_hex(6)}"
    admin = create_engine(url)
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}) \
            .render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test on both: SQLite (the default, always there) and the server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tapete.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def storage(db_url: str) -> Iterator[Storage]:
    s = Storage(db_url)
    yield s
    s.close()


def hand(player_id: str, n: int, net: int = 0) -> HandRow:
    return HandRow(
        hand_id=f"s{player_id[:6]}-{n}", player_id=player_id, session=f"s{player_id[:6]}",
        number=n, played_at=1_790_000_000.123456 + n,
        rules={"structure": "no-limit", "blinds": [1, 2]},
        setup={"stacks": [200, 200], "names": ["Tú", "Ödön 🂡"], "you": 0},
        events=[{"type": "HoleDealt", "player": 0, "cards": [51, 50]}], net=net,
        summary={"hand_id": f"s{player_id[:6]}-{n}", "net": net, "cards": "As Ks"})


# ---------------------------------------------------------------------- the schema
def test_columns_have_server_types(pg_url: str) -> None:
    storage = Storage(pg_url)
    cols = {t: {c["name"]: str(c["type"]) for c in inspect(storage.engine).get_columns(t)}
            for t in ("tapete_players", "tapete_hands", "tapete_meta")}
    storage.close()
    assert cols["tapete_players"]["bankroll"] == "BIGINT"
    assert cols["tapete_players"]["updated"] == "DOUBLE PRECISION"
    assert cols["tapete_hands"]["id"] == "BIGINT"  # BIGSERIAL
    assert cols["tapete_hands"]["played_at"] == "DOUBLE PRECISION"
    assert cols["tapete_hands"]["events"] == "TEXT"


def test_a_plain_postgresql_url_means_psycopg() -> None:
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url("postgres://u:p@h:5433/db") == "postgresql+psycopg://u:p@h:5433/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_a_missing_driver_is_named() -> None:
    with pytest.raises(RuntimeError, match="'pg8000' for postgresql[+]pg8000 is not installed"):
        Storage("postgresql+pg8000://u:p@localhost/db")


# ---------------------------------------------------------------------- players and money
def test_players_and_bankrolls(storage: Storage) -> None:
    p = storage.new_player()
    assert (p.bankroll, p.at_table) == (10_000, 0)
    assert storage.get_player(p.id) == p
    assert storage.get_player("nobody") is None
    assert storage.ensure_player(p.id) == p
    other = storage.ensure_player("nobody")
    assert other.id != p.id and other.id != "nobody"

    row = storage.add_money(p.id, bankroll=-2_000, at_table=2_000)  # a buy-in
    assert row is not None and (row.bankroll, row.at_table) == (8_000, 2_000)
    row = storage.add_money(p.id, bankroll=500)
    assert row is not None and row.bankroll == 8_500
    assert storage.add_money(p.id, bankroll=-9_000) is None  # not below zero: nothing changes
    assert storage.add_money("nobody", bankroll=1) is None
    assert storage.get_player(p.id) == row

    back = storage.cash_out(p.id)  # a table lost in a restart
    assert (back.bankroll, back.at_table) == (10_500, 0)
    reset = storage.reset_bankroll(p.id)
    assert reset is not None and (reset.bankroll, reset.at_table) == (10_000, 0)
    assert storage.reset_bankroll("nobody") is None
    assert storage.get_player(other.id) == other  # the other player was never touched
    huge = storage.add_money(p.id, bankroll=2**40)  # a BIGINT, not a 32-bit INTEGER
    assert huge is not None and huge.bankroll == 10_000 + 2**40
    # every change is a ledger row, in order, and the ledger adds up to the money
    kinds = [r["kind"] for r in storage.ledger(p.id)]
    assert kinds == ["new", "buy_in", "adjust", "restart", "reset", "adjust"]
    assert storage.books(p.id) == []


def test_the_books_catch_money_written_behind_the_ledger(storage: Storage) -> None:
    p = storage.new_player()
    storage.move(p.id, "buy_in", -300, 300)
    with storage.engine.begin() as conn:  # what the old absolute writes could do
        conn.execute(players_table.update().where(players_table.c.id == p.id)
                     .values(at_table=290))
    assert storage.books(p.id) and "ledger" in storage.books(p.id)[-1]
    with pytest.raises(ValueError):
        storage.move(p.id, "gift", 1, 0)


def test_visitors_who_never_played_expire(storage: Storage) -> None:
    idle = storage.new_player()
    keeps = storage.new_player()
    storage.move(keeps.id, "buy_in", -200, 200)
    storage.move(keeps.id, "cash_out", 200, -200)
    before = storage.count_players()
    assert storage.expire_players(idle_for=-1) == 1  # everyone counts as idle
    assert storage.get_player(idle.id) is None and storage.get_player(keeps.id) is not None
    assert storage.count_players() == before - 1
    assert storage.expire_players(idle_for=3600) == 0  # nobody idle that long


def test_hands_are_stored_and_listed(storage: Storage) -> None:
    p = storage.new_player()
    q = storage.new_player()
    storage.move(p.id, "buy_in", -200, 200)
    for n in range(1, 6):
        storage.save_hand(hand(p.id, n, net=n * 10))
    storage.save_hand(hand(q.id, 1))
    listed = storage.list_hands(p.id)
    assert [h.number for h in listed] == [5, 4, 3, 2, 1]  # the newest first
    assert [h.number for h in storage.list_hands(p.id, 2)] == [5, 4]
    assert listed[-1] == hand(p.id, 1, net=10)  # JSON, accents, emoji and times round-trip
    assert storage.get_hand(p.id, listed[0].hand_id) == listed[0]
    assert storage.get_hand(q.id, listed[0].hand_id) is None  # only your own hands
    money = storage.get_player(p.id)
    assert money is not None and (money.bankroll, money.at_table) == (9_800, 350)
    # a hand stored twice is refused, and the money written with it is not kept either
    with pytest.raises(Exception, match="(?i)unique|duplicate"):
        storage.save_hand(hand(p.id, 5, net=1))
    assert storage.get_player(p.id) == money
    assert storage.books(p.id) == []
    assert len(storage.list_hands(p.id)) == 5


def test_the_secret_key_is_made_once(db_url: str) -> None:
    stores = [Storage(db_url) for _ in range(4)]
    try:
        keys: list[str] = []
        barrier = threading.Barrier(len(stores))

        def first(s: Storage) -> None:
            barrier.wait()
            keys.append(s.secret_key())

        threads = [threading.Thread(target=first, args=(s,)) for s in stores]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(keys) == 4 and len(set(keys)) == 1 and len(keys[0]) >= 40
        assert stores[0].secret_key() == keys[0]
    finally:
        for s in stores:
            s.close()
    again = Storage(db_url)
    assert again.secret_key() == keys[0]
    again.close()


# ---------------------------------------------------------------------- several processes
WORKER = """
import sys
from tapete.server.storage import Storage
url, pid, kind, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s = Storage(url)
print("ready", flush=True)
sys.stdin.readline()
for _ in range(n):
    if kind == "win":
        assert s.add_money(pid, bankroll=3) is not None
    else:  # chips from the bankroll to the table
        assert s.add_money(pid, bankroll=-1, at_table=1) is not None
s.close()
print("done", flush=True)
"""


def worker_env() -> dict[str, str]:
    src = str(Path(tapete.__file__).resolve().parents[1])
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": src + (os.pathsep + path if path else "")}


def test_two_processes_never_lose_a_bankroll_update(db_url: str) -> None:
    storage = Storage(db_url)
    pid = storage.new_player().id
    n = 300
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, db_url, pid, kind, str(n)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env=worker_env())
             for kind in ("win", "buy")]
    try:
        for p in procs:  # both connected before either starts: their updates overlap
            assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        for p in procs:
            out, _ = p.communicate(timeout=120)
            assert p.returncode == 0 and out.strip() == "done"
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    row = storage.get_player(pid)
    assert row is not None
    assert (row.bankroll, row.at_table) == (10_000 + 3 * n - n, n)
    storage.close()


def test_reopening_keeps_the_tables_and_the_data(db_url: str) -> None:
    def table_oids(s: Storage) -> dict[str, int]:
        if s.sqlite:  # the file's tables, by the page each starts at
            with s.engine.connect() as conn:
                return {str(r[0]): int(r[1]) for r in conn.execute(text(
                    "SELECT name, rootpage FROM sqlite_master WHERE type = 'table'"))}
        with s.engine.connect() as conn:
            return {t: int(conn.execute(text("SELECT CAST(:t AS regclass)::oid"),
                                        {"t": t}).scalar_one())
                    for t in ("tapete_players", "tapete_hands", "tapete_meta")}

    # processes starting together on an empty schema: one creates the tables, none fails
    opened: list[Storage] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def open_one() -> None:
        barrier.wait()
        try:
            opened.append(Storage(db_url))
        except BaseException as exc:  # pragma: no cover - what the test is looking for
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and len(opened) == 4
    first = opened[0]
    oids = table_oids(first)
    p = first.new_player()
    first.add_money(p.id, bankroll=-200, at_table=200)
    first.save_hand(hand(p.id, 1, net=-5))
    key = first.secret_key()
    for s in opened:
        s.close()

    again = Storage(db_url)
    assert table_oids(again) == oids  # the same tables: not dropped and created anew
    assert again.get_player(p.id) == PlayerRow(p.id, 9_800, 195)
    assert [h.hand_id for h in again.list_hands(p.id)] == [hand(p.id, 1).hand_id]
    assert again.secret_key() == key
    assert again.cash_out(p.id).bankroll == 9_995
    again.close()


# ---------------------------------------------------------------------- the whole room
def test_practice_table_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    """test_server's restart flow with the app's database on PostgreSQL: play, restart, the
    practice table comes back from its log with the hand where it stood, the hands were
    stored, leaving cashes out and a reset works."""
    from starlette.testclient import TestClient  # after test_server's warning filter

    from tapete.server import create_app

    cookie, total = play_three_hands(create_app(settings(tmp_path, database_url=pg_url)))
    assert not any(tmp_path.iterdir())  # nothing went to a SQLite file
    app2 = create_app(settings(tmp_path, database_url=pg_url))
    with TestClient(app2) as c2:
        c2.cookies.set("tapete_id", cookie)  # the key that signs it was kept in PostgreSQL
        me = c2.get("/api/me").json()
        assert me["total"] == total and me["at_table"] + me["in_pot"] > 0
        listed = c2.get("/api/hands").json()
        assert len(listed) >= 3
        stored = c2.get(f"/api/hands/{listed[0]['hand_id']}.json").json()
        assert stored["hand_id"] == listed[0]["hand_id"] and stored["events"]
        assert c2.get(f"/api/hands/{listed[0]['hand_id']}.phh").status_code in (200, 422)
        with c2.websocket_connect("/ws") as ws:
            s = next_state(ws, lambda s: not s["lobby"] and s["decision"] is not None)
            assert len(s["history"]) >= 3 and s["me"]["total"] == total
            ws.send_text(json.dumps({"type": "leave"}))  # checked or folded, then cashed out
            s = next_state(ws, lambda s: s["lobby"], limit=5000)
            assert s["me"]["at_table"] == 0 and s["me"]["total"] == s["me"]["bankroll"]
            listed = c2.get("/api/hands").json()  # with the hand the person left
            ws.send_text(json.dumps({"type": "reset"}))
            s = next_state(ws, lambda s: s["me"]["bankroll"] == 10_000)
            assert s["me"]["total"] == 10_000
        (pid,) = c2.app.state.hub.players  # type: ignore[attr-defined]
    # what the server wrote, read back over a connection of its own
    check = Storage(pg_url)
    assert check.get_player(pid) == PlayerRow(pid, 10_000, 0)
    assert [h["hand_id"] for h in listed] == [h.hand_id for h in check.list_hands(pid)]
    check.close()


def test_ci_requires_a_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """The policy itself: unset is a skip on a laptop and a failure under CI."""
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        server_url()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=ENV):
        server_url()


def test_a_player_from_before_the_ledger_gets_an_opening_row(storage: Storage) -> None:
    p = storage.new_player()
    storage.move(p.id, "buy_in", -300, 300)
    with storage.engine.begin() as conn:  # as an older version left it: money, no ledger
        conn.exec_driver_sql("DELETE FROM tapete_ledger")
    assert storage.books(p.id)  # the money does not add up to an empty ledger
    assert storage.ledger_length(p.id) == 1
    assert storage.books(p.id) == [] and storage.ledger_length(p.id) == 1
