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

Not yet: a restart does not resume a tournament (the coordinator lives in memory; the room
does not restore a tournament's tables, server/rooms.py), late registration and rebuys (the
live director runs freezeouts).
"""

from __future__ import annotations

import functools
import json
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.core.text import Text
from tapete.room.errors import Refused
from tapete.room.log import TableConfig
from tapete.room.money import ChipAccount
from tapete.room.table import RoomTable
from tapete.server.game import send
from tapete.server.rooms import BOT_PREFIX, BOT_STYLES, Running, bot_agent
from tapete.tournament import deals
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
        }


# the players left up to which states carry each one's ICM equity (exact ICM grows fast with
# the field: a final table's is instant, 20 players' with 4 paid takes a good part of a second)
ICM_MOST = 10


@functools.lru_cache(maxsize=256)
def _icm(stacks: tuple[int, ...], prizes: tuple[int, ...]) -> list[int]:
    """The ICM shares in whole chips, worked out once for each stacks and prizes (every
    viewer's state of a table between two hands shows the same)."""
    return deals.icm_deal(stacks, prizes)


def tournament_info(live: LiveTournament, tid: str, name: Text, kind: str, table: int,
                    player: str | None, in_hand: bool, deal: dict[str, Any] | None
                    ) -> dict[str, Any]:
    """A tournament as ``player`` sees it at table number ``table``: the protocol's
    ``TournamentInfo`` (docs/protocol.md)."""
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
    }


class Tournaments:
    """The room's tournaments (in memory)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.all: dict[str, RoomTournament] = {}
        self.where: dict[str, tuple[RoomTournament, int]] = {}  # room table id -> (t, number)

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
        levels = body.get("levels", "25/50x6 50/100x6 75/150/150x6 100/200/200x6"
                                    " 150/300/300x6 200/400/400x6 300/600/600x6")
        if not isinstance(name, str) or not name.strip() or len(name) > 40 or \
                not all(type(x) is int for x in (seats, stack, buy_in, most, bots)) or \
                not isinstance(levels, str) or not 2 <= most <= MAX_PLAYERS or \
                not 0 <= bots <= most or not 0 <= buy_in <= 1_000_000:
            raise Refused(t("a tournament needs a name, seats, a starting stack, a buy-in,"
                            " the most players (2 to {most}) and the bots to fill",
                            most=MAX_PLAYERS))
        try:
            rules = TournamentRules(parse_levels(levels), starting_stack=stack, seats=seats,
                                    buy_in=buy_in)
        except TournamentError as exc:
            raise Refused(exc.message) from None
        seed = body.get("seed")
        tid = secrets.token_urlsafe(9)
        tour = RoomTournament(tid, name.strip(), creator, rules, most, bots,
                              seed if type(seed) is int else secrets.randbits(31))
        self.all[tid] = tour
        return tour

    def get(self, tid: str) -> RoomTournament:
        tour = self.all.get(tid)
        if tour is None:
            raise Refused(t("no such tournament"))
        return tour

    def register(self, tid: str, player: str, name: str) -> None:
        tour = self.get(tid)
        if tour.started:
            raise Refused(t("registration is closed"))
        if player in tour.people:
            raise Refused(t("you are registered already"))
        if len(tour.people) + tour.bots >= tour.max_players:
            raise Refused(t("the tournament is full"))
        if not isinstance(name, str) or not name.strip() or len(name) > 20 or \
                name.strip().casefold() in {n.casefold() for n in tour.people.values()}:
            raise Refused(t("a name is 1 to {most} characters", most=20))
        n = tour.entries.get(player, 0) + 1
        if tour.rules.buy_in and not self.room.bankroll.take(
                player, tour.rules.buy_in, f"{tid}:buy-in:{player}:{n}"):
            raise Refused(t("your bankroll does not hold that many chips"))
        tour.entries[player] = n
        tour.people[player] = name.strip()
        if len(tour.people) + tour.bots >= tour.max_players:
            self.start(tid, tour.creator)

    def unregister(self, tid: str, player: str) -> None:
        tour = self.get(tid)
        if tour.started:
            raise Refused(t("registration is closed"))
        if player not in tour.people:
            raise Refused(t("not registered"))
        del tour.people[player]
        n = tour.entries[player]
        if tour.rules.buy_in:
            self.room.bankroll.give(player, tour.rules.buy_in, f"{tid}:refund:{player}:{n}")

    # ------------------------------------------------------------------ the start
    def start(self, tid: str, by: str) -> RoomTournament:
        tour = self.get(tid)
        if tour.started:
            raise Refused(t("the tournament has started"))
        if by != tour.creator:
            raise Refused(t("only the host can do that"), code="not_host")
        live = LiveTournament(tour.rules, seed=tour.seed)
        agents: dict[str, Any] = {}
        for pid, name in tour.people.items():
            live.register(pid, name)
        for i in range(tour.bots):
            pid = f"{BOT_PREFIX}{tid}:{i}"
            live.register(pid, f"Bot {i + 1}", bot=True)
            agents[pid] = bot_agent(BOT_STYLES[i % len(BOT_STYLES)], tour.seed * 1000 + i)
        try:
            seating = live.start()
        except TournamentError as exc:
            raise Refused(exc.message) from None
        tour.live = live
        self._agents = agents
        for k in live.tables:
            tour.tables[k] = self._open_table(tour, k, agents)
        for s in seating:
            tour.account.issue(s.player, s.chips)
            rt = self._table(tour, s.table)
            rt.tournament_seat(s.player, live.entrants[s.player].name, s.seat, s.chips,
                               dealt_in=False)
        for k in live.playing():
            self._deal(tour, k, live.next_level(k))
        self._step_done(tour)
        return tour

    def _open_table(self, tour: RoomTournament, number: int, agents: dict[str, Any]) -> str:
        room = self.room
        table_id = secrets.token_urlsafe(9)
        lv = tour.rules.schedule.level(0)
        config = TableConfig(seats=tour.rules.seats, small_blind=lv.small_blind,
                             big_blind=lv.big_blind, min_buy_in=lv.big_blind,
                             max_buy_in=max(lv.big_blind, tour.rules.starting_stack),
                             public=False, tournament=tour.id)
        room.log.create_table(config, table_id)
        rt = RoomTable(room.log, table_id, config, tour.account, agents=dict(agents),
                       think_ms=room.think_ms, pause_ms=room.pause_ms,
                       on_hand=room._hand_over,
                       on_tournament=lambda table: self._hand_over(tour, number, table))
        seed = room.hub.settings.deck_seed
        if seed is not None:  # tests: the same decks every run
            decks = random.Random(f"{seed}:{tour.seed}:{number}")
            rt.new_deck = lambda: Deck(seed=decks.randrange(2**32))
        room._run(rt, {})
        self.where[table_id] = (tour, number)
        return table_id

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
        orders = live.hand_over(number, stacks, rt.table.big_blind_seat)
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
            agent = src.table.agents.get(m.player)
            if agent is not None:
                dst.table.agents[m.player] = agent
            dst.table.tournament_seat(m.player, live.entrants[m.player].name, m.to_seat,
                                      m.chips, dealt_in=m.dealt_in)
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
        live = tour.live
        assert live is not None
        for pid in tour.people:
            prize = live.entrants[pid].prize
            if prize > 0 and pid not in tour.paid:
                self.room.bankroll.give(pid, prize, f"{tour.id}:prize:{pid}")
                tour.paid[pid] = prize

    def _step_done(self, tour: RoomTournament) -> None:
        if tour.on_step is not None:
            tour.on_step(tour)
        for k in list(tour.tables):
            for conn in self._running(tour, k).connections:
                conn.schedule_state()

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
           same_origin: Callable[[Any], bool]) -> list[Any]:
    """``/api/room/tournaments``: GET lists, POST creates (JSON); ``/{id}``: GET one;
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
