"""Persistence: anonymous players with a virtual bankroll, and every hand played as events.

SQLAlchemy Core over SQLite in the user's data directory by default, or any URL SQLAlchemy
takes (``postgresql+psycopg://...``). The calls are short and synchronous; the game loop runs
the writes in a worker thread so a slow database never delays the table.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

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
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)

hands_table = Table(
    "tapete_hands", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("hand_id", String(64), nullable=False, unique=True),
    Column("player_id", String(64), nullable=False, index=True),
    Column("session", String(64), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("played_at", Float, nullable=False),
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


class Storage:
    def __init__(self, url: str, starting_bankroll: int = 10_000) -> None:
        kwargs: dict[str, Any] = {"future": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        self.starting_bankroll = starting_bankroll
        self._lock = threading.Lock()
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ secrets
    def secret_key(self) -> str:
        """The key that signs identity cookies: made once, kept so cookies survive restarts."""
        with self._lock, self.engine.begin() as conn:
            row = conn.execute(select(meta_table.c.value).where(
                meta_table.c.key == "secret_key")).first()
            if row is not None:
                return str(row[0])
            key = secrets.token_urlsafe(32)
            conn.execute(insert(meta_table).values(key="secret_key", value=key))
            return key

    # ------------------------------------------------------------------ players
    def new_player(self) -> PlayerRow:
        pid = secrets.token_urlsafe(12)
        now = time.time()
        with self._lock, self.engine.begin() as conn:
            conn.execute(insert(players_table).values(
                id=pid, bankroll=self.starting_bankroll, at_table=0, created=now, updated=now))
        return PlayerRow(pid, self.starting_bankroll, 0)

    def get_player(self, pid: str) -> PlayerRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(
                players_table.c.id, players_table.c.bankroll, players_table.c.at_table,
            ).where(players_table.c.id == pid)).first()
        if row is None:
            return None
        return PlayerRow(str(row[0]), int(row[1]), int(row[2]))

    def ensure_player(self, pid: str | None) -> PlayerRow:
        if pid:
            row = self.get_player(pid)
            if row is not None:
                return row
        return self.new_player()

    def cash_out(self, pid: str) -> PlayerRow:
        """Chips left at a table that no longer exists (a restart) go back to the bankroll."""
        with self._lock, self.engine.begin() as conn:
            conn.execute(update(players_table).where(players_table.c.id == pid).values(
                bankroll=players_table.c.bankroll + players_table.c.at_table, at_table=0,
                updated=time.time()))
        row = self.get_player(pid)
        assert row is not None
        return row

    def set_money(self, pid: str, bankroll: int, at_table: int) -> None:
        with self._lock, self.engine.begin() as conn:
            conn.execute(update(players_table).where(players_table.c.id == pid).values(
                bankroll=bankroll, at_table=at_table, updated=time.time()))

    # ------------------------------------------------------------------ hands
    def save_hand(self, row: HandRow, bankroll: int, at_table: int) -> None:
        """Store a finished hand and the player's money in one transaction."""
        with self._lock, self.engine.begin() as conn:
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


def _hand_row(r: Any) -> HandRow:
    return HandRow(
        hand_id=str(r["hand_id"]), player_id=str(r["player_id"]), session=str(r["session"]),
        number=int(r["number"]), played_at=float(r["played_at"]), rules=json.loads(r["rules"]),
        setup=json.loads(r["setup"]), events=json.loads(r["events"]), net=int(r["net"]),
        summary=json.loads(r["summary"]))
