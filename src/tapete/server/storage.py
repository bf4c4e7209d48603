"""Persistence: anonymous players with a virtual bankroll, and every hand played as events.

SQLAlchemy Core over SQLite in the user's data directory by default, or any URL SQLAlchemy
takes: PostgreSQL through psycopg 3 (``pip install 'tapete[postgres]'``), where a plain
``postgresql://`` or ``postgres://`` URL means ``postgresql+psycopg://``. The calls are short
and synchronous; the game loop runs the writes in a worker thread so a slow database never
delays the table.

Several processes may share one database. Changes of money that do not depend on what a process
last read (:meth:`Storage.add_money`, :meth:`Storage.cash_out`, :meth:`Storage.reset_bankroll`)
are single atomic ``UPDATE ... SET bankroll = bankroll + x`` statements, so none is lost; the
tables are created once whichever processes start together, and so is the secret key.
"""

from __future__ import annotations

import contextlib
import json
import secrets
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
    Column("events", Text, nullable=False),  # JSON list of tapete.events.to_json
    Column("net", BigInteger, nullable=False),  # the player's result in the hand
    Column("summary", Text, nullable=False),  # JSON: what the hand list shows
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
    def new_player(self) -> PlayerRow:
        pid = secrets.token_urlsafe(12)
        now = time.time()
        with self._write() as conn:
            conn.execute(insert(players_table).values(
                id=pid, bankroll=self.starting_bankroll, at_table=0, created=now, updated=now))
        return PlayerRow(pid, self.starting_bankroll, 0)

    def get_player(self, pid: str) -> PlayerRow | None:
        with self.engine.connect() as conn:
            return _player(conn, pid)

    def ensure_player(self, pid: str | None) -> PlayerRow:
        if pid:
            row = self.get_player(pid)
            if row is not None:
                return row
        return self.new_player()

    def add_money(self, pid: str, bankroll: int = 0, at_table: int = 0) -> PlayerRow | None:
        """Add chips (or take them, negative) to the bankroll and to the table, in one atomic
        update that no other writer can interleave with; a buy-in is ``bankroll=-x,
        at_table=x``. Nothing changes, and None comes back, when the player is unknown or
        either amount would go below zero."""
        p = players_table.c
        with self._write() as conn:
            done = conn.execute(update(players_table).where(
                p.id == pid, p.bankroll + bankroll >= 0, p.at_table + at_table >= 0,
            ).values(bankroll=p.bankroll + bankroll, at_table=p.at_table + at_table,
                     updated=time.time()))
            return _player(conn, pid) if done.rowcount else None

    def reset_bankroll(self, pid: str) -> PlayerRow | None:
        """Back to the starting bankroll, nothing at a table; None for an unknown player."""
        with self._write() as conn:
            conn.execute(update(players_table).where(players_table.c.id == pid).values(
                bankroll=self.starting_bankroll, at_table=0, updated=time.time()))
            return _player(conn, pid)

    def cash_out(self, pid: str) -> PlayerRow:
        """Chips left at a table that no longer exists (a restart) go back to the bankroll."""
        p = players_table.c
        with self._write() as conn:
            conn.execute(update(players_table).where(p.id == pid).values(
                bankroll=p.bankroll + p.at_table, at_table=0, updated=time.time()))
            row = _player(conn, pid)
        assert row is not None
        return row

    def set_money(self, pid: str, bankroll: int, at_table: int) -> None:
        """Write the money the process serving this player holds (the practice room keeps
        each player's money in the one process that seats them): the last write wins."""
        with self._write() as conn:
            conn.execute(update(players_table).where(players_table.c.id == pid).values(
                bankroll=bankroll, at_table=at_table, updated=time.time()))

    # ------------------------------------------------------------------ hands
    def save_hand(self, row: HandRow, bankroll: int, at_table: int) -> None:
        """Store a finished hand and the player's money in one transaction."""
        with self._write() as conn:
            conn.execute(insert(hands_table).values(
                hand_id=row.hand_id, player_id=row.player_id, session=row.session,
                number=row.number, played_at=row.played_at, rules=json.dumps(row.rules),
                setup=json.dumps(row.setup), events=json.dumps(row.events), net=row.net,
                summary=json.dumps(row.summary)))
            conn.execute(update(players_table).where(players_table.c.id == row.player_id)
                         .values(bankroll=bankroll, at_table=at_table, updated=time.time()))

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
