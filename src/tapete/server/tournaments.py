"""The room's multi-table tournaments: the registry, its HTTP routes, and the adapter that
gives the one coordinator (:mod:`tapete.tournament.coordinator`) its room tables.

A tournament is created (name, seats a table, schedule, starting stack, buy-in, most players,
bots to fill), people register (the buy-in taken from their bankroll, keyed) and unregister
(given back) before it starts; it starts when full or when its creator says so. Its tables are
room tables (``/t/{table_id}``, ``TableConfig.tournament``) whose chips come from one
:class:`~tapete.room.money.ChipAccount`; the coordinator decides, after each hand of a table,
who is out, who moves where, which tables close and which deal next (its step runs on the
finished table's owner task and commands the other tables directly: a room table never awaits,
one command at a time on the event loop). A person moved gets ``{"type": "moved", "table":
<new table id>}`` on the sockets of the old table. At the end every person's prize is paid to
their bankroll, keyed by the tournament and player, so a crash pays once; the bots' buy-ins and
prizes are the house's.

A restart resumes every tournament not finished (:meth:`Tournaments.restore`, called by the
room at start-up, before the other tables): its stream replayed, the bankroll asked again, its
tables restored from their logs against a new chip account, reconciled; one that cannot go on
is refunded by the rule, and its players are told (the coordinator's docstring says how).

Not yet: late registration and rebuys (the live director runs freezeouts); levels by minutes
count no time (the coordinator reports 0 seconds of play); several nodes (a tournament's
tables are run by the node that runs the tournament).
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.core.text import Text
from tapete.room.errors import Refused
from tapete.room.log import TableConfig
from tapete.room.money import ChipAccount
from tapete.room.names import clean_name
from tapete.room.policy import TournamentPolicy
from tapete.room.table import RoomTable, restore
from tapete.server import protocol
from tapete.server.game import send
from tapete.server.money import BOT_PREFIX
from tapete.server.rooms import BOT_STYLES, Room, bot_agent
from tapete.tournament.coordinator import LEVELS, Coordinator, RoomTournament
from tapete.tournament.model import TournamentError

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from tapete.server.session import Running

log = logging.getLogger("tapete.server")
MAX_PLAYERS = 200
MAX_TOURNAMENTS = 50
STREAM = RoomTournament.STREAM  # a tournament's stream in the room's log: "tournament:<id>"
__all__ = ["LEVELS", "RoomTournament", "Tournaments", "routes"]


def bot_names(tour: Coordinator) -> dict[str, str]:
    """A room tournament's bots, by id: drawn after the people, in this order."""
    assert isinstance(tour, RoomTournament)
    return {f"{BOT_PREFIX}{tour.id}:{i}": f"Bot {i + 1}" for i in range(tour.bot_count)}


class RoomTables:
    """One tournament's hands on the room's tables (the coordinator's ``Tables`` port)."""

    def __init__(self, tournaments: Tournaments, tour: RoomTournament) -> None:
        self.tournaments = tournaments
        self.room = tournaments.room
        self.tour = tour
        # the bots' agents, by player id
        self.agents = {pid: bot_agent(BOT_STYLES[i % len(BOT_STYLES)], tour.seed * 1000 + i)
                       for i, pid in enumerate(tour.bots)}

    def running(self, number: int) -> Running:
        running = self.room.tables.get(self.tour.tables[number])
        assert running is not None
        return running

    def table(self, number: int) -> RoomTable:
        return self.running(number).table

    def config(self) -> TableConfig:
        tour = self.tour
        lv = tour.rules.schedule.level(0)
        return TableConfig(seats=tour.rules.seats, small_blind=lv.small_blind,
                           big_blind=lv.big_blind, min_buy_in=lv.big_blind,
                           max_buy_in=max(lv.big_blind, tour.rules.starting_stack),
                           public=False, tournament=tour.id)

    def new_table(self, number: int, table_id: str, restored: bool = False) -> RoomTable:
        room, tour = self.room, self.tour
        assert isinstance(tour.account, ChipAccount)
        policy = TournamentPolicy(lambda table: self.hand_over(number),
                                  think_ms=room.think_ms, pause_ms=room.pause_ms,
                                  table_deck=self._decks(number), held_back=room._held_back)
        kwargs: dict[str, Any] = dict(agents=dict(self.agents), on_hand=room._hand_over,
                                      policy=policy)
        if restored:
            return restore(room.log, table_id, tour.account, **kwargs)
        return RoomTable(room.log, table_id, self.config(), tour.account, **kwargs)

    def _decks(self, number: int) -> Callable[[RoomTable], Deck] | None:
        """Tests: the same decks every run, from the hand the table was at when it began
        (or was restored): seeded at its first deal, by the hand number before it."""
        seed = self.room.hub.settings.deck_seed
        if seed is None:
            return None
        made: list[random.Random] = []

        def deck(rt: RoomTable) -> Deck:
            if not made:
                made.append(random.Random(f"{seed}:{self.tour.seed}:{number}:{rt.hand_no}"))
            return Deck(seed=made[0].randrange(2**32))

        return deck

    def attach(self, number: int, rt: RoomTable) -> None:
        """A table of the tournament's run by the room."""
        self.room._run(rt, {})
        self.tournaments.where[rt.table_id] = (self.tour, number)

    def hand_over(self, number: int) -> None:
        """Called inside the table's command: the step runs next, on the table's owner."""
        self.running(number).owner.submit(lambda: self.tour.step(number))

    # ------------------------------------------------------------------ the port
    def open(self, number: int, table_id: str) -> None:
        self.room.log.create_table(self.config(), table_id)
        self.attach(number, self.new_table(number, table_id))

    def close(self, number: int, table_id: str) -> None:
        self.tournaments.where.pop(table_id, None)
        self.room.close(table_id)

    def agent(self, player: str, src: int | None) -> Any:
        """The bot that plays for ``player`` (None: a person), seated with them."""
        agent = self.table(src).agents.get(player) if src is not None else None
        return agent if agent is not None else self.agents.get(player)

    def moved(self, player: str, src: int, dst: int) -> None:
        moved = protocol.moved(self.tour.tables[dst])
        for conn in list(self.running(src).connections):
            if conn.player == player:
                send(conn.box, moved)

    def poke(self, number: int) -> None:
        self.running(number).owner.submit(lambda: None)  # look at the timers now

    def stepped(self) -> None:
        for k in list(self.tour.tables):
            for conn in self.running(k).connections:
                conn.schedule_state()


class Tournaments:
    """The room's tournaments: in memory, each one's inputs stored in its stream first."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.all: dict[str, RoomTournament] = {}
        self.where: dict[str, tuple[RoomTournament, int]] = {}  # room table id -> (t, number)

    def _plug(self, tour: RoomTournament) -> RoomTournament:
        """The coordinator given the room's log, bankroll and tables."""
        tour.log = self.room.log
        tour.bankroll = self.room.bankroll
        tour.account = ChipAccount()
        tour.bots = bot_names(tour)
        tour.port = RoomTables(self, tour)
        return tour

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
        try:
            tour = self._plug(RoomTournament.created(secrets.token_urlsafe(9), created))
        except TournamentError as exc:
            raise Refused(exc.message) from None
        self.room.log.create_stream(tour.stream, {"kind": STREAM, "id": tour.id})
        tour.store("created", created)
        self.all[tour.id] = tour
        return tour

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
        if len(tour.people) + tour.bot_count >= tour.max_players:
            raise Refused(t("the tournament is full"))
        name = clean_name(name)  # refused in words: the room's one rule for names
        if name.casefold() in {n.casefold() for n in tour.people.values()}:
            raise Refused(t("the name {name} is taken at this table", name=repr(name)))
        bankroll = self.room.bankroll
        if tour.rules.buy_in and bankroll.balance(player) < tour.rules.buy_in:
            raise Refused(t("your bankroll does not hold that many chips"))
        n = tour.register(player, name)
        if tour.rules.buy_in and not bankroll.take(player, tour.rules.buy_in,
                                                   tour.key("buy-in", player, n)):
            tour.unregister(player, refund=False)
            raise Refused(t("your bankroll does not hold that many chips"))
        if len(tour.people) + tour.bot_count >= tour.max_players:
            self.start(tid, tour.creator)

    def unregister(self, tid: str, player: str) -> None:
        tour = self.get(tid)
        if tour.started or tour.notice is not None:
            raise Refused(t("registration is closed"))
        if player not in tour.people:
            raise Refused(t("not registered"))
        tour.unregister(player, refund=True)

    def start(self, tid: str, by: str) -> RoomTournament:
        tour = self.get(tid)
        if tour.started or tour.notice is not None:
            raise Refused(t("the tournament has started"))
        if by != tour.creator:
            raise Refused(t("only the host can do that"), code="not_host")
        try:
            tour.start(lambda: secrets.token_urlsafe(9), by)
        except TournamentError as exc:
            raise Refused(exc.message) from None
        return tour

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
                tour = RoomTournament.replay(tid, records, bot_names)
            except Exception:
                log.exception("tournament %s: its records do not replay: refunded", tid)
                self._give_up(tid, records)
                continue
            assert isinstance(tour, RoomTournament)
            self.all[tid] = self._plug(tour)
            try:
                self._resume(tour, records)
            except Exception:
                log.exception("tournament %s could not go on: refunded", tid)
                self._give_up(tid, records, tour)

    def _resume(self, tour: RoomTournament, records: list[Any]) -> None:
        if tour.given_up_before(records):  # a restart found it half refunded: finished
            self._closed(tour)
            return
        tour.reask(records)
        live = tour.live
        if live is None:
            return  # registered, not started: the registrations stand
        port = tour.port
        assert isinstance(port, RoomTables) and isinstance(tour.account, ChipAccount)
        open_ids = set(self.room.log.table_ids())
        tour.account.restoring = True
        restored = {k: port.new_table(k, table_id, restored=True)
                    for k, table_id in tour.ids.items() if table_id in open_ids}
        tour.settle(dict(restored))
        for k, rt in restored.items():
            tour.tables[k] = rt.table_id
            port.attach(k, rt)
        if live.over:
            tour.pay()
            self._closed(tour)
            return
        tour.reconcile()

    def _closed(self, tour: RoomTournament) -> None:
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
        """The rule for a tournament that cannot go on (the coordinator's ``give_up``), on
        the tournament as the longest beginning of its stream that replays leaves it; its
        players told."""
        good = tour if tour is not None else RoomTournament.longest_replay(tid, records,
                                                                           bot_names)
        if good is None:
            log.error("tournament %s: not even its settings replay: nothing to refund", tid)
            self.room.log.close_table(f"{STREAM}:{tid}")
            return
        assert isinstance(good, RoomTournament)
        if good.port is None:
            self._plug(good)
        good.give_up(records)
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
        good.tables.clear()

    def info(self, table_id: str, player: str | None) -> dict[str, Any] | None:
        """``TournamentInfo`` for a viewer of room table ``table_id``, None if not one of a
        tournament's (any more)."""
        found = self.where.get(table_id)
        if found is None:
            return None
        tour, number = found
        running = self.room.tables.get(table_id)
        in_hand = running is not None and running.table.hand is not None
        return tour.info(Text(tour.name, tour.name), number, player, in_hand)

    def chips(self, tour: RoomTournament) -> int:
        """Every tournament chip: off the tables (the account) and on them."""
        port = tour.port
        assert port is not None and tour.account is not None
        return tour.account.off_tables() + sum(port.table(k).table_chips()
                                               for k in tour.tables)


class People(Protocol):
    """What the routes ask of the hub (server/hub.py)."""

    def player(self, pid: str, create: bool = False, keep: bool = True) -> Any: ...


def routes(tournaments: Tournaments, hub: People, player: Callable[[Request, Any], Any],
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
