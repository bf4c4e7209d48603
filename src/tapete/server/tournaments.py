"""Multi-table tournaments in the room: room tables in tournament mode, one coordinator.

:class:`RoomTournament` is created (name, seats a table, schedule, starting stack, buy-in,
most players, bots to fill), people register (the buy-in taken from their bankroll, keyed)
and unregister (given back) before it starts; it starts when full or when its creator says
so. Its tables are room tables (``/t/{table_id}``, ``TableConfig.tournament``) whose chips
come from one :class:`~tapete.room.money.ChipAccount`; a
:class:`~tapete.tournament.live.LiveTournament` decides, after each hand of a table, who is
out, who moves where, which tables close and which deal next. The coordinator's step runs on
the finished table's owner task and commands the other tables directly (a room table never
awaits: one command at a time on the event loop, as the practice table does); a person moved
gets ``{"type": "moved", "table": <new table id>}`` on the sockets of the old table. At the
end every person's prize is paid to their bankroll, keyed by the tournament and player, so a
crash pays once; the bots' buy-ins and prizes are the house's.

A restart resumes every tournament not finished. Each has a **stream** of its own in the
room's log (``"tournament:<id>"``, room/log.py): ``created`` (its settings and seed),
``registered`` and ``unregistered`` (each buy-in and refund, keyed by the tournament, the
player and their registration's number), ``started`` (the seat draw and its tables' ids),
``hand_over`` (each input the coordinator gives the director: the table, its stacks, its big
blind's seat, the seconds of play) and ``prize`` / ``refund`` (each payment). Every record is
stored before the coordinator acts on it (before the bankroll move, before the orders reach
a table). A stream beside the tables' own logs, rather than records in a table's: a table
restores from its log alone as any table does, and the director's inputs keep one order
across tables. :meth:`Tournaments.restore` (called by the room at start-up, before the other
tables) replays each stream into a new :class:`~tapete.tournament.live.LiveTournament` (it is
deterministic: the same inputs, the same orders), asks the bankroll again for every move a
record names (once per key), restores the tables from their logs against a new chip account,
derives that account from the director's stacks (the books must add up), and reconciles: a
player the director places elsewhere is unseated, one missing from their seat is seated, a
table the director closed is closed, a table due a hand is told to deal, and a hand that
ended unreported is reported, each a logged command, so nothing is applied twice. A
tournament whose records cannot be replayed, or whose books do not add up, is refunded by the
rule of docs/rules.md ("Tournaments": every buy-in back before the start; after it, the
prizes left shared by ICM of the director's last stacks), keyed, and its players are told.

Not yet: late registration and rebuys (the live director runs freezeouts); levels by minutes
count no time (the coordinator reports 0 seconds of play); several nodes (a tournament's
tables are run by the node that runs the tournament).
"""

from __future__ import annotations

import functools
import json
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.core.errors import BooksError
from tapete.core.text import Text
from tapete.room.errors import Refused
from tapete.room.log import TableConfig
from tapete.room.money import ChipAccount
from tapete.room.names import clean_name
from tapete.room.policy import TournamentPolicy
from tapete.room.table import RoomTable, restore
from tapete.server.game import send
from tapete.server.money import BOT_PREFIX
from tapete.server.rooms import BOT_STYLES, Running, bot_agent
from tapete.tournament import deals, rulings
from tapete.tournament.live import LiveTournament, Orders
from tapete.tournament.model import TournamentError, TournamentRules, parse_levels

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from tapete.server.hub import Hub
    from tapete.server.rooms import Room

log = logging.getLogger("tapete.server")
MAX_PLAYERS = 200
MAX_TOURNAMENTS = 50
STREAM = "tournament"  # a tournament's stream in the room's log: "tournament:<id>"
LEVELS = "25/50x6 50/100x6 75/150/150x6 100/200/200x6 150/300/300x6 200/400/400x6 300/600/600x6"


@dataclass
class RoomTournament:
    id: str
    name: str
    creator: str
    rules: TournamentRules
    max_players: int
    bots: int
    seed: int
    people: dict[str, str] = field(default_factory=dict)  # player id -> name
    entries: dict[str, int] = field(default_factory=dict)  # player id -> registrations
    live: LiveTournament | None = None
    account: ChipAccount = field(default_factory=ChipAccount)
    tables: dict[int, str] = field(default_factory=dict)  # number -> room table id
    paid: dict[str, int] = field(default_factory=dict)
    levels: str = LEVELS
    seq: int = 0  # the last record of the tournament's stream
    agents: dict[str, Any] = field(default_factory=dict)  # the bots', by player id
    ids: dict[int, str] = field(default_factory=dict)  # every table it opened, closed too
    notice: Text | None = None  # why it ended early (refunded: docs/rules.md)
    # told after every step (tests: chips conserved at each)
    on_step: Callable[[RoomTournament], None] | None = None

    @property
    def started(self) -> bool:
        return self.live is not None and self.live.started

    @property
    def finished(self) -> bool:
        return self.live is not None and self.live.over

    def summary(self) -> dict[str, Any]:
        live = self.live
        return {
            "id": self.id, "name": self.name, "seats": self.rules.seats,
            "buy_in": self.rules.buy_in, "starting_stack": self.rules.starting_stack,
            "max_players": self.max_players, "bots": self.bots,
            "registered": sorted(self.people.values()), "started": self.started,
            "finished": self.finished,
            "players_left": len(live.left()) if live is not None and live.started else None,
            "tables": {str(k): v for k, v in sorted(self.tables.items())},
            "results": [{"place": r.place, "name": r.name, "prize": r.prize}
                        for r in live.results()] if live is not None and live.over else [],
            "notice": self.notice.to_json() if self.notice is not None else None,
        }

    @property
    def stream(self) -> str:
        return f"{STREAM}:{self.id}"


# the players left up to which states carry each one's ICM equity (exact ICM grows fast with
# the field: a final table's is instant, 20 players' with 4 paid takes a good part of a second)
ICM_MOST = 10


@functools.lru_cache(maxsize=256)
def _icm(stacks: tuple[int, ...], prizes: tuple[int, ...]) -> list[int]:
    """The ICM shares in whole chips, worked out once for each stacks and prizes (every
    viewer's state of a table between two hands shows the same)."""
    return deals.icm_deal(stacks, prizes)


def tournament_info(live: LiveTournament, tid: str, name: Text, kind: str, table: int,
                    player: str | None, in_hand: bool, deal: dict[str, Any] | None,
                    proposing: bool = False) -> dict[str, Any]:
    """A tournament as ``player`` sees it at table number ``table``: the protocol's
    ``TournamentInfo`` (docs/protocol.md). ``deal_allowed``: at a sit-and-go, whether
    ``player`` may propose a deal now (:func:`~tapete.tournament.rulings.may_propose`, none
    open nor ``proposing``); a room tournament offers people none."""
    sched = live.rules.schedule
    hands = live.tables[table].hands if table in live.tables else 0
    played = hands - 1 if in_hand else hands  # the hand in play counts as not played yet
    played = max(0, played)
    now = live.level_for(0, played)
    lv, nxt = sched.level(now), sched.level(now + 1)
    end = sum(sched.level(i).length for i in range(now + 1))
    left = live.left()
    stacks = live.stacks()
    prizes = live.prizes()
    equities: list[dict[str, Any]] = []
    players = [e for e in left if stacks.get(e.player, 0) > 0]
    if 2 <= len(players) <= ICM_MOST:
        whole = _icm(tuple(stacks[e.player] for e in players), tuple(prizes[:len(players)]))
        equities = [{"seat": e.seat, "name": e.name, "chips": stacks[e.player], "equity": w}
                    for e, w in zip(players, whole, strict=True)]
    deal_json: dict[str, Any] | None = None
    if deal is not None:
        deal_json = {"kind": deal["kind"], "open": deal["open"],
                     "amounts": [{"name": live.entrants[p].name, "amount": a,
                                  "answer": deal["answers"].get(p)}
                                 for p, a in deal["amounts"].items()],
                     "yours": deal["amounts"].get(player, 0)}
    me = live.entrants.get(player) if player else None
    return {
        "id": tid, "name": name.to_json(), "kind": kind, "level": now + 1,
        "small_blind": lv.small_blind, "big_blind": lv.big_blind, "ante": lv.ante,
        "next_small_blind": nxt.small_blind, "next_big_blind": nxt.big_blind,
        "next_ante": nxt.ante,
        "hands_to_next_level": max(0, end - played) if sched.by == "hands" else 0,
        "entrants": len(live.entrants), "players_left": len(left),
        "prize_pool": live.prize_pool, "prizes": [x for x in prizes if x > 0],
        "equities": equities, "deal": deal_json,
        "place": (me.place or None) if me is not None else None,
        "prize": me.prize if me is not None and live.over else None,
        "finished": live.over,
        "results": [{"place": r.place, "name": r.name, "prize": r.prize}
                    for r in live.results()] if live.over else [],
        "hand_for_hand": live.hand_for_hand, "table_number": table,
        "tables": len(live.tables),
        "deal_allowed": kind == "sng" and me is not None and not me.place and not live.over
        and rulings.may_propose(len(left), prizes) and not proposing
        and not (deal is not None and deal["open"]),
    }


class Tournaments:
    """The room's tournaments: in memory, each one's inputs stored in its stream first."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.all: dict[str, RoomTournament] = {}
        self.where: dict[str, tuple[RoomTournament, int]] = {}  # room table id -> (t, number)

    def _store(self, tour: RoomTournament, kind: str, payload: dict[str, Any]) -> None:
        """One record of ``tour``'s stream, stored (committed) before anything acts on it."""
        self.room.log.append(tour.stream, tour.seq + 1, [(kind, payload)])
        tour.seq += 1

    # ------------------------------------------------------------------ before the start
    def create(self, creator: str, body: object) -> RoomTournament:
        if not isinstance(body, dict):
            raise Refused(t("a table's settings are a JSON object"))
        if len(self.all) >= MAX_TOURNAMENTS:
            raise Refused(t("The room is full: join a table from the lobby."))
        name = body.get("name", "Tournament")
        seats, stack, buy_in = body.get("seats", 9), body.get("starting_stack", 5000), \
            body.get("buy_in", 100)
        most, bots = body.get("max_players", 20), body.get("bots", 0)
        levels = body.get("levels", LEVELS)
        if not isinstance(name, str) or not name.strip() or len(name) > 40 or \
                not all(type(x) is int for x in (seats, stack, buy_in, most, bots)) or \
                not isinstance(levels, str) or not 2 <= most <= MAX_PLAYERS or \
                not 0 <= bots <= most or not 0 <= buy_in <= 1_000_000:
            raise Refused(t("a tournament needs a name, seats, a starting stack, a buy-in,"
                            " the most players (2 to {most}) and the bots to fill",
                            most=MAX_PLAYERS))
        name = clean_name(name, 40)  # the same rule as a player's name
        seed = body.get("seed")
        created = {"name": name, "creator": creator, "seats": seats,
                   "starting_stack": stack, "buy_in": buy_in, "max_players": most,
                   "bots": bots, "levels": levels,
                   "seed": seed if type(seed) is int else secrets.randbits(31)}
        tour = self._created(secrets.token_urlsafe(9), created)
        self.room.log.create_stream(tour.stream, {"kind": STREAM, "id": tour.id})
        self._store(tour, "created", created)
        self.all[tour.id] = tour
        return tour

    @staticmethod
    def _created(tid: str, c: dict[str, Any]) -> RoomTournament:
        try:
            rules = TournamentRules(parse_levels(c["levels"]), starting_stack=c["starting_stack"],
                                    seats=c["seats"], buy_in=c["buy_in"])
        except TournamentError as exc:
            raise Refused(exc.message) from None
        return RoomTournament(tid, c["name"], c["creator"], rules, c["max_players"], c["bots"],
                              c["seed"], levels=c["levels"])

    def get(self, tid: str) -> RoomTournament:
        tour = self.all.get(tid)
        if tour is None:
            raise Refused(t("no such tournament"))
        return tour

    def register(self, tid: str, player: str, name: str) -> None:
        tour = self.get(tid)
        if tour.started or tour.notice is not None:
            raise Refused(t("registration is closed"))
        if player in tour.people:
            raise Refused(t("you are registered already"))
        if len(tour.people) + tour.bots >= tour.max_players:
            raise Refused(t("the tournament is full"))
        name = clean_name(name)  # refused in words: the room's one rule for names
        if name.casefold() in {n.casefold() for n in tour.people.values()}:
            raise Refused(t("the name {name} is taken at this table", name=repr(name)))
        bankroll = self.room.bankroll
        if tour.rules.buy_in and bankroll.balance(player) < tour.rules.buy_in:
            raise Refused(t("your bankroll does not hold that many chips"))
        n = tour.entries.get(player, 0) + 1
        self._store(tour, "registered", {"player": player, "name": name, "n": n})
        tour.entries[player] = n
        tour.people[player] = name
        if tour.rules.buy_in and not bankroll.take(player, tour.rules.buy_in,
                                                   f"{tid}:buy-in:{player}:{n}"):
            self._store(tour, "unregistered", {"player": player, "n": n, "refund": False})
            del tour.people[player]
            raise Refused(t("your bankroll does not hold that many chips"))
        if len(tour.people) + tour.bots >= tour.max_players:
            self.start(tid, tour.creator)

    def unregister(self, tid: str, player: str) -> None:
        tour = self.get(tid)
        if tour.started or tour.notice is not None:
            raise Refused(t("registration is closed"))
        if player not in tour.people:
            raise Refused(t("not registered"))
        n = tour.entries[player]
        self._store(tour, "unregistered", {"player": player, "n": n, "refund": True})
        del tour.people[player]
        if tour.rules.buy_in:
            self.room.bankroll.give(player, tour.rules.buy_in, f"{tid}:refund:{player}:{n}")

    # ------------------------------------------------------------------ the start
    @staticmethod
    def _draw(tour: RoomTournament) -> LiveTournament:
        """The director with every entrant registered (people, then the bots), not started."""
        live = LiveTournament(tour.rules, seed=tour.seed)
        for pid, name in tour.people.items():
            live.register(pid, name)
        tour.agents = {}
        for i in range(tour.bots):
            pid = f"{BOT_PREFIX}{tour.id}:{i}"
            live.register(pid, f"Bot {i + 1}", bot=True)
            tour.agents[pid] = bot_agent(BOT_STYLES[i % len(BOT_STYLES)], tour.seed * 1000 + i)
        return live

    def start(self, tid: str, by: str) -> RoomTournament:
        tour = self.get(tid)
        if tour.started or tour.notice is not None:
            raise Refused(t("the tournament has started"))
        if by != tour.creator:
            raise Refused(t("only the host can do that"), code="not_host")
        live = self._draw(tour)
        try:
            seating = live.start()
        except TournamentError as exc:
            raise Refused(exc.message) from None
        ids = {k: secrets.token_urlsafe(9) for k in live.tables}
        self._store(tour, "started", {
            "by": by, "tables": {str(k): v for k, v in ids.items()},
            "seating": [[s.table, s.seat, s.player, s.chips] for s in seating]})
        tour.live = live
        tour.ids = dict(ids)
        for k in live.tables:
            tour.tables[k] = self._open_table(tour, k, ids[k])
        for s in seating:
            tour.account.issue(s.player, s.chips)
            rt = self._table(tour, s.table)
            rt.tournament_seat(s.player, live.entrants[s.player].name, s.seat, s.chips,
                               dealt_in=False)
        for k in live.playing():
            self._deal(tour, k, live.next_level(k))
        self._step_done(tour)
        return tour

    def _config(self, tour: RoomTournament) -> TableConfig:
        lv = tour.rules.schedule.level(0)
        return TableConfig(seats=tour.rules.seats, small_blind=lv.small_blind,
                           big_blind=lv.big_blind, min_buy_in=lv.big_blind,
                           max_buy_in=max(lv.big_blind, tour.rules.starting_stack),
                           public=False, tournament=tour.id)

    def _open_table(self, tour: RoomTournament, number: int, table_id: str) -> str:
        self.room.log.create_table(self._config(tour), table_id)
        return self._attach(tour, number, self._new_table(tour, number, table_id))

    def _new_table(self, tour: RoomTournament, number: int, table_id: str,
                   restored: bool = False) -> RoomTable:
        room = self.room
        policy = TournamentPolicy(lambda table: self._hand_over(tour, number, table),
                                  think_ms=room.think_ms, pause_ms=room.pause_ms,
                                  table_deck=self._decks(tour, number),
                                  held_back=room._held_back)
        kwargs: dict[str, Any] = dict(agents=dict(tour.agents), on_hand=room._hand_over,
                                      policy=policy)
        if restored:
            return restore(room.log, table_id, tour.account, **kwargs)
        return RoomTable(room.log, table_id, self._config(tour), tour.account, **kwargs)

    def _decks(self, tour: RoomTournament, number: int) -> Callable[[RoomTable], Deck] | None:
        """Tests: the same decks every run, from the hand the table was at when it began
        (or was restored): the first deal's number, less one."""
        seed = self.room.hub.settings.deck_seed
        if seed is None:
            return None
        made: list[random.Random] = []

        def deck(rt: RoomTable) -> Deck:
            if not made:
                made.append(random.Random(f"{seed}:{tour.seed}:{number}:{rt.hand_no}"))
            return Deck(seed=made[0].randrange(2**32))

        return deck

    def _attach(self, tour: RoomTournament, number: int, rt: RoomTable) -> str:
        self.room._run(rt, {})
        self.where[rt.table_id] = (tour, number)
        return rt.table_id

    def _running(self, tour: RoomTournament, number: int) -> Running:
        running = self.room.tables.get(tour.tables[number])
        assert running is not None
        return running

    def _table(self, tour: RoomTournament, number: int) -> RoomTable:
        return self._running(tour, number).table

    def _deal(self, tour: RoomTournament, number: int, level: int) -> None:
        lv = tour.rules.schedule.level(level)
        self._table(tour, number).tournament_deal(lv.small_blind, lv.big_blind, lv.ante,
                                                  level=level + 1)
        self._running(tour, number).owner.submit(lambda: None)  # look at the timers now

    # ------------------------------------------------------------------ each hand
    def _hand_over(self, tour: RoomTournament, number: int, table: RoomTable) -> None:
        """Called inside the table's command: the step runs next, on the table's owner."""
        self._running(tour, number).owner.submit(lambda: self._step(tour, number))

    def _step(self, tour: RoomTournament, number: int) -> None:
        live = tour.live
        if live is None or live.over or number not in tour.tables:
            return
        rt = self._table(tour, number)
        if rt.hand is not None or number not in live.playing():
            return
        seated = rt.tournament_stacks()
        expected = live.tables[number].players()
        # a player moved here whose seat is still on its way played no hand here
        stacks = {p: seated.get(p, live.stacks()[p]) for p in expected}
        bb = rt.table.big_blind_seat
        self._store(tour, "hand_over", {"table": number, "stacks": stacks,
                                        "big_blind_seat": bb, "elapsed_s": 0})
        orders = live.hand_over(number, stacks, bb)
        self._apply(tour, orders)

    def _apply(self, tour: RoomTournament, orders: Orders) -> None:
        live = tour.live
        assert live is not None
        for p in orders.busted:
            self._table(tour, orders.table).tournament_unseat(p)
        for m in orders.moves:
            src = self._running(tour, m.from_table)
            src.table.tournament_unseat(m.player)
            dst = self._running(tour, m.to_table)
            dst.table.tournament_seat(m.player, live.entrants[m.player].name, m.to_seat,
                                      m.chips, dealt_in=m.dealt_in,
                                      agent=src.table.agents.get(m.player))
            moved = json.dumps({"type": "moved", "table": dst.table.table_id})
            for conn in list(src.connections):
                if conn.player == m.player:
                    send(conn.box, moved)
        for k in orders.closed:
            table_id = tour.tables.pop(k)
            self.where.pop(table_id, None)
            self.room.close(table_id)
        for k in orders.deal_now:
            self._deal(tour, k, orders.levels[k])
        if orders.finished:
            self._pay(tour)
        self._step_done(tour)

    def _pay(self, tour: RoomTournament) -> None:
        """Each person's prize, its record stored first, the move keyed: paid once."""
        live = tour.live
        assert live is not None
        for pid in tour.people:
            prize = live.entrants[pid].prize
            if prize > 0 and pid not in tour.paid:
                self._store(tour, "prize", {"player": pid, "amount": prize})
                tour.paid[pid] = prize
                self.room.bankroll.give(pid, prize, f"{tour.id}:prize:{pid}")

    def _step_done(self, tour: RoomTournament) -> None:
        if tour.on_step is not None:
            tour.on_step(tour)
        for k in list(tour.tables):
            for conn in self._running(tour, k).connections:
                conn.schedule_state()

    # ------------------------------------------------------------------ a restart
    def restore(self) -> None:
        """Every tournament of the log not finished, rebuilt from its stream and its tables'
        logs, reconciled and going on (the module docstring); one that cannot be is refunded
        by the rule (docs/rules.md, "Tournaments")."""
        log_ = self.room.log
        for sid in log_.stream_ids(STREAM):
            tid = sid.split(":", 1)[1]
            records = log_.read(sid)
            try:
                tour = self._replay(tid, records)
            except Exception:
                log.exception("tournament %s: its records do not replay: refunded", tid)
                self._give_up(tid, records)
                continue
            tour.seq = records[-1].seq if records else 0
            self.all[tid] = tour
            try:
                self._resume(tour, records)
            except Exception:
                log.exception("tournament %s could not go on: refunded", tid)
                self._give_up(tid, records, tour)

    def _replay(self, tid: str, records: list[Any], upto: int | None = None
                ) -> RoomTournament:
        """The tournament as its stream's records (the first ``upto``) leave it: the
        director fed every input again (it is deterministic)."""
        if not records or records[0].kind != "created":
            raise BooksError(f"tournament {tid}: its stream does not begin with its settings")
        tour = self._created(tid, records[0].payload)
        for r in records[1:upto]:
            p = r.payload
            if r.kind == "registered":
                tour.entries[p["player"]] = p["n"]
                tour.people[p["player"]] = p["name"]
            elif r.kind == "unregistered":
                tour.people.pop(p["player"], None)
            elif r.kind == "started":
                live = self._draw(tour)
                seating = [[s.table, s.seat, s.player, s.chips] for s in live.start()]
                if seating != p["seating"]:
                    raise BooksError(f"tournament {tid}: the seat draw does not replay")
                tour.live = live
                tour.ids = {int(k): v for k, v in p["tables"].items()}
            elif r.kind == "hand_over":
                assert tour.live is not None
                tour.live.hand_over(p["table"], p["stacks"], p["big_blind_seat"],
                                    p["elapsed_s"])
            elif r.kind in ("prize", "refund"):
                tour.paid[p["player"]] = p["amount"]
            else:
                raise BooksError(f"tournament {tid}: a {r.kind!r} record at {r.seq}")
        return tour

    def _reask(self, tour: RoomTournament, records: list[Any]) -> None:
        """Every bankroll move the stream records, asked for again (each key once)."""
        bankroll = self.room.bankroll
        for r in records:
            p = r.payload
            if r.kind == "registered" and tour.rules.buy_in:
                key = f"{tour.id}:buy-in:{p['player']}:{p['n']}"
                if not bankroll.take(p["player"], tour.rules.buy_in, key) and \
                        p["player"] in tour.people:  # never taken, and not there now
                    self._store(tour, "unregistered", {"player": p["player"], "n": p["n"],
                                                       "refund": False})
                    del tour.people[p["player"]]
            elif r.kind == "unregistered" and p["refund"] and tour.rules.buy_in:
                bankroll.give(p["player"], tour.rules.buy_in,
                              f"{tour.id}:refund:{p['player']}:{p['n']}")
            elif r.kind == "prize":
                bankroll.give(p["player"], p["amount"], f"{tour.id}:prize:{p['player']}")
            elif r.kind == "refund":
                bankroll.give(p["player"], p["amount"], p["key"])

    def _resume(self, tour: RoomTournament, records: list[Any]) -> None:
        self._reask(tour, records)
        live = tour.live
        if live is None:
            return  # registered, not started: the registrations stand
        log_ = self.room.log
        open_ids = set(log_.table_ids())
        tour.account = ChipAccount()
        tour.account.restoring = True
        restored: dict[int, RoomTable] = {}
        for k, table_id in tour.ids.items():
            if table_id in open_ids:
                restored[k] = self._new_table(tour, k, table_id, restored=True)
        seated = {p: k for k, rt in restored.items() for p in rt.players.values()}
        off = {p: s.chips for p, s in ((s.player, s) for tb in live.tables.values()
                                       for s in tb.seats if s is not None)
               if p not in seated}
        tour.account.settle(off, len(live.entrants) * tour.rules.starting_stack,
                            sum(rt.table_chips() for rt in restored.values()))
        for k, rt in restored.items():
            tour.tables[k] = self._attach(tour, k, rt)
        if live.over:
            self._pay(tour)
            self._close(tour)
            return
        self._reconcile(tour)

    def _reconcile(self, tour: RoomTournament) -> None:
        """Apply what the director's last orders asked of the tables and a crash kept from
        them, each a logged command of the table: what was applied is not applied again."""
        live = tour.live
        assert live is not None
        for k in list(tour.tables):  # seated where the director has them no more
            rt = self._table(tour, k)
            for seat, p in sorted(rt.players.items()):
                e = live.entrants[p]
                if (e.table, e.seat) != (k, seat):
                    rt.tournament_unseat(p)
        for k, tb in live.tables.items():  # not seated where the director has them
            if k not in tour.tables:
                tour.tables[k] = self._open_table(tour, k, tour.ids[k])
            rt = self._table(tour, k)
            for seat, s in enumerate(tb.seats):
                if s is not None and rt.seat_of(s.player) is None:
                    e = live.entrants[s.player]
                    rt.tournament_seat(s.player, e.name, seat, s.chips, dealt_in=e.moves > 0,
                                       agent=tour.agents.get(s.player))
        for k in [k for k in tour.tables if k not in live.tables]:  # closed by the director
            table_id = tour.tables.pop(k)
            self.where.pop(table_id, None)
            self.room.close(table_id)
        for k in live.playing():  # due a hand: told to deal, or its end reported
            rt = self._table(tour, k)
            if rt.hand is None and rt.next_level is None:
                if rt.hand_no > live.tables[k].hands:
                    self._step(tour, k)
                else:
                    self._deal(tour, k, live.next_level(k))
        self._step_done(tour)

    def _close(self, tour: RoomTournament) -> None:
        """A tournament over: its tables and its stream are closed for good."""
        for table_id in list(tour.tables.values()):
            self.where.pop(table_id, None)
            self.room.close(table_id)
        tour.tables.clear()
        for table_id in tour.ids.values():
            if self._exists(table_id):
                self.room.log.close_table(table_id)
        self.room.log.close_table(tour.stream)

    def _exists(self, table_id: str) -> bool:
        try:
            self.room.log.config(table_id)
        except Refused:
            return False
        return True

    def _give_up(self, tid: str, records: list[Any], tour: RoomTournament | None = None
                 ) -> None:
        """The rule for a tournament that cannot go on (docs/rules.md, "Tournaments"):
        before the start every buy-in back; after it, each person paid their place's prize if
        out, else their share of the prizes left by ICM of the director's last stacks (the
        last input that replays), as a deal would; keyed, so paid once; its players told."""
        good = tour
        if good is None:  # the longest beginning of the stream that replays
            for upto in range(len(records), 0, -1):
                try:
                    good = self._replay(tid, records, upto)
                    break
                except Exception:
                    continue
        if good is None:
            log.error("tournament %s: not even its settings replay: nothing to refund", tid)
            self.room.log.close_table(f"{STREAM}:{tid}")
            return
        good.seq = records[-1].seq if records else 0
        bankroll = self.room.bankroll
        paid = dict(good.paid)
        owed: dict[str, tuple[int, str]] = {}
        live = good.live
        if live is None or not live.started:
            for pid in good.people:
                if good.rules.buy_in:
                    owed[pid] = (good.rules.buy_in, f"{tid}:refund:{pid}:{good.entries[pid]}")
        else:
            if not live.over:
                for tb in live.tables.values():
                    tb.busy = False
                left = live.left()
                stacks = live.stacks()
                prizes = live.prizes()[:len(left)]
                amounts = deals.icm_deal(tuple(stacks.get(e.player, 0) for e in left),
                                         tuple(prizes))
                live.take_deal({e.player: a for e, a in zip(left, amounts, strict=True)})
            for pid in good.people:
                prize = live.entrants[pid].prize
                if prize > 0:
                    owed[pid] = (prize, f"{tid}:prize:{pid}")
        for pid, (amount, key) in owed.items():
            if pid in paid:
                bankroll.give(pid, paid[pid], key)  # asked again: once per key
                continue
            try:
                self._store(good, "refund", {"player": pid, "amount": amount, "key": key})
            except Exception:  # the stream takes no more: the key alone makes it once
                log.exception("tournament %s: the refund of %s was not stored", tid, pid)
            bankroll.give(pid, amount, key)
        good.notice = t("This tournament could not go on after a restart: every buy-in was"
                        " given back, or the prizes shared by the stacks (docs: Tournaments).")
        for pid in good.people:
            p = self.room.hub.player(pid, create=True)
            if p is not None:
                p.notice = good.notice
        self.all[tid] = good
        for table_id in good.ids.values():
            self.where.pop(table_id, None)
            self.room.close(table_id)  # one restored before the failure stops
            if self._exists(table_id):
                self.room.log.close_table(table_id)
        self.room.log.close_table(good.stream)

    def info(self, table_id: str, player: str | None) -> dict[str, Any] | None:
        """``TournamentInfo`` for a viewer of room table ``table_id``, None if not one of a
        tournament's (any more)."""
        found = self.where.get(table_id)
        if found is None:
            return None
        tour, number = found
        if tour.live is None:
            return None
        running = self.room.tables.get(table_id)
        in_hand = running is not None and running.table.hand is not None
        return tournament_info(tour.live, tour.id, Text(tour.name, tour.name), "mtt", number,
                               player, in_hand, None)

    def chips(self, tour: RoomTournament) -> int:
        """Every tournament chip: off the tables (the account) and on them."""
        return tour.account.off_tables() + sum(self._table(tour, k).table_chips()
                                               for k in tour.tables)


def routes(tournaments: Tournaments, hub: Hub, player: Callable[[Request, Hub], Any],
           same_origin: Callable[[Any], bool],
           over_limits: Callable[[Request, str], Awaitable[Response | None]]) -> list[Any]:
    """``/api/room/tournaments``: GET lists, POST creates (JSON; counted as opening tables,
    ``over_limits``: the app's limits per person and per address); ``/{id}``: GET one;
    ``/{id}/register`` (``{"name": ...}``), ``/{id}/unregister``, ``/{id}/start``: POST."""
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def listing(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse([x.summary() for x in tournaments.all.values()])
        if not same_origin(request.headers):
            return JSONResponse({"error": t("a table's settings are a JSON object").to_json()},
                                status_code=403)
        p = player(request, hub)
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"error": t("a table's settings are a JSON object").to_json()},
                                status_code=400)
        refused = await over_limits(request, p.id)
        if refused is not None:
            return refused
        try:
            tour = tournaments.create(p.id, body)
        except ValueError:
            return JSONResponse({"error": t("a table's settings are a JSON object").to_json()},
                                status_code=400)
        except Refused as exc:
            return JSONResponse({"error": exc.to_json()}, status_code=400)
        return JSONResponse(tour.summary(), status_code=201)

    async def one(request: Request) -> Response:
        tid = str(request.path_params["tid"])
        action = request.path_params.get("action")
        try:
            if action is None:
                return JSONResponse(tournaments.get(tid).summary())
            if not same_origin(request.headers):
                return JSONResponse({"error": t("only the host can do that").to_json()},
                                    status_code=403)
            p = player(request, hub)
            if action == "register":
                try:
                    body = await request.json()
                except ValueError:
                    body = {}
                name = body.get("name", "") if isinstance(body, dict) else ""
                tournaments.register(tid, p.id, name)
            elif action == "unregister":
                tournaments.unregister(tid, p.id)
            elif action == "start":
                tournaments.start(tid, p.id)
            else:
                return JSONResponse({"error": t("no such tournament").to_json()},
                                    status_code=404)
            return JSONResponse(tournaments.get(tid).summary())
        except Refused as exc:
            return JSONResponse({"error": exc.to_json()}, status_code=400)

    return [Route("/api/room/tournaments", listing, methods=["GET", "POST"]),
            Route("/api/room/tournaments/{tid}", one, methods=["GET"]),
            Route("/api/room/tournaments/{tid}/{action}", one, methods=["POST"])]
