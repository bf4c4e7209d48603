"""Persistence: anonymous players with a virtual bankroll, and every hand played as events.

SQLAlchemy Core over SQLite in the user's data directory by default, or any URL SQLAlchemy
takes: PostgreSQL through psycopg 3 (``pip install 'tapete[postgres]'``), where a plain
``postgresql://`` or ``postgres://`` URL means ``postgresql+psycopg://``. The calls are short
and synchronous; the game loop runs the writes in a worker thread so a slow database never
delays the table. A SQLite file runs in write-ahead mode (see :func:`_write_ahead`).

Money is kept as two integers per player: ``bankroll`` (chips off the table) and ``at_table``
(chips committed to tables: the stacks as the current hands began, plus chips added since; what
a hand that is voided gives back). At the room's tables a move of chips between the bankroll
and a person's seat (:meth:`Storage.move_once`) moves ``at_table`` the other way, and each hand
stored (:meth:`Storage.save_hands`) moves it by the hand's net, so it is back at 0 once the
person has left every table. Every change is a move of chips by amounts, never an absolute
value captured earlier and written later: :meth:`Storage.move` adds to both columns in one atomic
``UPDATE ... SET bankroll = bankroll + x`` and writes a row of the player's ledger in the same
transaction, together with the hand whose result it is. So a hand, its result and the money stand
or fall together, and the ledger adds up to the money (:meth:`Storage.books`). A reset
(:meth:`Storage.reset_bankroll`) is the one absolute change, and it too is a ledger row, in the
order the server asked for it. Several processes may share one database; the tables are created
once whichever processes start together, and so is the secret key.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Double,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.schema import CreateIndex, CreateTable

metadata = MetaData()

# BIGSERIAL on PostgreSQL; SQLite autoincrements only an INTEGER PRIMARY KEY (its rowid)
_ROW_ID = BigInteger().with_variant(Integer(), "sqlite")
# the key of the PostgreSQL advisory lock held while the tables are created
_CREATE_LOCK = 0x7A9E7E

meta_table = Table(
    "tapete_meta", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

players_table = Table(
    "tapete_players", metadata,
    Column("id", String(64), primary_key=True),
    Column("bankroll", BigInteger, nullable=False),  # chips off the table
    Column("at_table", BigInteger, nullable=False, default=0),  # chips in play at a table
    Column("created", Double, nullable=False),  # Unix time, seconds
    Column("updated", Double, nullable=False),
)

hands_table = Table(
    "tapete_hands", metadata,
    Column("id", _ROW_ID, primary_key=True, autoincrement=True),
    Column("hand_id", String(64), nullable=False, unique=True),
    Column("player_id", String(64), nullable=False, index=True),
    Column("session", String(64), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("played_at", Double, nullable=False),
    Column("rules", Text, nullable=False),  # JSON
    Column("setup", Text, nullable=False),  # JSON: stacks, button, blinds, names, seats...
    Column("events", Text, nullable=False),  # JSON list of tapete.core.events.to_json
    Column("net", BigInteger, nullable=False),  # the player's result in the hand
    Column("summary", Text, nullable=False),  # JSON: what the hand list shows
)


# every change of a player's money, in order: the books of a bankroll
ledger_table = Table(
    "tapete_ledger", metadata,
    Column("id", _ROW_ID, primary_key=True, autoincrement=True),
    Column("player_id", String(64), nullable=False, index=True),
    Column("at", Double, nullable=False),  # Unix time, seconds
    # new, buy_in, top_up, refund, result, cash_out, restart (a table lost), reset,
    # adjust (chips given or taken by an operator: the only kind besides reset and new that
    # changes a balance outside a hand)
    Column("kind", String(16), nullable=False),
    Column("bankroll", BigInteger, nullable=False),  # change of the bankroll
    Column("at_table", BigInteger, nullable=False),  # change of the chips at a table
    Column("hand_id", String(64), nullable=True),  # the hand whose result this is
    Column("balance", BigInteger, nullable=False),  # bankroll + at_table after the change
)

# room_in / room_out: chips to a room table and back (the room table keeps their books: its
# log, tapete.room), each made once per key (room_moves)
LEDGER_KINDS = ("new", "buy_in", "top_up", "refund", "result", "cash_out", "restart", "reset",
                "adjust", "room_in", "room_out")

# the room's moves of money already made, by the key of the table record that made them
room_moves_table = Table(
    "tapete_room_moves", metadata,
    Column("key", String(160), primary_key=True),  # "<table id>:<seq>"
    Column("player_id", String(64), nullable=False),
    Column("bankroll", BigInteger, nullable=False),  # the change of the bankroll
)


@dataclass(slots=True)
class PlayerRow:
    id: str
    bankroll: int
    at_table: int


@dataclass(slots=True)
class HandRow:
    hand_id: str
    player_id: str
    session: str
    number: int
    played_at: float
    rules: dict[str, Any]
    setup: dict[str, Any]
    events: list[dict[str, Any]]
    net: int
    summary: dict[str, Any]


def database_url(url: str) -> str:
    """``url`` with psycopg 3 as the driver of a PostgreSQL URL that names none
    (SQLAlchemy's default would be psycopg2, which tapete does not install)."""
    u = make_url(url)
    if u.drivername in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+psycopg")
        return u.render_as_string(hide_password=False)
    return url


def _write_ahead(dbapi_connection: Any, _record: Any) -> None:
    """A SQLite file in write-ahead mode, synced at checkpoints: a commit is a write to the
    log, not a wait for the disk (about 0.7 ms, not 9: a room stores every event before it
    sends it). A committed transaction survives the process being killed (``kill -9``: the
    crash tests); a power cut may take the last commits back, never half of one. Readers
    and the writer no longer block each other."""
    cursor = dbapi_connection.cursor()
    try:
        # the mode is the file's, set once: processes opening a new file together meet
        # "database is locked" switching it (the busy timeout does not wait for that one)
        for attempt in range(100):
            try:
                if str(cursor.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal":
                    break
                cursor.execute("PRAGMA journal_mode=WAL")
            except sqlite3.OperationalError:
                if attempt == 99:
                    raise
                time.sleep(0.05)
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


class Storage:
    def __init__(self, url: str, starting_bankroll: int = 10_000) -> None:
        url = database_url(url)
        kwargs: dict[str, Any] = {}
        self.sqlite = make_url(url).get_backend_name() == "sqlite"
        if self.sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        else:  # a server may have closed idle connections (a restart, a timeout)
            kwargs["pool_pre_ping"] = True
        try:
            self.engine: Engine = create_engine(url, **kwargs)
        except ModuleNotFoundError as exc:  # the URL's driver is not installed
            hint = " (pip install 'tapete[postgres]')" if exc.name == "psycopg" else ""
            raise RuntimeError(f"the database driver {exc.name!r} for {make_url(url).drivername}"
                               f" is not installed{hint}") from exc
        if self.sqlite and make_url(url).database not in (None, "", ":memory:"):
            event.listen(self.engine, "connect", _write_ahead)
        self.starting_bankroll = starting_bankroll
        # SQLite takes one writer at a time: this process's threads queue here rather than
        # meet "database is locked". A server database locks rows itself.
        self._lock = threading.Lock() if self.sqlite else None
        self._create_tables()

    def close(self) -> None:
        self.engine.dispose()

    @contextlib.contextmanager
    def _write(self) -> Iterator[Connection]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        with contextlib.ExitStack() as stack:
            if self._lock is not None:
                stack.enter_context(self._lock)
            yield stack.enter_context(self.engine.begin())

    def _create_tables(self) -> None:
        """Create what is missing, and nothing twice when processes start together: ``IF NOT
        EXISTS`` in one statement (SQLite), and on PostgreSQL, where two such statements can
        still collide, the processes take turns under an advisory lock."""
        with self._write() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _CREATE_LOCK})
            for table in metadata.sorted_tables:
                conn.execute(CreateTable(table, if_not_exists=True))
                for index in sorted(table.indexes, key=lambda i: str(i.name)):
                    conn.execute(CreateIndex(index, if_not_exists=True))

    # ------------------------------------------------------------------ secrets
    def secret_key(self) -> str:
        """The key that signs identity cookies: made once, kept so cookies survive restarts."""
        query = select(meta_table.c.value).where(meta_table.c.key == "secret_key")
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is not None:
            return str(row[0])
        # another process may be making it too: whichever insert lands first is the key
        with contextlib.suppress(IntegrityError), self._write() as conn:
            conn.execute(insert(meta_table).values(
                key="secret_key", value=secrets.token_urlsafe(32)))
        with self.engine.connect() as conn:
            return str(conn.execute(query).scalar_one())

    # ------------------------------------------------------------------ players
    def new_player(self, pid: str | None = None) -> PlayerRow:
        """A player with the starting bankroll, under ``pid`` (an id the server chose and
        signed into a cookie before anything was stored) or a new id."""
        pid = pid or secrets.token_urlsafe(12)
        now = time.time()
        with self._write() as conn:
            conn.execute(insert(players_table).values(
                id=pid, bankroll=self.starting_bankroll, at_table=0, created=now, updated=now))
            _ledger(conn, pid, "new", self.starting_bankroll, 0, None, self.starting_bankroll)
        return PlayerRow(pid, self.starting_bankroll, 0)

    def expire_players(self, idle_for: float) -> int:
        """Remove the players who never played, idle for ``idle_for`` seconds: no hand, no
        chips at a table, the starting bankroll, nothing in their ledger but their creation.
        Returns how many went."""
        p, ledger = players_table.c, ledger_table.c
        cutoff = time.time() - idle_for
        played = select(ledger.player_id).where(ledger.kind != "new")
        doomed = select(p.id).where(
            p.updated < cutoff, p.at_table == 0, p.bankroll == self.starting_bankroll,
            p.id.not_in(played), p.id.not_in(select(hands_table.c.player_id)))
        with self._write() as conn:
            ids = [str(r[0]) for r in conn.execute(doomed)]
            for k in range(0, len(ids), 500):
                chunk = ids[k:k + 500]
                conn.execute(delete(ledger_table).where(ledger.player_id.in_(chunk)))
                conn.execute(delete(players_table).where(p.id.in_(chunk)))
        return len(ids)

    def ledger_length(self, pid: str) -> int:
        """How many changes the player's money has seen: the ledger's rows. A player stored
        before there was a ledger gets its opening row first (a ``new`` row holding what the
        player has), so the books add up from then on."""
        c = ledger_table.c
        count = select(func.count()).select_from(ledger_table).where(c.player_id == pid)
        with self.engine.connect() as conn:
            n = int(conn.execute(count).scalar_one())
        if n:
            return n
        with self._write() as conn:
            row = _player(conn, pid)
            if row is not None and not int(conn.execute(count).scalar_one()):
                _ledger(conn, pid, "new", row.bankroll, row.at_table, None,
                        row.bankroll + row.at_table)
            return int(conn.execute(count).scalar_one())

    def count_players(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(players_table)).scalar_one())

    def get_player(self, pid: str) -> PlayerRow | None:
        with self.engine.connect() as conn:
            return _player(conn, pid)

    def ensure_player(self, pid: str | None) -> PlayerRow:
        if pid:
            row = self.get_player(pid)
            if row is not None:
                return row
        return self.new_player()

    def move(self, pid: str, kind: str, bankroll: int = 0, at_table: int = 0,
             hand: HandRow | None = None) -> PlayerRow | None:
        """Add chips (or take them, negative) to the bankroll and to the table in one atomic
        update that no other writer can interleave with, with its ledger row and, for a hand's
        result, the hand itself, all in one transaction. A buy-in is ``bankroll=-x,
        at_table=x``; a hand's result ``at_table=net`` (and a refund of chips that did not fit
        ``bankroll=r, at_table=-r``). Nothing changes, and None comes back, when the player is
        unknown or either amount would go below zero; a hand stored twice raises and changes
        nothing."""
        if kind not in LEDGER_KINDS:
            raise ValueError(f"unknown ledger kind {kind!r}")
        p = players_table.c
        with self._write() as conn:
            done = conn.execute(update(players_table).where(
                p.id == pid, p.bankroll + bankroll >= 0, p.at_table + at_table >= 0,
            ).values(bankroll=p.bankroll + bankroll, at_table=p.at_table + at_table,
                     updated=time.time()))
            if not done.rowcount:
                return None
            row = _player(conn, pid)
            assert row is not None
            if hand is not None:
                _insert_hand(conn, hand)
            _ledger(conn, pid, kind, bankroll, at_table, hand.hand_id if hand else None,
                    row.bankroll + row.at_table)
            return row

    def move_once(self, key: str, pid: str, bankroll: int, at_table: int = 0) -> bool | None:
        """A room table's move of ``bankroll`` chips (negative: to the table), made once per
        ``key`` whatever happens: with its ledger row (``room_in`` or ``room_out``) and the
        key, in one transaction; ``at_table``: what it changes of the chips at tables (the
        chips of a person's seat at a cash table: ``-bankroll``). True: made now; False: made
        before (nothing changes); None: refused (an unknown player, or a bankroll that would
        go below zero)."""
        with self._write() as conn:
            made = move_once_in(conn, key, pid, bankroll, at_table)
            return None if made is None else made is not False

    def room_move_made(self, key: str) -> bool:
        """Whether the room move ``key`` is stored."""
        m = room_moves_table.c
        with self.engine.connect() as conn:
            return conn.execute(select(m.key).where(m.key == key)).first() is not None

    def room_move_keys(self, table_id: str | None = None) -> set[str]:
        """The keys of every room move made (of table ``table_id``'s: ``{table}:{seq}``):
        what a restore asks for again and need not."""
        m = room_moves_table.c
        query = select(m.key)
        if table_id is not None:
            query = query.where(m.key.startswith(f"{table_id}:", autoescape=True))
        with self.engine.connect() as conn:
            return {str(k) for (k,) in conn.execute(query)}

    def room_moves(self, pid: str | None = None) -> int:
        """The sum of the room's moves of money (of one player): minus the chips the room
        tables hold, taken in and not yet given back."""
        m = room_moves_table.c
        query = select(func.coalesce(func.sum(m.bankroll), 0))
        if pid is not None:
            query = query.where(m.player_id == pid)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def add_money(self, pid: str, bankroll: int = 0, at_table: int = 0) -> PlayerRow | None:
        """:meth:`move` without naming its kind: a buy-in or a cash-out by its signs, an
        adjustment when only the bankroll changes."""
        kind = "buy_in" if at_table > 0 else "cash_out" if at_table < 0 else "adjust"
        return self.move(pid, kind, bankroll, at_table)

    def reset_bankroll(self, pid: str) -> PlayerRow | None:
        """Back to the starting bankroll, nothing at a table; None for an unknown player. The
        ledger row says what the reset changed, read in the same transaction."""
        p = players_table.c
        with self._write() as conn:
            query = select(p.bankroll, p.at_table).where(p.id == pid)
            if conn.dialect.name == "postgresql":
                query = query.with_for_update()
            before = conn.execute(query).first()
            if before is None:
                return None
            conn.execute(update(players_table).where(p.id == pid).values(
                bankroll=self.starting_bankroll, at_table=0, updated=time.time()))
            _ledger(conn, pid, "reset", self.starting_bankroll - int(before[0]),
                    -int(before[1]), None, self.starting_bankroll)
            return _player(conn, pid)

    def cash_out(self, pid: str, kind: str = "restart") -> PlayerRow:
        """Chips left at a table that no longer exists (a restart) go back to the bankroll."""
        p = players_table.c
        with self._write() as conn:
            query = select(p.at_table).where(p.id == pid)
            if conn.dialect.name == "postgresql":
                query = query.with_for_update()
            left = int(conn.execute(query).scalar_one())
            conn.execute(update(players_table).where(p.id == pid).values(
                bankroll=p.bankroll + p.at_table, at_table=0, updated=time.time()))
            row = _player(conn, pid)
            assert row is not None
            if left:
                _ledger(conn, pid, kind, left, -left, None, row.bankroll)
        return row

    def ledger(self, pid: str) -> list[dict[str, Any]]:
        """A player's ledger, oldest first."""
        c = ledger_table.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(c.kind, c.bankroll, c.at_table, c.hand_id, c.balance, c.at)
                                .where(c.player_id == pid).order_by(c.id)).mappings().all()
        return [dict(r) for r in rows]

    def books(self, pid: str) -> list[str]:
        """What is wrong with a player's books (an empty list when they add up): the ledger's
        sums against the money, each balance against the running sum, each move that only
        moves chips against zero, and every result row against the stored hand's net. Read
        in one transaction, so a writer's half-done work is never seen."""
        c, h = ledger_table.c, hands_table.c
        with self.engine.connect() as conn:
            if self.sqlite:  # the driver starts no transaction for reads: one snapshot
                conn.exec_driver_sql("BEGIN")
            row = _player(conn, pid)
            if row is None:
                return [f"no player {pid!r}"]
            nets = {str(r[0]): int(r[1]) for r in conn.execute(
                select(h.hand_id, h.net).where(h.player_id == pid))}
            ledger = conn.execute(select(c.kind, c.bankroll, c.at_table, c.hand_id, c.balance)
                                  .where(c.player_id == pid).order_by(c.id)).mappings().all()
            conn.rollback()
        problems: list[str] = []
        bank = table = 0
        for k, r in enumerate(ledger):
            bank, table = bank + r["bankroll"], table + r["at_table"]
            if bank + table != r["balance"]:
                problems.append(f"row {k} ({r['kind']}): balance {r['balance']} != {bank + table}")
            if r["kind"] in ("buy_in", "top_up", "refund", "cash_out", "restart") and \
                    r["bankroll"] + r["at_table"] != 0:
                problems.append(f"row {k} ({r['kind']}) creates or destroys chips")
            if r["kind"] == "result":
                net = nets.get(r["hand_id"])
                if net is None:
                    problems.append(f"row {k}: result of an unknown hand {r['hand_id']}")
                elif r["bankroll"] + r["at_table"] != net:
                    problems.append(f"row {k}: result {r['bankroll'] + r['at_table']} != the "
                                    f"hand's net {net}")
        if (bank, table) != (row.bankroll, row.at_table):
            problems.append(f"ledger ({bank}, {table}) != money ({row.bankroll}, "
                            f"{row.at_table})")
        return problems

    # ------------------------------------------------------------------ hands
    def save_hand(self, row: HandRow, net_at_table: int | None = None) -> None:
        """Store a finished hand with its result for the player: ``at_table`` moves by the
        hand's net (``net_at_table`` when chips also came back to the bankroll; see
        :meth:`move`). One transaction."""
        got = self.move(row.player_id, "result", 0,
                        row.net if net_at_table is None else net_at_table, hand=row)
        if got is None:
            raise ValueError(f"no money to store hand {row.hand_id} against")

    def save_hands(self, rows: list[HandRow], at_table: bool = False) -> None:
        """Store hands among the players' hands (a room table's hand: its chips moved on the
        table, no bankroll changes); a row stored before (its ``hand_id``) is kept as it is.
        ``at_table`` (a cash table's hand): each player's chips at tables move by their net
        with it, a ``result`` row in their ledger, so ``at_table`` is the chips at tables as
        each hand began plus the chips brought since (the room's moves bring them, and take
        them back). One transaction."""
        if not rows:
            return
        p = players_table.c
        for attempt in range(2):  # two nodes storing one hand at once: the second sees it
            try:
                with self._write() as conn:
                    known = {str(k) for (k,) in conn.execute(select(hands_table.c.hand_id).where(
                        hands_table.c.hand_id.in_([r.hand_id for r in rows])))}
                    for row in rows:
                        if row.hand_id in known:
                            continue
                        _insert_hand(conn, row)
                        if not at_table or not row.net:
                            continue
                        done = conn.execute(update(players_table).where(p.id == row.player_id)
                                            .values(at_table=p.at_table + row.net,
                                                    updated=time.time()))
                        if done.rowcount:
                            money = _player(conn, row.player_id)
                            assert money is not None
                            _ledger(conn, row.player_id, "result", 0, row.net, row.hand_id,
                                    money.bankroll + money.at_table)
                return
            except IntegrityError:
                if attempt:
                    raise

    def get_hand(self, player_id: str, hand_id: str) -> HandRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(hands_table).where(
                hands_table.c.hand_id == hand_id,
                hands_table.c.player_id == player_id)).mappings().first()
        return None if r is None else _hand_row(r)

    def list_hands(self, player_id: str, limit: int = 200) -> list[HandRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(hands_table).where(
                hands_table.c.player_id == player_id).order_by(
                hands_table.c.id.desc()).limit(limit)).mappings().all()
        return [_hand_row(r) for r in rows]


def move_once_in(conn: Connection, key: str, pid: str, bankroll: int,
                 at_table: int = 0) -> int | bool | None:
    """:meth:`Storage.move_once` inside the caller's transaction (several nodes make a
    table's moves in the transaction that stores its records): the bankroll after the move
    when made now, False when made before, None when refused. The conditional update locks
    the player's row: two nodes moving the same chips take turns, and the second sees what
    the first left."""
    p, m = players_table.c, room_moves_table.c
    kind = "room_in" if bankroll < 0 else "room_out"
    if conn.execute(select(m.key).where(m.key == key)).first() is not None:
        return False
    done = conn.execute(update(players_table).where(
        p.id == pid, p.bankroll + bankroll >= 0,
    ).values(bankroll=p.bankroll + bankroll, at_table=p.at_table + at_table,
             updated=time.time()))
    if not done.rowcount:
        return None
    conn.execute(insert(room_moves_table).values(key=key, player_id=pid, bankroll=bankroll))
    row = _player(conn, pid)
    assert row is not None
    _ledger(conn, pid, kind, bankroll, at_table, None, row.bankroll + row.at_table)
    return row.bankroll


def _insert_hand(conn: Connection, row: HandRow) -> None:
    conn.execute(insert(hands_table).values(
        hand_id=row.hand_id, player_id=row.player_id, session=row.session,
        number=row.number, played_at=row.played_at, rules=json.dumps(row.rules),
        setup=json.dumps(row.setup), events=json.dumps(row.events), net=row.net,
        summary=json.dumps(row.summary)))


def _ledger(conn: Connection, pid: str, kind: str, bankroll: int, at_table: int,
            hand_id: str | None, balance: int) -> None:
    conn.execute(insert(ledger_table).values(
        player_id=pid, at=time.time(), kind=kind, bankroll=bankroll, at_table=at_table,
        hand_id=hand_id, balance=balance))


def _player(conn: Connection, pid: str) -> PlayerRow | None:
    row = conn.execute(select(
        players_table.c.id, players_table.c.bankroll, players_table.c.at_table,
    ).where(players_table.c.id == pid)).first()
    return None if row is None else PlayerRow(str(row[0]), int(row[1]), int(row[2]))


def _hand_row(r: Any) -> HandRow:
    return HandRow(
        hand_id=str(r["hand_id"]), player_id=str(r["player_id"]), session=str(r["session"]),
        number=int(r["number"]), played_at=float(r["played_at"]), rules=json.loads(r["rules"]),
        setup=json.loads(r["setup"]), events=json.loads(r["events"]), net=int(r["net"]),
        summary=json.loads(r["summary"]))
