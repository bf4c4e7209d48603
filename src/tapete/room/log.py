"""A table's settings and its append-only event log.

:class:`TableConfig` is data: the game (the betting: no-limit, pot-limit or fixed-limit) and
the variant dealt (hold'em, Omaha, Omaha hi-lo), the blinds, the buy-in range, the seats (2 to
9), the time to act and the time bank, bots or not, public or private, spectators or not, and
what a crash does to the hand in play. ``TableConfig.from_json(c.to_json()) == c``; a
malformed field is refused in English and Spanish.

:class:`EventLog` stores every table's records with SQLAlchemy Core, in its own two tables:

- ``tapete_room_tables``: ``id`` (from :mod:`secrets`, unguessable: a private table is reached
  only by it), ``config`` (the JSON above), ``created``;
- ``tapete_room_events``: ``table_id``, ``seq`` (1, 2, 3, ... per table: unique, gap-free),
  ``kind``, ``payload`` (JSON), ``at`` (when it was stored: Unix milliseconds, the table's
  clock's wall time; a restore works out the timers' deadlines from it: when the turn began,
  the vote opened, the hand ended).

:meth:`EventLog.append` writes a batch of records in one transaction and returns only once it
is committed. It takes the sequence number the writer expects next: a writer that is not the
table's owner any more (another took the table over) is refused rather than allowed to write
(the unique ``(table_id, seq)`` key backs it).

Several nodes (``tapete serve --redis``) share one log: each table is owned by one node at a
time through its lease, a row of ``tapete_room_leases`` (``owner``, ``epoch``, ``expires``:
Unix ms). :meth:`EventLog.claim` takes a lease that is free or expired and raises its epoch;
the owner renews it (:meth:`EventLog.renew`) every few seconds and releases it when it stops
(:meth:`EventLog.release`). Every append (and snapshot) of an owner quotes its epoch and is
refused (:class:`Fenced`, counted in :attr:`EventLog.fenced`) unless the lease still holds it:
the check locks the lease row in the append's own statement or transaction, and a claim waits
for an append in flight (or the append for the claim) -- one of them sees the other. The
append of records that move no money, most of them, is that one statement (``INSERT ...
SELECT ... WHERE EXISTS`` the lease at the epoch, ``FOR SHARE``), one round trip; the last
seq a process stored is kept in memory, and the ``(table_id, seq)`` key refuses a second
writer of it. An owner that was paused, lost its lease and woke up can never write again. A lease's
expiry is read on the nodes' clocks; a clock that is off only makes a lease expire early or
late, never lets two owners write (the epoch does that). A single node (the default) takes no
lease and quotes no epoch: its appends are checked by their sequence numbers alone.

A **stream** is a log of records that is not a table's: a tournament's coordinator stores
its inputs in one (server/tournaments.py, server/sitngo.py). It is a row of
``tapete_room_tables`` whose id is ``"<kind>:<id>"`` (a table's id, from
:func:`secrets.token_urlsafe`, never holds a colon) and whose ``config`` is the stream's own
JSON (:meth:`EventLog.create_stream`); its records are appended, read and closed as a table's
are (the same sequence check, the same transaction), and :meth:`EventLog.table_ids` leaves
it out (it is no table to restore). One stream for each tournament, beside its tables'
logs, keeps the tables' records as they are (a table restores from its own log alone) and
orders the coordinator's inputs among themselves, which is all a replay of the director
needs.

``tapete_room_snapshots`` keeps each table's state between two hands
(:meth:`EventLog.save_snapshot`), where a restore starts. SQLite by default; any URL SQLAlchemy
reads, PostgreSQL included, works the same.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any, NamedTuple

import sqlalchemy as sa

from tapete.core.catalog import t
from tapete.core.game import GAMES
from tapete.core.rules import Rules, Structure
from tapete.core.text import Text
from tapete.room.errors import Fenced, Refused


class Game(StrEnum):
    NO_LIMIT = "nl"
    POT_LIMIT = "pl"
    FIXED_LIMIT = "fl"


class OnCrash(StrEnum):
    """What :func:`~tapete.room.table.restore` does with the hand a crash interrupted."""

    RESUME = "resume"  # the default: the hand goes on, same cards, same player to act
    VOID = "void"  # the hand is called off: every chip back where it stood before it


#: the variants a room table deals (names of :data:`tapete.core.game.GAMES`)
VARIANTS = ("holdem", "omaha", "omaha-hi-lo")

_STRUCTURE = {Game.NO_LIMIT: Structure.NO_LIMIT, Game.POT_LIMIT: Structure.POT_LIMIT,
              Game.FIXED_LIMIT: Structure.FIXED_LIMIT}


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A room table's settings. Times are whole milliseconds, amounts whole chips.

    The time bank follows the PokerStars model: a bank for preflop and a separate one for the
    later streets, each starting at ``bank_ms`` and growing by ``bank_add_ms`` every
    ``bank_every`` hands a player is dealt, up to ``bank_max_ms``. Disconnect protection: a
    player to act with no connection gets ``grace_base_ms + grace_per_bb_ms * pot / big
    blind`` more (whole big blinds), at most ``grace_max_ms``."""

    game: Game = Game.NO_LIMIT
    variant: str = "holdem"
    small_blind: int = 1
    big_blind: int = 2
    min_buy_in: int = 40
    max_buy_in: int = 200
    seats: int = 6
    act_ms: int = 15_000
    bank_ms: int = 30_000
    bank_add_ms: int = 5_000
    bank_every: int = 10
    bank_max_ms: int = 120_000
    grace_base_ms: int = 10_000
    grace_per_bb_ms: int = 500
    grace_max_ms: int = 60_000
    bots: bool = False
    public: bool = True  # listed in the lobby; a private table is reached by its id only
    spectators: bool = True  # whether someone without a seat may watch
    on_crash: OnCrash = OnCrash.RESUME
    # provably fair dealing (docs/fairness.md): each hand's commitment before its first card,
    # its deck and secret revealed when it ends (so a folded hand can be worked out then)
    fair: bool = True
    # a practice table (``server/practice.py``): one person and five bots, never listed,
    # reached by nobody else; the server sets it, a person's settings cannot
    practice: bool = False
    # a host's table (the creator of a private table hosts it: room/table.py). Seats and
    # rebuys wait for the host's approval unless ``auto_approve``; chat at the table, and the
    # spectators' own chat (shown to spectators only) when ``spectator_chat``
    auto_approve: bool = True
    chat: bool = True
    spectator_chat: bool = True
    # home-game options (docs/rules.md, "Home games"): players may ask to straddle (and
    # re-straddle); a bomb pot of ``bomb_ante`` every ``bomb_every`` hands (0: never) or by
    # the players' vote (``bomb_vote``), on two boards when ``double_board``; the 7-2
    # bounty (hold'em); all in with cards to come, the board runs up to ``run_it`` times
    # when every player in the hand agrees (1: always once)
    straddle: bool = False
    restraddle: bool = False
    bomb_every: int = 0
    bomb_ante: int = 0
    bomb_vote: bool = False
    double_board: bool = False
    bounty_72: int = 0
    run_it: int = 1
    # a tournament's table (room/table.py, "Tournament mode"): the tournament's id; empty for
    # a cash table. Its chips come from the tournament's chip account, its seats, blinds and
    # deals from the tournament's coordinator
    tournament: str = ""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("game", "on_crash", "variant"):
                continue
            if f.name == "tournament":
                if type(value) is not str or len(value) > 64:
                    raise _bad(f.name, t("a tournament's id of at most 64 characters"))
                continue
            if f.name in ("bots", "public", "spectators", "practice", "fair", "auto_approve",
                          "chat", "spectator_chat", "straddle", "restraddle", "bomb_vote",
                          "double_board"):
                if type(value) is not bool:
                    raise _bad(f.name, t("true or false"))
                continue
            if type(value) is not int or value < 0:
                raise _bad(f.name, t("a whole, non-negative number"))
        if not isinstance(self.game, Game):
            raise _bad("game", t("nl, pl or fl"))
        if self.variant not in VARIANTS:
            raise _bad("variant", t("holdem, omaha or omaha-hi-lo"))
        if not isinstance(self.on_crash, OnCrash):
            raise _bad("on_crash", t("resume or void"))
        if not 2 <= self.seats <= 9:
            raise _bad("seats", t("2 to 9 seats"))
        if self.big_blind < 1 or not 0 < self.small_blind <= self.big_blind:
            raise _bad("small_blind", t("blinds of at least one chip, the small one no larger"
                                        " than the big one"))
        if not self.big_blind <= self.min_buy_in <= self.max_buy_in:
            raise _bad("min_buy_in", t("a buy-in range from at least the big blind, the smallest"
                                       " no larger than the largest"))
        if not 1 <= self.run_it <= 3:
            raise _bad("run_it", t("1, 2 or 3 runs"))
        if (self.bomb_every or self.bomb_vote) and not \
                0 < self.bomb_ante <= self.max_buy_in:
            raise _bad("bomb_ante", t("a bomb pot's ante of at least a chip, at most the"
                                      " largest buy-in"))
        if self.bounty_72 and self.variant != "holdem":
            raise _bad("bounty_72", t("a 7-2 bounty is played at hold'em only"))
        if self.act_ms < 100 or self.bank_every < 1:
            raise _bad("act_ms", t("at least a tenth of a second to act, and a bank growing"
                                   " every hand or less often"))

    @property
    def listed(self) -> bool:
        """Whether anyone may be told the table's id: a public table (the lobby lists it) or
        a tournament's (its tournament lists it); never a private table, reached by its link
        alone, nor a practice table, its person's."""
        return (self.public or bool(self.tournament)) and not self.practice

    def rules(self) -> Rules:
        return Rules(structure=_STRUCTURE[self.game], small_blind=self.small_blind,
                     big_blind=self.big_blind, game=GAMES[self.variant],
                     bounty_72=self.bounty_72)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["game"] = self.game.value
        out["on_crash"] = self.on_crash.value
        return out

    @staticmethod
    def from_json(data: object) -> TableConfig:
        if not isinstance(data, dict):
            raise Refused(t("a table's settings are a JSON object"))
        names = {f.name for f in fields(TableConfig)}
        for key in data:
            if key not in names:
                raise Refused(t("unknown table setting {key}", key=repr(key)))
        args = dict(data)
        try:
            if "game" in args:
                args["game"] = Game(args["game"])
            if "on_crash" in args:
                args["on_crash"] = OnCrash(args["on_crash"])
        except ValueError:
            raise _bad("game" if "game" in args and not isinstance(args["game"], Game)
                       else "on_crash", t("one of the values listed")) from None
        return TableConfig(**args)


def _bad(name: str, needed: Text) -> Refused:
    return Refused(t("table setting {name}: {needed} is needed", name=repr(name), needed=needed))


class Record(NamedTuple):
    """One stored record of a table: its place in the table's order, what it is, its data."""

    seq: int
    kind: str
    payload: dict[str, Any]
    at: int


_META = sa.MetaData()
TABLES = sa.Table(
    "tapete_room_tables", _META,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("created", sa.BigInteger, nullable=False),
)
EVENTS = sa.Table(
    "tapete_room_events", _META,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tapete_room_tables.id"),
              nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "seq"),
)
# tables closed for good (a practice table its person left): a restart restores the others
CLOSED = sa.Table(
    "tapete_room_closed", _META,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tapete_room_tables.id"),
              primary_key=True),
    sa.Column("at", sa.BigInteger, nullable=False),
)
# a table's state between two hands, as it stood after record ``seq``: what a restore starts
# from (then it replays the records after it), so a restart does not replay a table's whole
# history. Never sent to anyone (it names the players); the log stays the truth.
SNAPSHOTS = sa.Table(
    "tapete_room_snapshots", _META,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tapete_room_tables.id"),
              nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "seq"),
)
# each table's lease (several nodes): who owns it, since which claim (epoch), until when
LEASES = sa.Table(
    "tapete_room_leases", _META,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tapete_room_tables.id"),
              primary_key=True),
    sa.Column("owner", sa.String(128), nullable=False),
    sa.Column("epoch", sa.Integer, nullable=False),
    sa.Column("expires", sa.BigInteger, nullable=False),  # Unix ms
)


STREAM = ":"  # in a stream's id (``"<kind>:<id>"``), never in a table's

_CREATE_LOCK = 0x7461706574652002  # the advisory lock processes creating tables take turns at


def create_all(meta: sa.MetaData, engine: sa.Engine) -> None:
    """Create ``meta``'s tables that are missing; on PostgreSQL under an advisory lock, so
    that nodes starting together on an empty database do not collide."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _CREATE_LOCK})
        meta.create_all(conn)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def storage_down(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not be reached (down, restarting, a connection
    lost, the pool waiting for one): an outage to wait out and retry, not a fault of the
    table's. A refusal (a duplicate key, a lost lease) is not one."""
    if isinstance(exc, sa.exc.IntegrityError):
        return False
    if isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError,
                        sa.exc.DisconnectionError, sa.exc.TimeoutError, OSError)):
        return True
    return isinstance(exc, sa.exc.DBAPIError) and bool(exc.connection_invalidated)


class Lease(NamedTuple):
    table_id: str
    owner: str
    epoch: int
    expires: int


class Append(NamedTuple):
    """One table's batch for :meth:`EventLog.append_group`: its records (numbered from the
    one after the table's last, each stamped), and the epoch of the writer's lease (None:
    one node)."""

    table_id: str
    records: list[Record]
    epoch: int | None = None


def _known_last(appends: list[Append], known: dict[str, int | None]) -> dict[str, int]:
    """The last seq of each table whose writer knows it and whose batch follows it (the
    others' are read in the group's transaction)."""
    last: dict[str, int] = {}
    for a in appends:
        seq = known[a.table_id]
        if seq is not None and a.records and seq == a.records[0].seq - 1:
            last[a.table_id] = seq
    return last


def _admit(appends: list[Append], held: set[tuple[str, int]], last: dict[str, int],
           out: list[Exception | None]) -> tuple[list[Append], int]:
    """The batches of a group that may be stored (their lease held, their seq next), in
    order; each other one's refusal in ``out``. Also returns how many were fenced."""
    admitted: list[Append] = []
    fenced = 0
    for i, a in enumerate(appends):
        if a.epoch is not None and (a.table_id, a.epoch) not in held:
            fenced += 1
            out[i] = Fenced(t("this node lost the table's lease: another node owns it now"))
            continue
        if not a.records:
            continue
        if last.get(a.table_id, 0) + 1 != a.records[0].seq:
            out[i] = _not_owner()
            continue
        last[a.table_id] = a.records[-1].seq
        admitted.append(a)
    return admitted, fenced


class EventLog:
    """Every table's records, in a database SQLAlchemy reaches (``sqlite://`` in memory)."""

    def __init__(self, url_or_engine: str | sa.Engine = "sqlite://") -> None:
        if isinstance(url_or_engine, str):
            kwargs: dict[str, Any] = {}
            if url_or_engine in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = sa.pool.StaticPool  # one in-memory database, shared
                kwargs["connect_args"] = {"check_same_thread": False}
            self.engine = sa.create_engine(url_or_engine, **kwargs)
        else:
            self.engine = url_or_engine
        create_all(_META, self.engine)
        self.fenced = 0  # appends and snapshots refused because the lease moved on
        self.fenced_renewals = 0  # renewals refused (another node claimed the table)
        # the last seq this process stored for each table: the next append follows it
        # without asking the database (the (table_id, seq) key still refuses a second writer)
        self._last: dict[str, int] = {}
        self._fast = _FastAppend.of(self.engine)

    def create_table(self, config: TableConfig, table_id: str | None = None) -> str:
        """Store a new table's settings; its id is unguessable (``secrets.token_urlsafe``)."""
        tid = table_id if table_id is not None else secrets.token_urlsafe(18)
        with self.engine.begin() as conn:
            conn.execute(TABLES.insert().values(
                id=tid, config=json.dumps(config.to_json(), sort_keys=True),
                created=time.time_ns() // 1_000_000))
        return tid

    def config(self, table_id: str) -> TableConfig:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(TABLES.c.config).where(TABLES.c.id == table_id)).first()
        if row is None:
            raise Refused(t("there is no such table"))
        return TableConfig.from_json(json.loads(row[0]))

    def table_ids(self) -> list[str]:
        """The tables still open, oldest first (no stream)."""
        return [x for x in self._open_ids() if STREAM not in x]

    def stream_ids(self, kind: str) -> list[str]:
        """The streams of ``kind`` still open (``"<kind>:<id>"``), oldest first."""
        return [x for x in self._open_ids() if x.startswith(kind + STREAM)]

    def _open_ids(self) -> list[str]:
        closed = sa.select(CLOSED.c.table_id)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(
                sa.select(TABLES.c.id).where(TABLES.c.id.not_in(closed))
                .order_by(TABLES.c.created, TABLES.c.id))]

    def create_stream(self, stream_id: str, about: dict[str, Any]) -> None:
        """Store a new stream (``"<kind>:<id>"``), ``about`` its own JSON (:meth:`about`)."""
        if STREAM not in stream_id or len(stream_id) > 64:
            raise Refused(t("a stream's id is its kind, a colon and an id"))
        with self.engine.begin() as conn:
            conn.execute(TABLES.insert().values(
                id=stream_id, config=json.dumps(about, sort_keys=True),
                created=time.time_ns() // 1_000_000))

    def about(self, stream_id: str) -> dict[str, Any]:
        """A stream's own JSON, as :meth:`create_stream` stored it."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(TABLES.c.config)
                               .where(TABLES.c.id == stream_id)).first()
        if row is None:
            raise Refused(t("there is no such table"))
        about: dict[str, Any] = json.loads(row[0])
        return about

    def close_table(self, table_id: str) -> None:
        """Mark a table closed for good: its records stay, :meth:`table_ids` omits it."""
        with self.engine.begin() as conn:
            if conn.execute(sa.select(CLOSED.c.table_id)
                            .where(CLOSED.c.table_id == table_id)).first() is None:
                conn.execute(CLOSED.insert().values(table_id=table_id,
                                                    at=time.time_ns() // 1_000_000))

    def last_seq(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            value = conn.execute(sa.select(sa.func.max(EVENTS.c.seq))
                                 .where(EVENTS.c.table_id == table_id)).scalar()
        return int(value) if value is not None else 0

    def append(self, table_id: str, first_seq: int,
               records: list[tuple[str, dict[str, Any]]], at: int | None = None, *,
               epoch: int | None = None,
               within: Callable[[sa.Connection], None] | None = None) -> list[Record]:
        """Store ``records`` as ``first_seq``, ``first_seq + 1``, ... in one transaction
        (``at``: Unix milliseconds, now unless given); refused (nothing stored) unless
        ``first_seq`` follows the table's last record, and, with ``epoch``, unless the
        table's lease still holds that epoch (:class:`Fenced`). ``within`` runs in the same
        transaction (the bankroll moves the records make, on several nodes): what it raises
        stores nothing."""
        if at is None:
            at = time.time_ns() // 1_000_000
        out = [Record(first_seq + i, kind, payload, at)
               for i, (kind, payload) in enumerate(records)]
        return self.append_records(table_id, out, epoch=epoch, within=within)

    def append_records(self, table_id: str, out: list[Record], *, epoch: int | None = None,
                       within: Callable[[sa.Connection], None] | None = None) -> list[Record]:
        """:meth:`append` of records already numbered and stamped (each its own ``at``):
        ``out[0].seq`` must follow the table's last record."""
        if not out:
            return out
        first_seq = out[0].seq
        rows = [(table_id, r.seq, r.kind, json.dumps(r.payload, sort_keys=True), r.at)
                for r in out]
        known = self._last.get(table_id)
        if self._fast is not None and within is None and known == first_seq - 1:
            self._last.pop(table_id, None)  # known again once stored
            stored = self._fast.insert(rows, epoch)
            if stored == 0:  # the one way a fenced insert stores nothing
                self.fenced += 1
                raise Fenced(t("this node lost the table's lease: another node owns it now"))
            if stored < 0:
                raise _not_owner()
            self._last[table_id] = out[-1].seq
            return out
        self._last.pop(table_id, None)
        try:
            with self.engine.begin() as conn:
                if epoch is not None:
                    self._fence(conn, table_id, epoch)
                last = conn.execute(sa.select(sa.func.max(EVENTS.c.seq))
                                    .where(EVENTS.c.table_id == table_id)).scalar()
                if (int(last) if last is not None else 0) + 1 != first_seq:
                    raise _not_owner()
                conn.execute(EVENTS.insert(), [dict(zip(_EVENT_COLUMNS, row, strict=True))
                                              for row in rows])
                if within is not None:
                    within(conn)
        except sa.exc.IntegrityError:
            raise _not_owner() from None
        self._last[table_id] = out[-1].seq
        return out

    def _fence(self, conn: sa.Connection, table_id: str, epoch: int) -> None:
        """Refuse the transaction unless the lease still holds ``epoch``; the update takes
        the lease row's lock until the transaction ends (a claim waits for it)."""
        done = conn.execute(LEASES.update().where(LEASES.c.table_id == table_id,
                                                  LEASES.c.epoch == epoch)
                            .values(epoch=LEASES.c.epoch))
        if not done.rowcount:
            self.fenced += 1
            raise Fenced(t("this node lost the table's lease: another node owns it now"))

    @property
    def groups(self) -> bool:
        """Whether a writer thread may store records beside this process's other connections
        (:mod:`tapete.room.writer`): a database file or server, not an in-memory database
        whose one connection everything shares."""
        return self._fast is not None

    def append_group(self, appends: list[Append]) -> list[Exception | None]:
        """Store several tables' batches in one transaction (group commit: see
        :mod:`tapete.room.writer`); for each, in order, None (stored) or why nothing of it was
        stored: :class:`Fenced` when the table's lease no longer holds its epoch, the refusal
        of :meth:`append` when its first seq does not follow the table's last record. One
        table refused leaves the others stored. The fences are checked first, in the same
        transaction, one statement for all of them: each lease row quoted is locked
        (``FOR SHARE`` on PostgreSQL) until the commit, so a claim waits for the group as it
        waits for an append. A group the database refuses as a whole for another reason (a
        duplicate key: another writer of a table) is stored again one batch at a time
        (:meth:`append_records`), so that only the batch at fault fails; an outage fails
        every batch of the group."""
        out: list[Exception | None] = [None] * len(appends)
        if not appends:
            return out
        # what this process stored last of each table; known again once stored
        known = {a.table_id: self._last.pop(a.table_id, None) for a in appends}
        fenced = 0
        try:
            if self._fast is not None:  # the DBAPI's own connection: a few statements
                fenced = self._fast.group(appends, known, out)
            else:
                fenced = self._group(appends, known, out)
        except Exception as exc:
            if storage_down(exc):
                return [exc] * len(appends)
            return [self._alone(a) for a in appends]
        self.fenced += fenced
        for a, failed in zip(appends, out, strict=True):
            if failed is None and a.records:
                self._last[a.table_id] = a.records[-1].seq
        return out

    def _group(self, appends: list[Append], known: dict[str, int | None],
               out: list[Exception | None]) -> int:
        """:meth:`append_group`'s transaction through SQLAlchemy (a database the DBAPI path
        does not serve): fills ``out``, returns how many batches were fenced."""
        with self.engine.begin() as conn:
            held: set[tuple[str, int]] = set()
            quoted = sorted({(a.table_id, a.epoch) for a in appends
                             if a.epoch is not None})
            if quoted:
                c = LEASES.c
                query = sa.select(c.table_id, c.epoch).where(
                    sa.tuple_(c.table_id, c.epoch).in_(quoted)).order_by(c.table_id)
                if conn.dialect.name == "postgresql":
                    query = query.with_for_update(read=True)
                held = {(str(tid), int(epoch)) for tid, epoch in conn.execute(query)}
            last = _known_last(appends, known)
            ask = sorted({a.table_id for a in appends} - last.keys())
            if ask:
                for tid, value in conn.execute(
                        sa.select(EVENTS.c.table_id, sa.func.max(EVENTS.c.seq))
                        .where(EVENTS.c.table_id.in_(ask)).group_by(EVENTS.c.table_id)):
                    last[str(tid)] = int(value)
            admitted, fenced = _admit(appends, held, last, out)
            rows = [{"table_id": a.table_id, "seq": r.seq, "kind": r.kind,
                     "payload": json.dumps(r.payload, sort_keys=True), "at": r.at}
                    for a in admitted for r in a.records]
            if rows:
                conn.execute(EVENTS.insert(), rows)
        return fenced

    def _alone(self, a: Append) -> Exception | None:
        try:
            self.append_records(a.table_id, a.records, epoch=a.epoch)
        except Exception as exc:
            return exc
        return None

    # ------------------------------------------------------------------ leases
    def claim(self, table_id: str, node: str, ttl_ms: int, *, force: bool = False,
              now: int | None = None) -> int | None:
        """Take table ``table_id``'s lease for ``node`` until ``ttl_ms`` from now, if nobody
        holds it (no lease yet, or an expired or released one; ``force``: whoever holds it):
        the new epoch, every claim's one more than the last; None when another node holds
        it."""
        now = now_ms() if now is None else now
        c = LEASES.c
        for _ in range(2):
            try:
                with self.engine.begin() as conn:
                    cond = [c.table_id == table_id]
                    if not force:
                        cond.append(c.expires < now)
                    done = conn.execute(LEASES.update().where(*cond).values(
                        owner=node, epoch=c.epoch + 1, expires=now + ttl_ms))
                    if done.rowcount:
                        epoch = conn.execute(sa.select(c.epoch).where(
                            c.table_id == table_id, c.owner == node)).scalar()
                        return int(epoch) if epoch is not None else None
                    if conn.execute(sa.select(c.epoch).where(c.table_id == table_id)
                                    ).first() is not None:
                        return None  # held
                    conn.execute(LEASES.insert().values(table_id=table_id, owner=node,
                                                        epoch=1, expires=now + ttl_ms))
                    return 1
            except sa.exc.IntegrityError:  # another node inserted it first: try it again
                continue
        return None

    def renew(self, table_id: str, node: str, epoch: int, ttl_ms: int,
              now: int | None = None) -> bool:
        """Extend ``node``'s lease of epoch ``epoch``; False when it holds it no more (another
        node claimed the table: this node must drop it)."""
        now = now_ms() if now is None else now
        c = LEASES.c
        with self.engine.begin() as conn:
            done = conn.execute(LEASES.update().where(
                c.table_id == table_id, c.owner == node, c.epoch == epoch)
                .values(expires=now + ttl_ms))
        if not done.rowcount:
            self.fenced_renewals += 1
        return bool(done.rowcount)

    def renew_many(self, node: str, held: list[tuple[str, int]], ttl_ms: int,
                   now: int | None = None) -> set[str]:
        """Extend each of ``node``'s leases in ``held`` (table, epoch) in one statement: the
        tables whose lease it still held (the others moved on: this node must drop them)."""
        if not held:
            return set()
        now = now_ms() if now is None else now
        c = LEASES.c
        with self.engine.begin() as conn:
            kept = {str(r[0]) for r in conn.execute(LEASES.update().where(
                c.owner == node, sa.tuple_(c.table_id, c.epoch).in_(held))
                .values(expires=now + ttl_ms).returning(c.table_id))}
        self.fenced_renewals += len({t for t, _ in held} - kept)
        return kept

    def release(self, table_id: str, node: str, epoch: int) -> bool:
        """Give the lease up (a node that drains): the next claim takes it at once."""
        c = LEASES.c
        with self.engine.begin() as conn:
            done = conn.execute(LEASES.update().where(
                c.table_id == table_id, c.owner == node, c.epoch == epoch).values(expires=0))
        return bool(done.rowcount)

    def lease(self, table_id: str) -> Lease | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(LEASES.c.owner, LEASES.c.epoch, LEASES.c.expires)
                               .where(LEASES.c.table_id == table_id)).first()
        return None if row is None else Lease(table_id, str(row[0]), int(row[1]), int(row[2]))

    def leases(self) -> list[Lease]:
        """Every table's lease."""
        with self.engine.connect() as conn:
            return [Lease(str(a), str(b), int(c), int(d)) for a, b, c, d in conn.execute(
                sa.select(LEASES.c.table_id, LEASES.c.owner, LEASES.c.epoch,
                          LEASES.c.expires))]

    def read(self, table_id: str, after: int = 0) -> list[Record]:
        """The table's records after ``after``, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.payload,
                                          EVENTS.c.at)
                                .where(EVENTS.c.table_id == table_id, EVENTS.c.seq > after)
                                .order_by(EVENTS.c.seq))
            return [Record(int(s), str(k), json.loads(p), int(a)) for s, k, p, a in rows]

    def last_start(self, table_id: str, upto: int) -> Record | None:
        """The table's last ``start`` record (a hand dealt) at or before seq ``upto``."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.payload,
                                         EVENTS.c.at)
                               .where(EVENTS.c.table_id == table_id, EVENTS.c.kind == "start",
                                      EVENTS.c.seq <= upto)
                               .order_by(EVENTS.c.seq.desc()).limit(1)).first()
        return None if row is None else Record(int(row[0]), str(row[1]), json.loads(row[2]),
                                               int(row[3]))

    def save_snapshot(self, table_id: str, seq: int, state: dict[str, Any], *,
                      epoch: int | None = None) -> None:
        """Keep the table's state after record ``seq`` (the older snapshots go: one a table);
        with ``epoch``, only while the table's lease holds it."""
        with self.engine.begin() as conn:
            if epoch is not None:
                self._fence(conn, table_id, epoch)
            conn.execute(SNAPSHOTS.delete().where(SNAPSHOTS.c.table_id == table_id))
            conn.execute(SNAPSHOTS.insert().values(table_id=table_id, seq=seq,
                                                   state=json.dumps(state, sort_keys=True)))

    def last_snapshot(self, table_id: str) -> tuple[int, dict[str, Any]] | None:
        """The latest snapshot of the table: the seq it stands after, and its state."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(SNAPSHOTS.c.seq, SNAPSHOTS.c.state)
                               .where(SNAPSHOTS.c.table_id == table_id)
                               .order_by(SNAPSHOTS.c.seq.desc()).limit(1)).first()
        if row is None:
            return None
        state: dict[str, Any] = json.loads(row[1])
        return int(row[0]), state


_EVENT_COLUMNS = ("table_id", "seq", "kind", "payload", "at")


class _FastAppend:
    """The append of records that move no money, as one statement on a connection of its
    own, held by the thread that appends (the table's event loop): the insert of the batch,
    fenced in the same statement where an epoch is quoted. SQLAlchemy's own path (a
    transaction, the epoch check, the last seq read, the insert) cost an action 0.2 ms of CPU
    on SQLite and 1 ms on PostgreSQL, four round trips there. An ``INSERT ... SELECT ...
    WHERE EXISTS (the lease at that epoch)`` stores all of the batch or none of it: PostgreSQL
    runs it in autocommit, one round trip, and its ``FOR SHARE`` holds the lease row until it
    commits (a claim, which updates that row, waits for it, as it waits for the locking
    update of :meth:`EventLog._fence`); SQLite has one writer at a time and commits it.

    Only for a database file or server (a pool of connections): an in-memory SQLite shares
    its one connection with everything else, and keeps SQLAlchemy's path."""

    def __init__(self, engine: sa.Engine, postgres: bool) -> None:
        self.engine = engine
        self.postgres = postgres
        dbapi = engine.dialect.loaded_dbapi
        self.integrity = dbapi.IntegrityError
        self.error = dbapi.Error
        self.mark = "%s" if engine.dialect.paramstyle in ("format", "pyformat") else "?"
        self._local = threading.local()
        self._sql: dict[tuple[int, bool], str] = {}

    @classmethod
    def of(cls, engine: sa.Engine) -> _FastAppend | None:
        name = engine.dialect.name
        if name == "sqlite" and not isinstance(engine.pool, sa.pool.QueuePool):
            return None  # in memory (one connection for all) or a pool of its own kind
        if name not in ("sqlite", "postgresql"):
            return None
        return cls(engine, name == "postgresql")

    def sql(self, rows: int, fenced: bool) -> str:
        key = (rows, fenced)
        text = self._sql.get(key)
        if text is None:
            m = self.mark
            one = "SELECT " + ", ".join([m] * len(_EVENT_COLUMNS))
            if fenced:
                lock = " FOR SHARE" if self.postgres else ""
                one += (f" WHERE EXISTS (SELECT 1 FROM {LEASES.name} WHERE table_id = {m}"
                        f" AND epoch = {m}{lock})")
            text = (f"INSERT INTO {EVENTS.name} ({', '.join(_EVENT_COLUMNS)}) "
                    + " UNION ALL ".join([one] * rows))
            self._sql[key] = text
        return text

    def insert(self, rows: list[tuple[Any, ...]], epoch: int | None) -> int:
        """How many rows the batch stored (all, or 0 when the epoch is not the lease's);
        -1 when the table's log already holds one of their seqs."""
        params: list[Any] = []
        for row in rows:
            params.extend(row)
            if epoch is not None:
                params.extend((row[0], epoch))
        sql = self.sql(len(rows), epoch is not None)
        raw = self._conn()
        try:
            cursor = raw.cursor()
            try:
                cursor.execute(sql, params)
                stored = cursor.rowcount
            finally:
                cursor.close()
            if not self.postgres:
                raw.commit()
        except self.integrity:
            self._rollback(raw)
            return -1
        except self.error as exc:  # the connection may be gone: the next append opens one
            self._rollback(raw)
            raw.invalidate()
            self._local.conn = None
            raise sa.exc.DBAPIError.instance(sql, params, exc, self.error) from exc
        if stored not in (0, len(rows)):  # pragma: no cover - one statement: all or none
            raise RuntimeError(f"an append stored {stored} of {len(rows)} records")
        return int(stored)

    def _conn(self) -> Any:
        """This thread's connection (PostgreSQL: in autocommit)."""
        raw = getattr(self._local, "conn", None)
        if raw is not None and self.postgres and (raw.driver_connection.closed
                                                  or raw.driver_connection.broken):
            raw.invalidate()  # known lost (the server restarted): a new one, as a ping would
            raw = None
        if raw is None:
            raw = self._local.conn = self.engine.raw_connection()
            if self.postgres:
                driver: Any = raw.driver_connection
                driver.autocommit = True
        return raw

    def group(self, appends: list[Append], known: dict[str, int | None],
              out: list[Exception | None]) -> int:
        """:meth:`EventLog.append_group`'s transaction on this thread's connection, three
        statements at most whatever the number of tables (the leases quoted, locked; the
        last seq of the tables this process does not know; the insert of every batch that
        passed): fills ``out`` with each batch refused, and returns how many were fenced.
        Raises what the database raised (as SQLAlchemy's errors): nothing is stored then."""
        raw = self._conn()
        m = self.mark
        try:
            cursor = raw.cursor()
            try:
                context: Any = raw.driver_connection.transaction() if self.postgres \
                    else contextlib.nullcontext()
                with context:
                    held: set[tuple[str, int]] = set()
                    quoted = sorted({(a.table_id, a.epoch) for a in appends
                                     if a.epoch is not None})
                    if quoted:
                        cursor.execute(
                            f"SELECT table_id, epoch FROM {LEASES.name} WHERE "
                            + " OR ".join([f"(table_id = {m} AND epoch = {m})"] * len(quoted))
                            + " ORDER BY table_id" + (" FOR SHARE" if self.postgres else ""),
                            [x for pair in quoted for x in pair])
                        held = {(str(tid), int(e)) for tid, e in cursor.fetchall()}
                    last = _known_last(appends, known)
                    ask = sorted({a.table_id for a in appends} - last.keys())
                    if ask:
                        cursor.execute(
                            f"SELECT table_id, MAX(seq) FROM {EVENTS.name} WHERE table_id IN"
                            f" ({', '.join([m] * len(ask))}) GROUP BY table_id", ask)
                        last.update((str(tid), int(v)) for tid, v in cursor.fetchall())
                    admitted, fenced = _admit(appends, held, last, out)
                    rows = [(a.table_id, r.seq, r.kind, json.dumps(r.payload, sort_keys=True),
                             r.at) for a in admitted for r in a.records]
                    if rows:
                        cursor.executemany(
                            f"INSERT INTO {EVENTS.name} ({', '.join(_EVENT_COLUMNS)}) VALUES"
                            f" ({', '.join([m] * len(_EVENT_COLUMNS))})", rows)
            finally:
                cursor.close()
            if not self.postgres:
                raw.commit()
        except self.integrity as exc:
            self._rollback(raw)
            raise sa.exc.IntegrityError("INSERT", None, exc) from exc
        except self.error as exc:  # the connection may be gone: the next one opens one
            self._rollback(raw)
            raw.invalidate()
            self._local.conn = None
            raise sa.exc.DBAPIError.instance("INSERT", None, exc, self.error) from exc
        return fenced

    def _rollback(self, raw: Any) -> None:
        if not self.postgres:
            with contextlib.suppress(Exception):
                raw.rollback()


def _not_owner() -> Refused:
    return Refused(t("the table's log moved on: this copy of the table is no longer its owner"))
